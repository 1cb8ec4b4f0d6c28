//! Pseudo-legal move generation, one function per piece kind.
//!
//! Pseudo-legal: follows each piece's movement rule, never lands on an own
//! piece, never captures a cannon with a cannon, but may leave the own
//! general attacked (the legality filter in `legal.rs` removes those). The
//! pass is not generated here; `legal.rs` adds it.

use super::position::Position;
use super::tables::{ELEPHANT_JUMPS, HORSE_JUMPS, LINES, PALACE_STEPS, SOLDIER_STEPS};
use crate::types::{Color, Move, MoveList, Piece, PieceKind, Square};

/// Which moves to generate.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GenKind {
    /// Captures only.
    Captures,
    /// Non-captures only (pass excluded).
    Quiets,
    /// Both.
    All,
}

/// Whether a piece of `us` may capture `p`: an enemy piece other than the
/// general. The general is never captured (the game ends at checkmate); the
/// exclusion matters only in positions where the side not to move is in
/// check, such as a FEN like that or the end of a Fairy-Stockfish bikjang
/// pass made in check.
#[inline(always)]
fn capturable(p: Piece, us: Color) -> bool {
    p.color != us && p.kind != PieceKind::General
}

impl Position {
    #[inline(always)]
    fn push_if(&self, list: &mut MoveList, from: Square, to: Square, us: Color, kind: GenKind) {
        match self.board[to.index()] {
            None => {
                if kind != GenKind::Captures {
                    list.push(Move::new_unchecked(from, to));
                }
            }
            Some(p) => {
                if capturable(p, us) && kind != GenKind::Quiets {
                    list.push(Move::new_unchecked(from, to));
                }
            }
        }
    }

    fn gen_steps(
        &self,
        list: &mut MoveList,
        from: Square,
        steps: &[Square],
        us: Color,
        kind: GenKind,
    ) {
        for &to in steps {
            self.push_if(list, from, to, us, kind);
        }
    }

    fn gen_horse(&self, list: &mut MoveList, from: Square, us: Color, kind: GenKind) {
        for j in HORSE_JUMPS[from.index()].as_slice() {
            if self.board[j.leg.index()].is_none() {
                self.push_if(list, from, j.dest, us, kind);
            }
        }
    }

    fn gen_elephant(&self, list: &mut MoveList, from: Square, us: Color, kind: GenKind) {
        for j in ELEPHANT_JUMPS[from.index()].as_slice() {
            if self.board[j.leg1.index()].is_none() && self.board[j.leg2.index()].is_none() {
                self.push_if(list, from, j.dest, us, kind);
            }
        }
    }

    fn gen_chariot(&self, list: &mut MoveList, from: Square, us: Color, kind: GenKind) {
        for ray in LINES[from.index()].rays() {
            for &to in ray.as_slice() {
                match self.board[to.index()] {
                    None => {
                        if kind != GenKind::Captures {
                            list.push(Move::new_unchecked(from, to));
                        }
                    }
                    Some(p) => {
                        if capturable(p, us) && kind != GenKind::Quiets {
                            list.push(Move::new_unchecked(from, to));
                        }
                        break;
                    }
                }
            }
        }
    }

    fn gen_cannon(&self, list: &mut MoveList, from: Square, us: Color, kind: GenKind) {
        for ray in LINES[from.index()].rays() {
            let mut it = ray.as_slice().iter();
            // Find the screen (포다리): the first piece on the ray.
            let mut screened = false;
            for &s in it.by_ref() {
                if let Some(p) = self.board[s.index()] {
                    // "A cannon may not jump over a cannon."
                    screened = p.kind != PieceKind::Cannon;
                    break;
                }
            }
            if !screened {
                continue;
            }
            for &to in it {
                match self.board[to.index()] {
                    None => {
                        if kind != GenKind::Captures {
                            list.push(Move::new_unchecked(from, to));
                        }
                    }
                    Some(p) => {
                        // "A cannon may not capture a cannon."
                        if capturable(p, us)
                            && p.kind != PieceKind::Cannon
                            && kind != GenKind::Quiets
                        {
                            list.push(Move::new_unchecked(from, to));
                        }
                        break;
                    }
                }
            }
        }
    }

    /// Appends the pseudo-legal moves of the side to move to `list`.
    pub fn generate(&self, kind: GenKind, list: &mut MoveList) {
        for from in self.color_bb(self.side) {
            self.generate_from(from, kind, list);
        }
    }

    /// Appends the pseudo-legal moves of the side to move's piece on `from`
    /// (nothing if `from` holds no piece of the side to move).
    #[inline]
    pub fn generate_from(&self, from: Square, kind: GenKind, list: &mut MoveList) {
        let us = self.side;
        let Some(p) = self.board[from.index()] else {
            return;
        };
        if p.color != us {
            return;
        }
        match p.kind {
            PieceKind::General | PieceKind::Guard => {
                self.gen_steps(list, from, PALACE_STEPS[from.index()].as_slice(), us, kind)
            }
            PieceKind::Soldier => self.gen_steps(
                list,
                from,
                SOLDIER_STEPS[us.index()][from.index()].as_slice(),
                us,
                kind,
            ),
            PieceKind::Horse => self.gen_horse(list, from, us, kind),
            PieceKind::Elephant => self.gen_elephant(list, from, us, kind),
            PieceKind::Chariot => self.gen_chariot(list, from, us, kind),
            PieceKind::Cannon => self.gen_cannon(list, from, us, kind),
        }
    }

    /// Whether `mv` is pseudo-legal here: the pass, or a move the generator
    /// would produce (used for moves from outside such as hash moves).
    pub fn is_pseudo_legal(&self, mv: Move) -> bool {
        if mv.is_pass() {
            return true;
        }
        let mut list = MoveList::new();
        self.generate_from(mv.from(), GenKind::All, &mut list);
        list.contains(&mv)
    }
}
