//! Pseudo-legal move generation, one function per piece kind.
//!
//! Pseudo-legal: follows each piece's movement rule, never lands on an own
//! piece, never captures a cannon with a cannon, but may leave the own
//! general attacked (the legality filter in `legal.rs` removes those). The
//! pass is not generated here; `legal.rs` adds it.

use super::position::Position;
use super::rays::{cannon_screen, outward, segment, DIRS};
use super::tables::{ELEPHANT_JUMPS, HORSE_JUMPS, PALACE_STEPS, SOLDIER_STEPS};
use crate::types::{Bitboard, Color, Move, MoveList, Piece, PieceKind, Square};

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

    #[inline(always)]
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

    #[inline(always)]
    fn gen_horse(&self, list: &mut MoveList, from: Square, us: Color, kind: GenKind) {
        for j in HORSE_JUMPS[from.index()].as_slice() {
            if self.board[j.leg.index()].is_none() {
                self.push_if(list, from, j.dest, us, kind);
            }
        }
    }

    #[inline(always)]
    fn gen_elephant(&self, list: &mut MoveList, from: Square, us: Color, kind: GenKind) {
        for j in ELEPHANT_JUMPS[from.index()].as_slice() {
            if self.board[j.leg1.index()].is_none() && self.board[j.leg2.index()].is_none() {
                self.push_if(list, from, j.dest, us, kind);
            }
        }
    }

    /// Moves from `from` to the points of `seg`, a line segment in
    /// direction `d` ending at its first occupied point (if any), nearest
    /// first. `cannon`: the mover may not capture a cannon.
    /// The mover belongs to the side to move.
    #[inline(always)]
    fn push_segment(
        &self,
        list: &mut MoveList,
        from: Square,
        seg: Bitboard,
        d: usize,
        kind: GenKind,
        cannon: bool,
    ) {
        let us = self.side;
        let occ = self.occupied();
        if kind != GenKind::Captures {
            for to in outward(seg & !occ, d) {
                list.push(Move::new_unchecked(from, to));
            }
        }
        if kind != GenKind::Quiets {
            // The segment holds at most one occupied point: its end.
            if let Some(to) = (seg & occ).first() {
                let p = self.board[to.index()];
                // "A cannon may not capture a cannon."
                if p.is_some_and(|p| capturable(p, us) && !(cannon && p.kind == PieceKind::Cannon))
                {
                    list.push(Move::new_unchecked(from, to));
                }
            }
        }
    }

    #[inline(always)]
    fn gen_chariot(&self, list: &mut MoveList, from: Square, kind: GenKind) {
        let occ = self.occupied();
        for d in 0..DIRS {
            self.push_segment(list, from, segment(from, d, occ), d, kind, false);
        }
    }

    #[inline(always)]
    fn gen_cannon(&self, list: &mut MoveList, from: Square, kind: GenKind) {
        let occ = self.occupied();
        let cannons = self.kind_bb(PieceKind::Cannon);
        for d in 0..DIRS {
            // The screen (포다리): the first piece on the line, not a cannon.
            if let Some(screen) = cannon_screen(from, d, occ, cannons) {
                self.push_segment(list, from, segment(screen, d, occ), d, kind, true);
            }
        }
    }

    /// Appends the pseudo-legal moves of the side to move to `list`.
    pub fn generate(&self, kind: GenKind, list: &mut MoveList) {
        // One copy of the loop per kind, with the pieces' generators
        // inlined into it: no call per piece, and each copy tests `kind`
        // at compile time (about 3 % of the instructions of `bench`).
        match kind {
            GenKind::Captures => self.generate_all(GenKind::Captures, list),
            GenKind::Quiets => self.generate_all(GenKind::Quiets, list),
            GenKind::All => self.generate_all(GenKind::All, list),
        }
    }

    /// [`Position::generate`] for one `kind`, which the caller makes a
    /// constant.
    #[inline(always)]
    fn generate_all(&self, kind: GenKind, list: &mut MoveList) {
        for from in self.color_bb(self.side) {
            // The side's bitboard says a piece of the side stands there.
            if let Some(p) = self.board[from.index()] {
                self.generate_piece(from, p, kind, list);
            }
        }
    }

    /// Appends the pseudo-legal moves of the side to move's piece on `from`
    /// (nothing if `from` holds no piece of the side to move).
    #[inline]
    pub fn generate_from(&self, from: Square, kind: GenKind, list: &mut MoveList) {
        let Some(p) = self.board[from.index()] else {
            return;
        };
        if p.color != self.side {
            return;
        }
        self.generate_piece(from, p, kind, list);
    }

    /// Appends the pseudo-legal moves of `p`, a piece of the side to move
    /// standing on `from`.
    #[inline(always)]
    fn generate_piece(&self, from: Square, p: Piece, kind: GenKind, list: &mut MoveList) {
        let us = self.side;
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
            PieceKind::Chariot => self.gen_chariot(list, from, kind),
            PieceKind::Cannon => self.gen_cannon(list, from, kind),
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
