//! Evaluation tests: colour symmetry and the term breakdown.

use janggi::eval::{evaluate, evaluate_cho, explain, TEMPO};
use janggi::Position;

/// The position seen from the other side: ranks reversed, colours and the
/// side to move swapped.
fn mirror(fen: &str) -> String {
    let mut parts = fen.split_whitespace();
    let board = parts.next().expect("board");
    let side = parts.next().expect("side");
    let ranks: Vec<String> = board
        .split('/')
        .rev()
        .map(|r| {
            r.chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect()
        })
        .collect();
    let side = if side == "w" { "b" } else { "w" };
    format!("{} {} - - 0 1", ranks.join("/"), side)
}

#[test]
fn mirrored_position_has_negated_eval() {
    let mut asymmetric = 0;
    for fen in janggi::bench::FENS {
        let p = Position::from_fen(fen).expect("fen");
        let m = Position::from_fen(&mirror(fen)).expect("mirrored fen");
        assert_eq!(evaluate_cho(&m), -evaluate_cho(&p), "{fen}");
        assert_eq!(evaluate(&m), evaluate(&p), "{fen}");
        if evaluate_cho(&p) != 0 {
            asymmetric += 1;
        }
    }
    assert!(asymmetric > 10, "the test positions are not all balanced");
}

#[test]
fn start_position_is_balanced_and_explained() {
    let p = Position::startpos();
    assert_eq!(evaluate_cho(&p), 0);
    assert_eq!(evaluate(&p), TEMPO);
    let terms = explain(&p);
    let total = terms.last().expect("total");
    assert_eq!(total.name, "total");
    assert_eq!(total.cho - total.han, evaluate_cho(&p));
    assert!(terms
        .iter()
        .any(|t| t.name == "material" && t.cho > 0 && t.cho == t.han));
}

#[test]
fn material_counts() {
    // Cho is a chariot up.
    let p = Position::from_fen("4k4/9/9/9/9/9/9/9/4A4/R3K4 w - - 0 1").expect("fen");
    let v = evaluate_cho(&p);
    assert!(v > 1300, "{v}");
    let terms = explain(&p);
    let total = terms.last().expect("total");
    assert_eq!(total.cho - total.han, v);
}
