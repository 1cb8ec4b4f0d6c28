//! The Fairy-Stockfish presets (`janggi`, `janggitraditional`,
//! `janggimodern`, `janggicasual`) on the behaviours described in
//! `docs/fsf-janggi-rules.md`. Every expectation here was produced by
//! Fairy-Stockfish itself (pyffish 0.0.90: `legal_moves`,
//! `is_immediate_game_end`, `is_optional_game_end`); the values are
//! written out, pyffish is not needed to run the tests.

use janggi::{Color, Move, Notation, Position};
use janggi::{EndReason, Game, Rules};

const VARIANTS: [&str; 4] = [
    "janggi",
    "janggitraditional",
    "janggimodern",
    "janggicasual",
];

fn game(variant: &str, fen: &str) -> Game {
    let rules = Rules::from_variant(variant).expect("preset");
    Game::new(Position::from_fen(fen).expect("test FEN"), rules)
}

/// Plays `moves`; returns the ply at which the game ended, if it did.
fn play(g: &mut Game, moves: &str) -> Option<u32> {
    for text in moves.split_whitespace() {
        if g.outcome().is_some() {
            break;
        }
        let m = g
            .position()
            .parse_move(text, Notation::Uci)
            .expect("move text");
        g.play(m)
            .unwrap_or_else(|e| panic!("{text} after {:?}: {e}", g.moves()));
    }
    g.outcome().map(|o| o.move_count)
}

fn texts(g: &Game) -> Vec<String> {
    let mut v: Vec<String> = g
        .legal_moves()
        .iter()
        .map(|&m| g.position().move_text(m, Notation::Uci))
        .collect();
    v.sort();
    v
}

/// (ply, winner, reason) of the finished game.
fn verdict(g: &Game) -> Option<(u32, Option<Color>, EndReason)> {
    g.outcome().map(|o| (o.move_count, o.winner, o.reason))
}

const START: &str = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1";
const BARE_FACING: &str = "4k4/9/9/9/9/9/9/9/4K4/9 w - - 0 1";

#[test]
fn fsf_bikjang_legality_and_pass_end() {
    for v in VARIANTS {
        let mut g = game(v, BARE_FACING);
        let bikjang = matches!(v, "janggi" | "janggitraditional");
        assert_eq!(g.legal_moves().len(), if bikjang { 7 } else { 9 }, "{v}");
        g.play(Move::PASS).expect("pass");
        let want = match v {
            // 0 : 0 + 1.5: Han wins the counting.
            "janggi" => Some((1, Some(Color::Han), EndReason::ScoreBikjang)),
            "janggitraditional" => Some((1, None, EndReason::DrawBikjang)),
            _ => None,
        };
        assert_eq!(verdict(&g), want, "{v}");
    }
}

#[test]
fn fsf_bikjang_pass_is_legal_in_check() {
    // Cho's general e1 is checked by the chariot b1 and faces Han's general.
    let fen = "4k4/9/9/9/9/9/9/9/r8/1r2K4 w - - 0 1";
    for v in VARIANTS {
        let g = game(v, fen);
        if matches!(v, "janggi" | "janggitraditional") {
            assert_eq!(texts(&g), vec!["e1e1"], "{v}");
            assert!(g.outcome().is_none());
        } else {
            assert!(g.legal_moves().is_empty(), "{v}");
            assert_eq!(
                verdict(&g),
                Some((0, Some(Color::Han), EndReason::Checkmate)),
                "{v}"
            );
        }
    }
}

#[test]
fn fsf_threefold_repetition() {
    let moves = "b1c3 b10c8 c3b1 c8b10 b1c3 b10c8 c3b1 c8b10";
    for v in VARIANTS {
        let mut g = game(v, START);
        play(&mut g, moves);
        let want = match v {
            "janggi" => Some((8, Some(Color::Han), EndReason::ScoreRepetition)),
            "janggitraditional" | "janggicasual" => Some((8, None, EndReason::DrawRepetition)),
            _ => None, // janggimodern: 4-fold
        };
        assert_eq!(verdict(&g), want, "{v}");
    }
    // The spec's rules only warn at the 3rd occurrence.
    let mut g = Game::new(Position::startpos(), Rules::default());
    play(&mut g, moves);
    assert!(g.outcome().is_none());
}

#[test]
fn fsf_perpetual_check_loses() {
    // Cho's chariot checks on every move: Cho loses (Han, to move, wins).
    let moves = "a1a10 d10d9 a10a9 d9d10 a9a10 d10d9 a10a9 d9d10 a9a10";
    for v in VARIANTS {
        let mut g = game(v, "3k5/9/9/9/9/9/9/9/4K4/R8 w - - 0 1");
        play(&mut g, moves);
        assert_eq!(
            verdict(&g),
            Some((9, Some(Color::Han), EndReason::RepetitionLoss)),
            "{v}"
        );
    }
}

#[test]
fn fsf_perpetual_checker_to_move_loses() {
    // Here the repetition completes with the checker (Cho) to move.
    let moves = "e10e9 a10a9 e9d10 a9a10 d10d9 a10a9 d9d10 a9a10 d10d9 a10a9 d9d10";
    for v in VARIANTS {
        let mut g = game(v, "R3k4/9/9/9/9/9/9/9/9/5K3 b - - 0 1");
        play(&mut g, moves);
        // janggimodern: the chariot shuffle breaks the Kakao rule one ply earlier.
        let ply = if v == "janggimodern" { 10 } else { 11 };
        assert_eq!(
            verdict(&g),
            Some((ply, Some(Color::Han), EndReason::RepetitionLoss)),
            "{v}"
        );
    }
}

#[test]
fn fsf_modern_move_repetition_rule() {
    // Cho shuffles its horse five times while Han makes new soldier moves.
    let moves = "b1c3 a7a6 c3b1 c7c6 b1c3 g7g6 c3b1 i7i6 b1c3";
    for v in VARIANTS {
        let mut g = game(v, START);
        play(&mut g, moves);
        let want =
            (v == "janggimodern").then_some((9, Some(Color::Han), EndReason::RepetitionLoss));
        assert_eq!(verdict(&g), want, "{v}");
    }
}

#[test]
fn fsf_n_move_rule() {
    for v in VARIANTS {
        let counting = matches!(v, "janggi" | "janggimodern");
        let (winner, reason) = if counting {
            (Some(Color::Cho), EndReason::ScoreMoveLimit)
        } else {
            (None, EndReason::DrawMoveLimit)
        };
        // Clock 99 + one ply: 100 plies without a capture.
        let mut g = game(v, "3k5/9/9/9/9/9/9/9/4K4/R8 w - - 99 60");
        play(&mut g, "a1a2");
        let want = (v != "janggimodern").then_some((1, winner, reason));
        assert_eq!(verdict(&g), want, "{v} at 100");
        let mut g = game(v, "3k5/9/9/9/9/9/9/9/4K4/R8 w - - 98 60");
        play(&mut g, "a1a2");
        assert_eq!(verdict(&g), None, "{v} at 99");
        // Clock 199: over at once for the 100-ply variants, after one ply for modern.
        let mut g = game(v, "3k5/9/9/9/9/9/9/9/4K4/R8 w - - 199 60");
        if v == "janggimodern" {
            assert_eq!(verdict(&g), None);
            play(&mut g, "a1a2");
            assert_eq!(verdict(&g), Some((1, winner, reason)));
        } else {
            assert_eq!(verdict(&g), Some((0, winner, reason)), "{v} at 199");
        }
    }
}

#[test]
fn fsf_material_counting_needs_a_two_point_lead() {
    for v in VARIANTS {
        let counting = matches!(v, "janggi" | "janggimodern");
        // Cho soldier alone: 2 : 1.5, Cho wins.
        let mut g = game(v, "3k5/9/9/9/9/9/9/4P4/4K4/9 w - - 0 1");
        play(&mut g, "e2e2 d10d10");
        let want = if counting {
            (2, Some(Color::Cho), EndReason::ScorePasses)
        } else {
            (2, None, EndReason::DrawPasses)
        };
        assert_eq!(verdict(&g), Some(want), "{v}");
        // Cho guard against Han soldier: 3 : 3.5, Han wins.
        let mut g = game(v, "3k5/4p4/9/9/9/9/9/9/4A4/4K4 w - - 0 1");
        play(&mut g, "e1e1 d10d10");
        let want = if counting {
            (2, Some(Color::Han), EndReason::ScorePasses)
        } else {
            (2, None, EndReason::DrawPasses)
        };
        assert_eq!(verdict(&g), Some(want), "{v}");
    }
}
