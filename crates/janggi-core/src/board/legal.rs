//! Legal moves under a legality model.
//!
//! The rules core knows two models, those of the reference perft counts
//! (`perft/README.md` in the repository):
//!
//! * [`LegalityModel::Casual`] — pure move generation: a move is legal when it
//!   does not leave the mover's general attacked; the pass is legal whenever
//!   the side to move is not in check; two passes in a row end the game.
//! * [`LegalityModel::Fsf`] — additionally Fairy-Stockfish's bikjang rule:
//!   while the generals face each other, every non-pass move that keeps them
//!   facing is illegal and the pass stays legal even in check; a pass made
//!   while they face each other ends the game.
//!
//! The game layer picks the model from its rule set and adds what depends
//! on longer history (repetition, counting).

use super::movegen::GenKind;
use super::position::Position;
use super::rays::{ray, DIRS};
use super::tables::{between_on_file, ELEPHANT_SOURCES, HORSE_SOURCES};
use crate::types::{Bitboard, Move, MoveList, Piece, PieceKind, Square};
use std::fmt;
use std::str::FromStr;

/// Which legality rules the move generator applies (see the module docs).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, Default)]
pub enum LegalityModel {
    /// Pure move generation (reference variant `janggicasual`).
    #[default]
    Casual,
    /// Fairy-Stockfish's bikjang legality and end (reference variant `janggi`).
    Fsf,
}

impl fmt::Display for LegalityModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LegalityModel::Casual => "casual",
            LegalityModel::Fsf => "fsf",
        })
    }
}

/// Error for an unknown legality model name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownModel(pub String);

impl fmt::Display for UnknownModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown legality model '{}' (expected casual or fsf)",
            self.0
        )
    }
}

impl std::error::Error for UnknownModel {}

impl FromStr for LegalityModel {
    type Err = UnknownModel;
    fn from_str(s: &str) -> Result<Self, UnknownModel> {
        match s.to_ascii_lowercase().as_str() {
            "casual" => Ok(LegalityModel::Casual),
            "fsf" => Ok(LegalityModel::Fsf),
            _ => Err(UnknownModel(s.to_string())),
        }
    }
}

/// Points where a move of the side to move (when it is not in check) can
/// change whether its general is attacked: vacating a `from` point may open a
/// line or a leg (pins, cannon screens); occupying a `to` point may create a
/// cannon screen. A move touching neither, and not moving the general, needs
/// no legality test. Used by the legal-move filter and by the search.
#[derive(Clone, Copy, Debug)]
pub struct Danger {
    /// Vacating one of these may open a line or a leg (pins, cannon screens).
    from: Bitboard,
    /// Occupying one of these may create a cannon screen.
    to: Bitboard,
    /// The side to move's general.
    king: Square,
}

impl Danger {
    /// Whether the non-pass move `mv` needs the full legality test
    /// ([`Position::leaves_general_attacked`]).
    #[inline]
    pub fn risky(&self, mv: Move) -> bool {
        mv.from() == self.king || self.from.contains(mv.from()) || self.to.contains(mv.to())
    }
}

impl Position {
    /// The danger points of the side to move (meaningful when not in check).
    pub fn danger(&self) -> Danger {
        let us = self.side;
        let them = !us;
        let king = self.generals[us];
        let sliders = self.pieces(them, PieceKind::Chariot) | self.pieces(them, PieceKind::Cannon);
        let cannons = self.pieces(them, PieceKind::Cannon);
        let mut from = Bitboard::EMPTY;
        let mut to = Bitboard::EMPTY;
        for d in 0..DIRS {
            let rb = ray(king, d);
            if !(rb & sliders).is_empty() {
                from |= rb;
            }
            if !(rb & cannons).is_empty() {
                to |= rb;
            }
        }
        let horse = Some(Piece::new(them, PieceKind::Horse));
        for j in HORSE_SOURCES[king.index()].as_slice() {
            if self.board[j.dest.index()] == horse {
                from = from.with(j.leg);
            }
        }
        let elephant = Some(Piece::new(them, PieceKind::Elephant));
        for j in ELEPHANT_SOURCES[king.index()].as_slice() {
            if self.board[j.dest.index()] == elephant {
                from = from.with(j.leg1).with(j.leg2);
            }
        }
        Danger { from, to, king }
    }

    /// Whether the generals would face each other after the non-pass move `mv`.
    #[inline]
    fn facing_after(&self, mv: Move) -> bool {
        let from = mv.from();
        let to = mv.to();
        let us = self.side;
        let (mut a, b) = (self.generals[us], self.generals[!us]);
        if a == from {
            a = to;
        }
        if a.file() != b.file() {
            return false;
        }
        let occ = self.occupied().without(from).with(to);
        (between_on_file(a, b) & occ).is_empty()
    }

    /// Whether the game is already over by the model's history rules: two
    /// passes in a row (both models), or under `Fsf` a pass made while the
    /// generals face each other (bikjang that persisted).
    pub fn is_terminal_by_history(&self, model: LegalityModel) -> bool {
        if self.last_moves_were_passes(2) {
            return true;
        }
        model == LegalityModel::Fsf && self.last_moves_were_passes(1) && self.generals_facing()
    }

    /// Appends the legal moves (pass included where legal) to `list`.
    /// Nothing is appended when the game is over by history.
    pub fn legal_moves_into(&self, model: LegalityModel, list: &mut MoveList) {
        if self.is_terminal_by_history(model) {
            return;
        }
        let start = list.len();
        self.generate(GenKind::All, list);
        let in_check = self.in_check();
        let bikjang_rule = model == LegalityModel::Fsf && self.generals_facing();
        let mut i = start;
        if in_check {
            while i < list.len() {
                let mv = list[i];
                if self.leaves_general_attacked(mv) || (bikjang_rule && self.facing_after(mv)) {
                    list.swap_remove(i);
                } else {
                    i += 1;
                }
            }
        } else {
            let danger = self.danger();
            while i < list.len() {
                let mv = list[i];
                if (danger.risky(mv) && self.leaves_general_attacked(mv))
                    || (bikjang_rule && self.facing_after(mv))
                {
                    list.swap_remove(i);
                } else {
                    i += 1;
                }
            }
        }
        if !in_check || bikjang_rule {
            list.push(Move::PASS);
        }
    }

    /// The legal moves under `model`.
    pub fn legal_moves(&self, model: LegalityModel) -> MoveList {
        let mut list = MoveList::new();
        self.legal_moves_into(model, &mut list);
        list
    }

    /// Whether `mv` is legal here under `model`.
    pub fn is_legal(&self, mv: Move, model: LegalityModel) -> bool {
        if self.is_terminal_by_history(model) {
            return false;
        }
        let bikjang_rule = model == LegalityModel::Fsf && self.generals_facing();
        if mv.is_pass() {
            return !self.in_check() || bikjang_rule;
        }
        self.is_pseudo_legal(mv)
            && !self.leaves_general_attacked(mv)
            && !(bikjang_rule && self.facing_after(mv))
    }

    /// The general square of the side to move, which is how a pass is
    /// written in UCI text (`e2e2`).
    pub fn pass_square(&self) -> Square {
        self.generals[self.side]
    }
}
