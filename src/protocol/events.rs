//! What the GUI cannot see on its board, told in words: a finished game's
//! outcome (also when the game layer has not recorded a checkmate), the
//! rule events of the last move (bikjang called, a position's 3rd
//! occurrence, the end) and the moves refused because they would repeat a
//! position a 4th time.

use super::notation::move_text;
use super::ProtocolDialect;
use janggi_core::{BikjangRule, Color, EndReason, Event, Game, Outcome, RepetitionRule};

/// The game's result, if it is over: the game layer's outcome, or
/// checkmate for a side in check without a legal move even if the game
/// layer has not recorded it.
pub(crate) fn final_outcome(game: &Game) -> Option<Outcome> {
    match game.outcome() {
        Some(o) => Some(o.clone()),
        None if game.legal_moves().is_empty() && game.position().in_check() => Some(Outcome {
            winner: Some(!game.side_to_move()),
            reason: EndReason::Checkmate,
            cho_points: f64::from(game.score_halves(Color::Cho)) / 2.0,
            han_points: f64::from(game.score_halves(Color::Han)) / 2.0,
            move_count: u32::try_from(game.moves().len()).unwrap_or(u32::MAX),
        }),
        None => None,
    }
}

/// The rule events of the game's last move. The move is replayed (undo,
/// play) on a copy only when something may have happened (the game is
/// over, the position occurred a 3rd time, the generals face), so a usual
/// `position` costs nothing extra however long the game is.
pub(crate) fn last_move_events(game: &Game) -> Vec<Event> {
    let Some(mv) = game.position().last_move() else {
        return Vec::new();
    };
    let maybe = game.is_over()
        || game.repetition_count() == REPETITION_WARNING
        || game.position().generals_facing();
    if !maybe {
        return Vec::new();
    }
    let mut replay = game.clone();
    if !replay.undo() {
        return Vec::new();
    }
    replay.play(mv).unwrap_or_default()
}

/// The occurrence of a position that the game layer warns about.
const REPETITION_WARNING: u32 = 3;

/// `info string` lines for what the last move caused that a GUI cannot see
/// on its board: bikjang called, a position's 3rd occurrence (a 4th is
/// refused or lost, by the rule set), the game's end by a rule.
pub(crate) fn rule_event_lines(game: &Game, events: &[Event]) -> Vec<String> {
    let mover = !game.side_to_move();
    events
        .iter()
        .filter_map(|e| match e {
            Event::BikjangCalled => Some(format!(
                "info string bikjang: {} called bikjang (빅장); {}",
                mover.name(),
                match game.rules().bikjang {
                    BikjangRule::Fsf => {
                        "while the generals face, only a pass or breaking the line is legal"
                    }
                    _ => "the game ends by counting if the generals still face after the reply",
                }
            )),
            Event::RepetitionWarning => Some(format!(
                "info string repetition: this position occurred {} times; under {} a further repetition {}",
                game.repetition_count(),
                game.rules().repetition.name(),
                match game.rules().repetition {
                    RepetitionRule::Forbid => "is refused",
                    RepetitionRule::Lose => "loses",
                    _ => "ends the game",
                }
            )),
            Event::GameOver => final_outcome(game).map(|o| {
                format!(
                    "info string game over: {} {} ({})",
                    o.winner_name(),
                    o.reason.name(),
                    o.summary_ko()
                )
            }),
            Event::Check | Event::CheckAnswered => None,
        })
        .collect()
}

/// `info string` lines naming the moves the board allows but the rule set
/// refuses here because they would repeat a position a 4th time (the GUI
/// would think them legal).
pub(crate) fn refused_repetitions(game: &Game, dialect: ProtocolDialect) -> Vec<String> {
    if game.is_over() || game.rules().repetition != RepetitionRule::Forbid {
        return Vec::new();
    }
    let legal = game.legal_moves();
    let refused: Vec<String> = game
        .position()
        .legal_moves(game.model())
        .iter()
        .filter(|m| !legal.contains(m) && game.occurrences_after(**m) >= 4)
        .map(|&m| move_text(game.position(), m, dialect))
        .collect();
    if refused.is_empty() {
        return Vec::new();
    }
    vec![format!(
        "info string repetition: refused {} (a position may not occur a 4th time)",
        refused.join(" ")
    )]
}
