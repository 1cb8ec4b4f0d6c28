//! The game layer against the rules spec's §10 checklist (game-level
//! items), the worked score example and the spec's option semantics.
//! Every position is written out as a FEN with the reasoning next to it.

use janggi::{
    BikjangRule, EndReason, Event, Game, IllegalMove, PendingBikjang, RepetitionRule, Rules,
};
use janggi::{Color, Move, Notation, Position};

fn game(fen: &str, rules: Rules) -> Game {
    Game::new(Position::from_fen(fen).expect("test FEN"), rules)
}

fn mv(g: &Game, text: &str) -> Move {
    if text == "pass" {
        return Move::PASS;
    }
    g.position()
        .parse_move(text, Notation::Uci)
        .expect("test move text")
}

/// Plays the moves (all must be legal); returns the events of the last one.
fn play(g: &mut Game, moves: &str) -> Vec<Event> {
    let mut events = Vec::new();
    for text in moves.split_whitespace() {
        let m = mv(g, text);
        events = g
            .play(m)
            .unwrap_or_else(|e| panic!("{text} after {:?}: {e}", g.moves()));
    }
    events
}

fn rules_with(f: impl FnOnce(&mut Rules)) -> Rules {
    let mut r = Rules::default();
    f(&mut r);
    r
}

fn no_scoring() -> Rules {
    rules_with(|r| r.scoring = false)
}

/// Full armies (no capture yet), Han to move; Cho's e-soldier stands on d7,
/// so Han's e7 soldier can take it sideways and open the e-file: the first
/// capture of the game leaves the generals facing.
const FIRST_CAPTURE_FACING: &str =
    "rnba1abnr/4k4/1c5c1/p1pPp1p1p/9/9/P1P3P1P/1C5C1/4K4/RNBA1ABNR b - - 0 1";

/// One soldier gone on each side (70 : 70 material), generals already
/// facing on the open e-file, Cho to move.
const EQUAL_MATERIAL_FACING: &str =
    "rnba1abnr/4k4/1c5c1/2pp2p1p/9/9/P1P3P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1";

/// Han's chariot on e10 checks Cho's general e1 up the open e-file; Han's
/// soldier d2 covers d1 and e2, so Cho's only move is e1f1. Then e10f10
/// checks again and f1e1 is the only move (e2 covered, f2 on the file).
/// Han's general d9 is out of the way. Cho to move, in check.
const SHUTTLE_CHO_TO_MOVE: &str = "4r4/3k5/9/9/9/9/9/9/3p5/4K4 w - - 0 1";

/// The same cycle one ply earlier: Han to move (chariot on f10, general on
/// e1, nobody in check).
const SHUTTLE_HAN_TO_MOVE: &str = "5r3/3k5/9/9/9/9/9/9/3p5/4K4 b - - 0 1";

const SHUTTLE_CYCLE: &str = "e1f1 e10f10 f1e1 f10e10";

// ---------------------------------------------------------------- check

#[test]
fn pass_refused_in_check() {
    let mut g = game(SHUTTLE_CHO_TO_MOVE, Rules::default());
    assert!(g.in_check());
    assert!(!g.is_legal(Move::PASS));
    assert!(!g.legal_moves().contains(&Move::PASS));
    assert_eq!(
        g.play(Move::PASS),
        Err(IllegalMove::NotLegal("cannot pass while in check"))
    );
    assert_eq!(g.legal_moves().as_slice(), &[mv(&g, "e1f1")]);
    assert_eq!(g.ply(), 0);
}

#[test]
fn check_and_check_answered_events() {
    let mut g = game(SHUTTLE_HAN_TO_MOVE, Rules::default());
    assert_eq!(play(&mut g, "f10e10"), vec![Event::Check]);
    assert!(g.in_check());
    assert_eq!(play(&mut g, "e1f1"), vec![Event::CheckAnswered]);
    assert!(!g.in_check());
    assert_eq!(play(&mut g, "e10f10"), vec![Event::Check]);
}

#[test]
fn checkmate_by_a_move_ends_the_game() {
    // Chariot a9 covers rank 9; b1b10 checks d10 along rank 10 (c10 empty),
    // e10 is on the same line: mate.
    let mut g = game("3k5/R8/9/9/9/9/9/9/9/1R2K4 w - - 0 1", Rules::default());
    let events = play(&mut g, "b1b10");
    assert_eq!(events, vec![Event::Check, Event::GameOver]);
    let o = g.outcome().expect("mate").clone();
    assert_eq!(
        (o.winner, o.reason, o.move_count),
        (Some(Color::Cho), EndReason::Checkmate, 1)
    );
    assert_eq!(o.summary_ko(), "초 외통승 (1수)");
    assert_eq!(o.summary_en(), "Cho wins by checkmate (1 ply)");
    assert!(g.legal_moves().is_empty());
    assert_eq!(g.play(Move::PASS), Err(IllegalMove::GameOver));
    assert!(g.undo());
    assert!(g.outcome().is_none());
    assert!(!g.legal_moves().is_empty());
}

#[test]
fn checkmated_start_position_is_over() {
    let g = game("R2k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1", Rules::default());
    let o = g.outcome().expect("mated at the start");
    assert_eq!(
        (o.winner, o.reason, o.move_count),
        (Some(Color::Cho), EndReason::Checkmate, 0)
    );
    assert!(g.legal_moves().is_empty());
}

// -------------------------------------------------------------- bikjang

#[test]
fn kjf_facing_before_any_capture_is_harmless() {
    let mut g = Game::new(Position::startpos(), Rules::default());
    // e4d4 and e7f7 clear the e-file: the generals face each other.
    let events = play(&mut g, "e4d4 e7f7");
    assert!(g.position().generals_facing());
    assert!(!events.contains(&Event::BikjangCalled));
    assert_eq!(g.first_capture_ply(), None);
    // Moves that keep them facing are legal and mean nothing.
    let events = play(&mut g, "a1a2 a10a9 a2a1");
    assert!(!events.contains(&Event::BikjangCalled));
    assert_eq!(g.pending_bikjang(), None);
    assert!(g.outcome().is_none());
}

#[test]
fn kjf_cannot_call_on_the_first_capture_move() {
    let mut g = game(FIRST_CAPTURE_FACING, Rules::default());
    assert_eq!(g.first_capture_ply(), None);
    let events = play(&mut g, "e7d7");
    assert!(g.position().generals_facing());
    assert_eq!(g.first_capture_ply(), Some(1));
    assert!(!events.contains(&Event::BikjangCalled));
    assert_eq!(g.pending_bikjang(), None);
    assert!(g.outcome().is_none());
}

#[test]
fn kjf_called_after_the_first_capture_and_blocked_play_on() {
    let mut g = game(FIRST_CAPTURE_FACING, Rules::default());
    play(&mut g, "e7d7");
    let events = play(&mut g, "a1a2");
    assert_eq!(events, vec![Event::BikjangCalled]);
    assert_eq!(
        g.pending_bikjang(),
        Some(PendingBikjang {
            called_by: Color::Cho,
            ply: 2
        })
    );
    // Answer 1: the soldier steps back between the generals.
    play(&mut g, "d7e7");
    assert!(!g.position().generals_facing());
    assert_eq!(g.pending_bikjang(), None);
    assert!(g.outcome().is_none());
    // Answer 2: the general steps aside.
    assert!(g.undo());
    assert_eq!(
        g.pending_bikjang(),
        Some(PendingBikjang {
            called_by: Color::Cho,
            ply: 2
        })
    );
    play(&mut g, "e9d9");
    assert_eq!(g.pending_bikjang(), None);
    assert!(g.outcome().is_none());
}

#[test]
fn kjf_bikjang_not_answered_ends_by_counting() {
    let mut g = game(FIRST_CAPTURE_FACING, Rules::default());
    let events = play(&mut g, "e7d7 a1a2 a10a9");
    assert_eq!(events, vec![Event::GameOver]);
    let o = g.outcome().expect("bik");
    assert_eq!(
        (o.winner, o.reason),
        (Some(Color::Han), EndReason::ScoreBikjang)
    );
    assert_eq!((o.cho_points, o.han_points), (70.0, 73.5));
    assert_eq!(o.summary_ko(), "한 판정승 73.5 : 70 (빅장)");
    // A pass does not answer either.
    let mut g = game(FIRST_CAPTURE_FACING, Rules::default());
    play(&mut g, "e7d7 a1a2 pass");
    assert_eq!(g.outcome().map(|o| o.reason), Some(EndReason::ScoreBikjang));
}

#[test]
fn bikjang_counting_deom_breaks_the_tie() {
    // 70 : 70 on the board; the deom makes it 70 : 71.5.
    let mut g = game(EQUAL_MATERIAL_FACING, Rules::default());
    assert_eq!(
        g.first_capture_ply(),
        Some(0),
        "pieces are missing at the start"
    );
    assert_eq!(play(&mut g, "a1a2"), vec![Event::BikjangCalled]);
    play(&mut g, "a10a9");
    let o = g.outcome().expect("bik");
    assert_eq!(
        (o.winner, o.reason),
        (Some(Color::Han), EndReason::ScoreBikjang)
    );
    assert_eq!(o.summary_ko(), "한 판정승 71.5 : 70 (빅장)");
    // Without scoring it is a draw.
    let mut g = game(EQUAL_MATERIAL_FACING, no_scoring());
    play(&mut g, "a1a2 a10a9");
    let o = g.outcome().expect("bik");
    assert_eq!((o.winner, o.reason), (None, EndReason::DrawBikjang));
    assert_eq!(o.summary_ko(), "무승부 (빅장)");
}

/// Bare-ish ending: Han chariot + soldier (15), Cho chariot (13); generals on
/// the open e-file after Cho's quiet chariot move.
const KJA_LOW: &str = "r8/4k4/9/2p6/9/9/9/9/4K4/8R w - - 0 1";
/// The same with Cho at 33 points (two chariots and a cannon).
const KJA_HIGH: &str = "r8/4k4/9/2p6/9/9/9/9/4K4/1C5RR w - - 0 1";

#[test]
fn kja30_both_below_30_calls_bikjang() {
    let rules = rules_with(|r| r.bikjang = BikjangRule::Kja30);
    let mut g = game(KJA_LOW, rules);
    assert_eq!(play(&mut g, "i1i2"), vec![Event::BikjangCalled]);
    play(&mut g, "a10a9");
    let o = g.outcome().expect("bik");
    assert_eq!(o.summary_ko(), "한 판정승 16.5 : 13 (빅장)");
}

#[test]
fn kja30_one_side_at_30_or_more_no_bikjang() {
    let rules = rules_with(|r| r.bikjang = BikjangRule::Kja30);
    let mut g = game(KJA_HIGH, rules);
    assert!(g.position().material(Color::Cho) >= 30);
    let events = play(&mut g, "i1i2 a10a9");
    assert!(g.position().generals_facing());
    assert!(events.is_empty());
    assert_eq!(g.pending_bikjang(), None);
    assert!(g.outcome().is_none());
    // The same position under kjf (pieces missing: captures happened) calls it.
    let mut g = game(KJA_HIGH, Rules::default());
    assert_eq!(play(&mut g, "i1i2"), vec![Event::BikjangCalled]);
}

#[test]
fn bikjang_off_means_nothing() {
    let rules = rules_with(|r| r.bikjang = BikjangRule::Off);
    let mut g = game(KJA_LOW, rules);
    assert!(play(&mut g, "i1i2 a10a9 i2i1").is_empty());
    assert!(g.outcome().is_none());
}

#[test]
fn bikjang_answer_must_first_meet_a_check() {
    // Cho calls bikjang with a move that also gives check from a chariot;
    // Han must answer the check, and an answer that keeps facing is bik.
    // Han general e9, Han chariot a10; Cho general e2, chariot on b8 -> b9
    // checks along rank 9 and leaves the e-file open.
    let mut g = game("r8/4k4/1R7/9/9/9/9/9/4K4/9 w - - 0 1", Rules::default());
    assert_eq!(
        play(&mut g, "b8b9"),
        vec![Event::BikjangCalled, Event::Check]
    );
    assert!(g.in_check());
    // a10a9 blocks the check on a9? No: a9 is behind b9. Take the chariot.
    let take = mv(&g, "a10a9");
    assert!(!g.is_legal(take), "a9 does not stop the check from b9");
    // The general steps up to e10: still on the e-file, still facing: bik.
    play(&mut g, "e9e10");
    assert_eq!(g.outcome().map(|o| o.reason), Some(EndReason::ScoreBikjang));
}

// ------------------------------------------------------------ repetition

#[test]
fn repetition_forbid_refuses_the_fourth_occurrence() {
    let mut g = game(SHUTTLE_CHO_TO_MOVE, Rules::default());
    play(&mut g, SHUTTLE_CYCLE);
    assert_eq!(g.repetition_count(), 2);
    play(&mut g, "e1f1 e10f10 f1e1");
    let events = play(&mut g, "f10e10");
    assert_eq!(g.repetition_count(), 3);
    assert!(events.contains(&Event::RepetitionWarning));
    play(&mut g, "e1f1 e10f10 f1e1");
    // Han's f10e10 would make the start position's 4th occurrence.
    let m = mv(&g, "f10e10");
    assert_eq!(g.occurrences_after(m), 4);
    assert!(!g.is_legal(m));
    assert!(!g.legal_moves().contains(&m));
    assert!(!g.legal_moves().is_empty(), "Han has other moves");
    assert_eq!(
        g.play(m),
        Err(IllegalMove::NotLegal(
            "it would repeat a position a 4th time"
        ))
    );
    assert_eq!(g.ply(), 11);
}

#[test]
fn repetition_forbid_in_check_only_move_is_allowed_and_ends_by_counting() {
    let mut g = game(SHUTTLE_HAN_TO_MOVE, Rules::default());
    play(
        &mut g,
        "f10e10 e1f1 e10f10 f1e1 f10e10 e1f1 e10f10 f1e1 f10e10 e1f1 e10f10",
    );
    assert!(g.in_check());
    let only = mv(&g, "f1e1");
    assert_eq!(g.occurrences_after(only), 4);
    assert_eq!(g.legal_moves().as_slice(), &[only]);
    assert!(g.is_legal(only));
    assert_eq!(
        play(&mut g, "f1e1"),
        vec![Event::CheckAnswered, Event::GameOver]
    );
    let o = g.outcome().expect("counting");
    assert_eq!(
        (o.winner, o.reason),
        (Some(Color::Han), EndReason::ScoreRepetition)
    );
    assert_eq!(o.summary_ko(), "한 판정승 16.5 : 0 (반복수)");
    let mut g = game(SHUTTLE_HAN_TO_MOVE, no_scoring());
    play(
        &mut g,
        "f10e10 e1f1 e10f10 f1e1 f10e10 e1f1 e10f10 f1e1 f10e10 e1f1 e10f10 f1e1",
    );
    assert_eq!(
        g.outcome().map(|o| (o.winner, o.reason)),
        Some((None, EndReason::DrawRepetition))
    );
}

#[test]
fn repetition_lose_the_repeating_side_loses() {
    let rules = rules_with(|r| r.repetition = RepetitionRule::Lose);
    let mut g = game(SHUTTLE_CHO_TO_MOVE, rules);
    play(
        &mut g,
        "e1f1 e10f10 f1e1 f10e10 e1f1 e10f10 f1e1 f10e10 e1f1 e10f10 f1e1",
    );
    assert!(g.outcome().is_none());
    assert!(g.is_legal(mv(&g, "f10e10")));
    play(&mut g, "f10e10");
    let o = g.outcome().expect("forfeit");
    assert_eq!(
        (o.winner, o.reason),
        (Some(Color::Cho), EndReason::RepetitionLoss)
    );
    assert_eq!(o.summary_ko(), "초 반칙승 (반복수, 12수)");
}

#[test]
fn repetition_score_end_ends_by_counting() {
    let rules = rules_with(|r| r.repetition = RepetitionRule::ScoreEnd);
    let mut g = game(SHUTTLE_CHO_TO_MOVE, rules);
    play(
        &mut g,
        "e1f1 e10f10 f1e1 f10e10 e1f1 e10f10 f1e1 f10e10 e1f1 e10f10 f1e1 f10e10",
    );
    let o = g.outcome().expect("counting");
    assert_eq!(
        (o.winner, o.reason),
        (Some(Color::Han), EndReason::ScoreRepetition)
    );
}

#[test]
fn positions_reached_by_passes_count_too() {
    // Pass, move, pass, move back...: the pass positions repeat as well.
    let mut g = Game::new(Position::startpos(), Rules::default());
    play(&mut g, "b1c3 pass c3b1 pass");
    assert_eq!(g.repetition_count(), 2);
    play(&mut g, "b1c3 pass c3b1 pass");
    assert_eq!(g.repetition_count(), 3);
    let m = mv(&g, "b1c3");
    assert_eq!(g.occurrences_after(m), 3);
    play(&mut g, "b1c3 pass c3b1");
    // Han's pass would make the start position's 4th occurrence: refused
    // (Han has other moves).
    assert_eq!(g.occurrences_after(Move::PASS), 4);
    assert!(!g.legal_moves().contains(&Move::PASS));
    assert!(!g.is_legal(Move::PASS));
    assert!(g.is_legal(mv(&g, "b10c8")));
}

// ---------------------------------------------------------------- passes

#[test]
fn double_pass_ends_by_counting() {
    let mut g = Game::new(Position::startpos(), Rules::default());
    assert_eq!(play(&mut g, "pass"), vec![]);
    assert_eq!(g.consecutive_passes(), 1);
    assert_eq!(play(&mut g, "pass"), vec![Event::GameOver]);
    let o = g.outcome().expect("two passes");
    assert_eq!(
        (o.winner, o.reason),
        (Some(Color::Han), EndReason::ScorePasses)
    );
    assert_eq!(o.summary_ko(), "한 판정승 73.5 : 72 (연속 한수쉼)");
}

#[test]
fn double_pass_without_scoring_is_a_draw() {
    let mut g = Game::new(Position::startpos(), no_scoring());
    play(&mut g, "pass pass");
    let o = g.outcome().expect("two passes");
    assert_eq!((o.winner, o.reason), (None, EndReason::DrawPasses));
    assert_eq!(o.summary_ko(), "무승부 (연속 한수쉼)");
}

#[test]
fn a_move_between_passes_resets_the_count() {
    let mut g = Game::new(Position::startpos(), Rules::default());
    play(&mut g, "pass b10c8 pass");
    assert_eq!(g.consecutive_passes(), 1);
    assert!(g.outcome().is_none());
}

#[test]
fn forced_pass_when_no_move_and_no_check() {
    // Cho's lone general e1: d1 and e2 are covered by the soldier d2, f1 by
    // the chariot f10; not in check. Passing is switched off, yet forced.
    let fen = "5r3/3k5/9/9/9/9/9/9/3p5/4K4 w - - 0 1";
    let rules = rules_with(|r| r.allow_pass = false);
    let mut g = game(fen, rules);
    assert!(!g.in_check());
    assert_eq!(g.legal_moves().as_slice(), &[Move::PASS]);
    play(&mut g, "pass");
    // Han may not pass (it has moves).
    assert!(!g.is_legal(Move::PASS));
    assert_eq!(
        g.play(Move::PASS),
        Err(IllegalMove::NotLegal("passing is not allowed"))
    );
}

#[test]
fn pass_not_offered_when_switched_off() {
    let g = Game::new(Position::startpos(), rules_with(|r| r.allow_pass = false));
    assert_eq!(g.legal_moves().len(), 32 - 1);
    assert!(!g.is_legal(Move::PASS));
}

// ------------------------------------------------------------ move limit

#[test]
fn move_limit_ends_by_counting() {
    for (scoring, reason) in [
        (true, EndReason::ScoreMoveLimit),
        (false, EndReason::DrawMoveLimit),
    ] {
        let rules = rules_with(|r| {
            r.move_limit = 150;
            r.scoring = scoring;
        });
        let mut g = Game::new(Position::startpos(), rules);
        // A deterministic walk that never ends the game early.
        while g.ply() < 149 {
            let moves = g.legal_moves();
            let next = moves
                .iter()
                .copied()
                .filter(|&m| !m.is_pass())
                .find(|&m| g.outcome_after(m).is_none())
                .expect("a move that goes on");
            g.play(next).expect("legal");
        }
        assert!(g.outcome().is_none());
        let last = g.legal_moves()[0];
        g.play(last).expect("legal");
        let o = g.outcome().expect("move limit");
        assert_eq!((o.reason, o.move_count), (reason, 150));
        assert_eq!(o.winner.is_none(), !scoring);
    }
}

// ------------------------------------------------------------------ undo

#[test]
fn undo_restores_first_capture_bikjang_and_repetition() {
    let start = Position::from_fen(FIRST_CAPTURE_FACING).expect("fen");
    let mut g = Game::new(start.clone(), Rules::default());
    let fresh = g.clone();
    play(&mut g, "e7d7 a1a2");
    assert_eq!(g.first_capture_ply(), Some(1));
    assert!(g.pending_bikjang().is_some());
    let after_one =
        Game::replay(start.clone(), Rules::default(), &[mv(&fresh, "e7d7")]).expect("legal");
    assert!(g.undo());
    assert_eq!(g.pending_bikjang(), None);
    assert_eq!(g.first_capture_ply(), Some(1));
    assert_eq!(g, after_one);
    assert!(g.undo());
    assert_eq!(g.first_capture_ply(), None);
    assert_eq!(g, fresh);
    assert!(!g.undo());

    // Repetition counts and the ended game come back exactly too.
    let mut g = game(SHUTTLE_HAN_TO_MOVE, Rules::default());
    play(
        &mut g,
        "f10e10 e1f1 e10f10 f1e1 f10e10 e1f1 e10f10 f1e1 f10e10 e1f1 e10f10",
    );
    let before = g.clone();
    play(&mut g, "f1e1");
    assert!(g.outcome().is_some());
    assert_eq!(g.repetition_count(), 4);
    assert_eq!(g.undo_plies(1), 1);
    assert_eq!(g, before);
    assert_eq!(g.undo_plies(2), 2);
    // After ply 9 (f10e10): that position occurred at plies 1, 5 and 9.
    assert_eq!(g.repetition_count(), 3);
    assert_eq!(g.undo_plies(100), 9);
    assert_eq!(g, game(SHUTTLE_HAN_TO_MOVE, Rules::default()));
}

#[test]
fn undo_restores_the_pass_count() {
    let mut g = Game::new(Position::startpos(), Rules::default());
    play(&mut g, "pass pass");
    assert!(g.outcome().is_some());
    g.undo();
    assert_eq!(g.consecutive_passes(), 1);
    assert!(g.outcome().is_none());
    play(&mut g, "b10c8");
    assert_eq!(g.consecutive_passes(), 0);
}

// ---------------------------------------------------------- scores, misc

#[test]
fn worked_score_example() {
    // Cho: 2 chariots, cannon, horse, 2 guards, 3 soldiers = 26+7+5+6+6 = 50.
    // Han: chariot, 2 cannons, 2 horses, elephant, 2 guards, 4 soldiers
    //      = 13+14+10+3+6+8 = 54, + 1.5 = 55.5.
    // Generals face each other on the e-file; Cho's chariot move calls
    // bikjang, Han ignores it: 한 판정승 55.5 : 50.
    let fen = "rnb1a1cn1/3ak4/1c7/p1p3p1p/9/9/P1P3P2/1C7/3AK4/R1N2A2R w - - 0 1";
    let mut g = game(fen, Rules::default());
    assert_eq!(g.score_halves(Color::Cho), 100);
    assert_eq!(g.score_halves(Color::Han), 111);
    assert_eq!((g.score(Color::Cho), g.score(Color::Han)), (50.0, 55.5));
    assert!(g.position().generals_facing());
    assert_eq!(play(&mut g, "a1a2"), vec![Event::BikjangCalled]);
    play(&mut g, "a10a9");
    let o = g.outcome().expect("bik");
    assert_eq!(o.summary_ko(), "한 판정승 55.5 : 50 (빅장)");
    assert_eq!(o.summary_en(), "Han wins on points 55.5 : 50 (bikjang)");
    assert_eq!((o.cho_points, o.han_points), (50.0, 55.5));
}

#[test]
fn material_score_at_the_start() {
    let g = Game::new(Position::startpos(), Rules::default());
    assert_eq!((g.score(Color::Cho), g.score(Color::Han)), (72.0, 73.5));
}

#[test]
fn resign_and_agreed_draw() {
    let mut g = Game::new(Position::startpos(), Rules::default());
    play(&mut g, "b1c3");
    g.resign(Color::Han).expect("ongoing");
    let o = g.outcome().expect("resigned");
    assert_eq!((o.winner, o.reason), (Some(Color::Cho), EndReason::Resign));
    assert_eq!(o.summary_ko(), "초 기권승 (1수)");
    assert_eq!(g.agree_draw(), Err(IllegalMove::GameOver));
    let mut g = Game::new(Position::startpos(), Rules::default());
    g.agree_draw().expect("ongoing");
    assert_eq!(
        g.outcome().map(|o| (o.winner, o.reason)),
        Some((None, EndReason::DrawAgreed))
    );
    assert!(g.legal_moves().is_empty());
    let mut g = Game::new(Position::startpos(), Rules::default());
    g.lose_on_time(Color::Cho).expect("ongoing");
    assert_eq!(
        g.outcome().map(|o| o.summary_ko()),
        Some("한 시간승 (0수)".to_string())
    );
}

#[test]
fn set_rules_replays_the_game() {
    let mut g = Game::new(Position::startpos(), Rules::default());
    play(&mut g, "b1c3 b10c8 c3b1 c8b10 b1c3 b10c8 c3b1 c8b10");
    assert!(
        g.outcome().is_none(),
        "kjf: the 3rd occurrence is only a warning"
    );
    let kept = g.set_rules(Rules::from_variant("janggi").expect("preset"));
    assert_eq!(kept, 8);
    let o = g.outcome().expect("FSF janggi: 3-fold repetition");
    assert_eq!(
        (o.winner, o.reason),
        (Some(Color::Han), EndReason::ScoreRepetition)
    );
}

#[test]
fn illegal_moves_leave_the_game_unchanged() {
    let mut g = game(SHUTTLE_CHO_TO_MOVE, Rules::default());
    let before = g.clone();
    for text in ["e1e2", "e1d1", "a1a2", "e1f2"] {
        if let Ok(m) = g.position().parse_move(text, Notation::Uci) {
            assert!(g.play(m).is_err(), "{text}");
        }
    }
    assert_eq!(g, before);
}
