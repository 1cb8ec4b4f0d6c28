//! The game layer: a [`Game`] owns a position plus its history and decides
//! everything that depends on history or on the chosen rule set
//! (bikjang, repetition, passes, counting, move limit, results).
//!
//! NOTE: this is the interface skeleton; the full rules are being built
//! (issue 3). Public signatures here are the contract used by search,
//! engine and protocol code.

mod outcome;
mod rules;

pub use outcome::{EndReason, Outcome};
pub use rules::{BikjangRule, RepetitionRule, RuleError, Rules};

use crate::rules::{LegalityModel, Position};
use crate::types::{Color, Move, MoveList};
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

/// Something a front end may want to show after a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// The move gives check (장군).
    Check,
    /// The move answered a check (멍군).
    CheckAnswered,
    /// The move called bikjang (빅장).
    BikjangCalled,
    /// The position reached its 3rd occurrence.
    RepetitionWarning,
    /// The game ended with this move.
    GameOver,
}

/// A game: position, history and rule set.
#[derive(Clone, Debug)]
pub struct Game {
    pos: Position,
    rules: Rules,
    outcome: Option<Outcome>,
}

impl Game {
    /// A game from `pos` (its history starts here) under `rules`.
    pub fn new(pos: Position, rules: Rules) -> Game {
        let mut pos = pos;
        pos.clear_history();
        Game { pos, rules, outcome: None }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The rule set.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The legality model of the rules core that this rule set uses.
    pub fn model(&self) -> LegalityModel {
        self.rules.model()
    }

    /// Side to move.
    pub fn side_to_move(&self) -> Color {
        self.pos.side_to_move()
    }

    /// Moves played since the start of the game.
    pub fn moves(&self) -> Vec<Move> {
        self.pos.history().iter().map(|s| s.mv).collect()
    }

    /// The legal moves at the game level (empty when the game is over).
    pub fn legal_moves(&self) -> MoveList {
        if self.outcome.is_some() {
            return MoveList::new();
        }
        self.pos.legal_moves(self.model())
    }

    /// Whether `mv` is legal at the game level.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.legal_moves().contains(&mv)
    }

    /// Plays `mv` and returns the events it caused.
    ///
    /// # Errors
    /// [`IllegalMove`] and the game is unchanged.
    pub fn play(&mut self, mv: Move) -> Result<Vec<Event>, IllegalMove> {
        if self.outcome.is_some() {
            return Err(IllegalMove::GameOver);
        }
        if !self.is_legal(mv) {
            return Err(IllegalMove::NotLegal("not a legal move"));
        }
        self.pos.make(mv);
        Ok(Vec::new())
    }

    /// Takes back the last ply; false if there is none.
    pub fn undo(&mut self) -> bool {
        if self.pos.history().is_empty() {
            return false;
        }
        self.pos.unmake();
        self.outcome = None;
        true
    }

    /// The result, once the game is over.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// Material score of `color` in half points (Han's includes the 1.5 deom).
    pub fn score_halves(&self, color: Color) -> u32 {
        self.pos.material(color) * 2 + if color == Color::Han { 3 } else { 0 }
    }
}
