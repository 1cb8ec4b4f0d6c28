//! Evaluation tests: colour symmetry (apart from the deom), the term
//! breakdown, and the linearity the Texel tuner relies on.

use janggi::eval::weights::{self, Weights, DEFAULT, NUM_PARAMS};
use janggi::eval::{evaluate, evaluate_cho, evaluate_cho_with, explain, features, Term, TEMPO};
use janggi::rng::SplitMix64;
use janggi::{LegalityModel, Position, Setup};

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

/// Positions from random playouts of all 16 set-ups (seeded, so the same
/// positions every run): every 3rd ply of `games_per_setup` games each.
fn random_positions(seed: u64, games_per_setup: usize) -> Vec<Position> {
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::new();
    for han in Setup::ALL {
        for cho in Setup::ALL {
            for _ in 0..games_per_setup {
                let mut pos = Position::from_setups(han, cho);
                let plies = 20 + rng.below(160);
                for ply in 0..plies {
                    let moves = pos.legal_moves(LegalityModel::Casual);
                    if moves.is_empty() {
                        break;
                    }
                    let mv = moves[rng.below(moves.len())];
                    pos.make(mv);
                    if ply % 3 == 0 {
                        let mut p = Position::from_fen(&pos.fen()).expect("own fen");
                        p.clear_history();
                        out.push(p);
                    }
                }
            }
        }
    }
    out
}

fn term(terms: &[Term], name: &str) -> Term {
    *terms.iter().find(|t| t.name == name).expect("term")
}

fn dot(f: &[f64], w: &Weights) -> f64 {
    f.iter()
        .zip(w.0.iter())
        .map(|(a, &b)| a * f64::from(b))
        .sum()
}

/// Each side's blended sum is truncated once: at most 1 cp per side.
const ROUNDING: f64 = 2.0;

#[test]
fn features_dot_weights_is_the_evaluation() {
    let positions = random_positions(7, 3);
    assert!(positions.len() > 1000, "{}", positions.len());
    // Random weights too, so that every weight's phase scaling is checked,
    // including weights that are zero by default.
    let mut rng = SplitMix64::new(99);
    let mut random = Weights([0; NUM_PARAMS]);
    for w in random.0.iter_mut() {
        *w = rng.below(201) as i32 - 100;
    }
    let mut nonzero_new_terms = 0;
    for p in &positions {
        let f = features(p);
        assert_eq!(f.len(), NUM_PARAMS);
        let v = evaluate_cho(p);
        let d = dot(&f, &DEFAULT);
        assert!(
            (d - f64::from(v)).abs() <= ROUNDING,
            "{}: dot {d} eval {v}",
            p.fen()
        );
        let vr = evaluate_cho_with(p, &random);
        let dr = dot(&f, &random);
        assert!(
            (dr - f64::from(vr)).abs() <= ROUNDING,
            "{}: dot {dr} eval {vr}",
            p.fen()
        );
        let terms = explain(p);
        if ["soldiers", "exposure", "count"]
            .iter()
            .all(|n| term(&terms, n).cho != term(&terms, n).han)
        {
            nonzero_new_terms += 1;
        }
    }
    assert!(nonzero_new_terms > 100, "{nonzero_new_terms}");
}

/// Mirroring swaps the colours; every term but `count` (the deom favours
/// Han) changes sides exactly.
fn check_mirror(fen: &str) -> bool {
    let p = Position::from_fen(fen).expect("fen");
    let m = Position::from_fen(&mirror(fen)).expect("mirrored fen");
    let (tp, tm) = (explain(&p), explain(&m));
    for (a, b) in tp.iter().zip(tm.iter()) {
        if a.name == "count" || a.name == "total" {
            continue;
        }
        assert_eq!((a.cho, a.han), (b.han, b.cho), "{} in {fen}", a.name);
    }
    // Without the counting term the evaluation is colour-symmetric.
    let count_p = term(&tp, "count");
    let count_m = term(&tm, "count");
    let sym_p = evaluate_cho(&p) - (count_p.cho - count_p.han);
    let sym_m = evaluate_cho(&m) - (count_m.cho - count_m.han);
    assert!((sym_p + sym_m).abs() <= 2, "{fen}: {sym_p} vs {sym_m}");
    // The deom: with the colours swapped, Han's count can only look better.
    assert!(
        count_m.han - count_m.cho >= count_p.cho - count_p.han,
        "{fen}: count {count_p:?} mirrored {count_m:?}"
    );
    evaluate_cho(&p) != 0
}

#[test]
fn mirrored_position_has_negated_eval_apart_from_the_deom() {
    let mut asymmetric = 0;
    for fen in janggi::bench::FENS {
        if check_mirror(fen) {
            asymmetric += 1;
        }
    }
    assert!(asymmetric > 10, "the test positions are not all balanced");
    for p in random_positions(3, 1) {
        check_mirror(&p.fen());
    }
}

#[test]
fn start_position_is_balanced_and_explained() {
    let p = Position::startpos();
    let terms = explain(&p);
    // Equal material: the deom puts Han ahead on the count, but at the
    // start (full phase) the count term is worth nothing.
    assert_eq!(term(&terms, "count").cho, 0);
    assert_eq!(term(&terms, "count").han, 0);
    assert_eq!(evaluate_cho(&p), 0);
    assert_eq!(evaluate(&p), TEMPO);
    let total = terms.last().expect("total");
    assert_eq!(total.name, "total");
    assert_eq!(total.cho - total.han, evaluate_cho(&p));
    assert!(terms
        .iter()
        .any(|t| t.name == "material" && t.cho > 0 && t.cho == t.han));
    for name in ["soldiers", "exposure", "count", "palace", "mobility", "pst"] {
        assert!(terms.iter().any(|t| t.name == name), "{name}");
    }
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

#[test]
fn the_count_leans_to_the_count_winner_in_the_endgame() {
    // Equal soldiers: Han wins the count by the deom.
    let even = Position::from_fen("4k4/9/9/9/4p4/4P4/9/9/9/4K4 w - - 0 1").expect("fen");
    let c = term(&explain(&even), "count");
    assert!(c.han > 0 && c.cho == 0, "{c:?}");
    // One soldier more for Cho: 4 points against 2 + 1.5, Cho wins the count.
    let up = Position::from_fen("4k4/9/9/9/4p4/3PP4/9/9/9/4K4 w - - 0 1").expect("fen");
    let c = term(&explain(&up), "count");
    assert!(c.cho > 0 && c.han == 0, "{c:?}");
    // The same lead matters less with the board full (phase scaling).
    let full = Position::startpos();
    assert_eq!(term(&explain(&full), "count").han, 0);
}

#[test]
fn soldier_structure_and_general_exposure() {
    // Cho's soldiers side by side on e5/f5 against the same soldiers apart.
    let pair = Position::from_fen("4k4/9/9/9/9/4PP3/9/9/9/4K4 w - - 0 1").expect("fen");
    let apart = Position::from_fen("4k4/9/9/9/9/3P1P3/9/9/9/4K4 w - - 0 1").expect("fen");
    let s_pair = term(&explain(&pair), "soldiers").cho;
    let s_apart = term(&explain(&apart), "soldiers").cho;
    assert!(s_pair > s_apart, "{s_pair} vs {s_apart}");
    // A Han chariot on the open e-file against Cho's bare general.
    let open = Position::from_fen("3k5/9/9/9/4r4/9/9/9/9/4K4 w - - 0 1").expect("fen");
    let shut = Position::from_fen("3k5/9/9/9/r8/9/9/9/9/4K4 w - - 0 1").expect("fen");
    // The feature, not its tuned weight (the endgame weight is near zero):
    // one Han chariot on a line through Cho's general.
    let exposed = |p: &Position| features(p)[weights::EXPOSED_CHARIOT + 1];
    assert!(exposed(&open) > 0.0 && exposed(&shut) == 0.0);
    // In the middlegame the open line costs Cho.
    let mg_open = Position::from_fen(
        "rnba1abn1/4k4/1c5c1/p1p1p1p1p/4r4/9/P1P3P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    )
    .expect("fen");
    let mg_shut = Position::from_fen(
        "rnba1abn1/4k4/1c5c1/p1p1p1p1p/r8/9/P1P3P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    )
    .expect("fen");
    let e_open = term(&explain(&mg_open), "exposure").cho;
    let e_shut = term(&explain(&mg_shut), "exposure").cho;
    assert!(e_open < e_shut, "{e_open} vs {e_shut}");
}

#[test]
fn threats_count_against_the_side_to_move() {
    // A Han horse on d7 attacks Cho's chariot on c5 (leg d6 open).
    let hanging = "9/4k4/9/3n5/9/2R6/9/9/4K4/9";
    let threat = |board: &str, side: &str| {
        let p = Position::from_fen(&format!("{board} {side} - - 0 1")).expect("fen");
        term(&explain(&p), "threats")
    };
    let cho_to_move = threat(hanging, "w");
    assert!(
        cho_to_move.cho < 0 && cho_to_move.han == 0,
        "{cho_to_move:?}"
    );
    // With Han to move the chariot is not Han's problem (Han just takes it,
    // which the quiescence search sees); Han's horse is not attacked.
    let han_to_move = threat(hanging, "b");
    assert_eq!((han_to_move.cho, han_to_move.han), (0, 0));
    // A soldier on c4 defends the chariot: still attacked by a lesser
    // piece, but less bad than hanging.
    let defended = threat("9/4k4/9/3n5/9/2R6/2P6/9/4K4/9", "w");
    assert!(
        cho_to_move.cho < defended.cho && defended.cho < 0,
        "{cho_to_move:?} vs {defended:?}"
    );
    // A horse attacked only by a chariot and defended: no threat.
    let fair = threat("9/4k4/9/9/2r6/2N6/2P6/9/4K4/9", "w");
    assert_eq!(fair.cho, 0, "{fair:?}");
}

#[test]
fn king_attack_weighs_by_the_number_of_attackers() {
    use janggi::eval::weights::KING_ATTACK;
    // Cho's chariot (a9, along rank 9) and horse (f6, jumping to e8) reach
    // Han's palace; a soldier on d7 (stepping to d8) makes three.
    let coef = |board: &str| {
        let p = Position::from_fen(&format!("{board} w - - 0 1")).expect("fen");
        features(&p)
    };
    let bucket = |c: &[f64], attackers: usize| {
        let i = KING_ATTACK + 2 * (attackers - 1);
        c[i] + c[i + 1]
    };
    let two = coef("4k4/R8/9/9/5N3/9/9/9/9/4K4");
    let three = coef("4k4/R8/9/3P5/5N3/9/9/9/9/4K4");
    assert!(bucket(&two, 2) > 0.0, "{:?}", &two[KING_ATTACK..]);
    assert_eq!(bucket(&two, 3), 0.0);
    assert_eq!(bucket(&three, 2), 0.0);
    // More attackers, more units: chariot 4 + 3 palace points (d9, e9,
    // f9), horse 2 + 1 (e8), soldier 2 + 1 (d8).
    assert!(bucket(&three, 3) > bucket(&two, 2));
    // Han reaches nothing of Cho's palace: no negative coefficient.
    assert!(two[KING_ATTACK..].iter().all(|&c| c >= 0.0));
    // A horse whose leg is blocked (f7) does not take part.
    let blocked = coef("4k4/R8/9/5p3/5N3/9/9/9/9/4K4");
    assert_eq!(bucket(&blocked, 2), 0.0);
    assert!(bucket(&blocked, 1) > 0.0);
}
