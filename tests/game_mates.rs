//! Checkmate detection at the game level on hand-checked positions
//! (`tests/data/game_mates.txt`: cannon mates through a screen,
//! palace-diagonal chariot mates, soldier mates, smothered generals) and on
//! near-mates that are not mate. Each line was also confirmed by
//! Fairy-Stockfish (`tools/game_check_positions.py`).

use janggi::{EndReason, Game, Rules};
use janggi::{Move, Position};

struct Case {
    mate: bool,
    fen: String,
    why: String,
}

fn cases() -> Vec<Case> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/game_mates.txt");
    let text = std::fs::read_to_string(path).expect("tests/data/game_mates.txt");
    text.lines()
        .filter_map(|line| {
            let (data, why) = line.split_once('#').unwrap_or((line, ""));
            let (kind, fen) = data.trim().split_once(' ')?;
            Some(Case {
                mate: kind == "mate",
                fen: fen.trim().to_string(),
                why: why.trim().to_string(),
            })
        })
        .collect()
}

#[test]
fn data_has_enough_cases() {
    let all = cases();
    let mates = all.iter().filter(|c| c.mate).count();
    assert!(mates >= 10, "{mates} mates");
    assert!(all.len() - mates >= 10, "{} near-mates", all.len() - mates);
}

#[test]
fn mates_and_near_mates() {
    for variant in Rules::VARIANTS {
        let rules = Rules::from_variant(variant).expect("preset");
        for c in cases() {
            let pos = Position::from_fen(&c.fen).expect("FEN");
            // Under Fairy-Stockfish's bikjang rule a facing position is never
            // mate (the pass stays legal); none of these positions is facing.
            assert!(!pos.generals_facing(), "{}", c.fen);
            let stm = pos.side_to_move();
            let g = Game::new(pos, rules);
            let label = format!("{variant}: {} ({})", c.fen, c.why);
            if c.mate {
                assert!(g.in_check(), "{label}");
                assert!(g.legal_moves().is_empty(), "{label}");
                let o = g.outcome().unwrap_or_else(|| panic!("not over: {label}"));
                assert_eq!(
                    (o.winner, o.reason),
                    (Some(!stm), EndReason::Checkmate),
                    "{label}"
                );
            } else {
                assert!(g.outcome().is_none(), "{label}");
                let moves = g.legal_moves();
                assert!(!moves.is_empty(), "{label}");
                if g.in_check() {
                    assert!(!moves.contains(&Move::PASS), "{label}");
                    // Every legal answer really gets out of check.
                    for &m in &moves {
                        let mut after = g.clone();
                        after.play(m).expect("legal");
                        assert!(!after.position().in_check_color(stm), "{label}: {m:?}");
                    }
                }
            }
        }
    }
}

#[test]
fn mating_move_is_found_from_the_position_before() {
    // For every mate with a chariot, cannon, horse or soldier that arrived
    // from somewhere: take the move back in a hand-made prior position and
    // check the game ends on the mating move.
    let cases = [
        // M7 prior: chariot b1 goes to b10.
        ("3k5/R8/9/9/9/9/9/9/9/1R2K4 w - - 0 1", "b1b10"),
        // Soldier steps e8 -> e9 guarded by the chariot e1.
        ("3k5/9/4P4/9/9/9/9/9/9/4RK3 w - - 0 1", "e8e9"),
        // Horse b6 -> c8 smothers d10 (leg b7 free).
        ("3ka4/3ab4/9/9/1N7/9/9/9/9/5K3 w - - 0 1", "b6c8"),
        // Han's chariot d10 -> d3 mates along the palace diagonal.
        ("3r5/5k3/9/9/9/9/9/9/5B3/4BK3 b - - 0 1", "d10d3"),
    ];
    for (fen, text) in cases {
        let mut g = Game::new(Position::from_fen(fen).expect("FEN"), Rules::default());
        let mover = g.side_to_move();
        let m = g
            .position()
            .parse_move(text, janggi::Notation::Uci)
            .expect("move");
        g.play(m).unwrap_or_else(|e| panic!("{fen} {text}: {e}"));
        let o = g
            .outcome()
            .unwrap_or_else(|| panic!("{fen} {text}: no mate"));
        assert_eq!(
            (o.winner, o.reason),
            (Some(mover), EndReason::Checkmate),
            "{fen} {text}"
        );
        assert_eq!(o.move_count, 1);
    }
}
