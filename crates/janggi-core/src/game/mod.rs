//! The game layer: a [`Game`] owns a position plus its history and decides
//! everything that depends on history or on the chosen rule set
//! (bikjang, repetition, passes, counting, move limit, results).
//!
//! * [`ruleset`](Rules): the spec's options (§2) and the named presets,
//!   including Fairy-Stockfish's `janggi`, `janggitraditional`,
//!   `janggimodern` and `janggicasual`;
//! * [`judge`](judge()): the spec's processing order after each move
//!   (§8.2 steps 3–6) over a [`Frame`] per position, decided once for the
//!   game and the engine's search;
//! * [`Game`]: game-level legal moves, the judge's decisions turned into
//!   outcomes and events, undo, resign and agreed draw;
//! * [`Outcome`]: winner, reason (§8.6), both scores and the summaries.
//!
//! This layer depends only on `types` and `board`.

mod history;
mod judge;
mod outcome;
mod ruleset;
mod state;

pub use history::PendingBikjang;
pub use judge::{
    counting_winner, judge, Decision, Ending, Frame, Line, MateCheck, Occasion, Played,
    REPETITION_LIMIT, REPETITION_WARNING,
};
pub use outcome::{EndReason, Outcome};
pub use ruleset::{BikjangRule, RepetitionRule, RuleError, Rules};
pub use state::Game;

use std::fmt;

/// A move that is not legal at the game level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    /// The game is already over.
    GameOver,
    /// The move is not among the legal moves (with the reason in words).
    NotLegal(&'static str),
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::GameOver => write!(f, "the game is over"),
            IllegalMove::NotLegal(why) => write!(f, "illegal move: {why}"),
        }
    }
}

impl std::error::Error for IllegalMove {}

/// Something a front end may want to show after a move, in this order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// The move called bikjang (빅장).
    BikjangCalled,
    /// The position reached its 3rd occurrence (and the game goes on).
    RepetitionWarning,
    /// The move gives check (장군).
    Check,
    /// The move answered a check (멍군).
    CheckAnswered,
    /// The game ended with this move.
    GameOver,
}
