//! Attack detection: is a point attacked by a side?
//!
//! Used for check and for the legality filter. The board is read through a
//! small closure so that the legality filter can ask "attacked after this
//! move?" without touching the position. Generals facing each other is not
//! an attack; a general or guard never attacks a point outside its palace,
//! and since the two palaces are far apart they never attack the enemy
//! general — but they do attack points, which the generic query reports.

use super::position::Position;
use super::tables::{ELEPHANT_SOURCES, HORSE_SOURCES, LINES, PALACE_STEPS, SOLDIER_SOURCES};
use crate::types::{Bitboard, Color, Move, Piece, PieceKind, Square};

/// Whether `target` is attacked by a piece of `by`, reading the board through
/// `at`. When `cannon_target` is true the point holds a cannon, which a
/// cannon may not capture.
#[inline(always)]
fn attacked_with<F: Fn(Square) -> Option<Piece>>(
    target: Square,
    by: Color,
    at: F,
    cannon_target: bool,
    include_palace_pieces: bool,
) -> bool {
    // Chariot and cannon along lines (orthogonal and palace diagonals).
    for ray in LINES[target.index()].rays() {
        let mut it = ray.as_slice().iter();
        let mut screen = None;
        for &s in it.by_ref() {
            if let Some(p) = at(s) {
                if p.color == by && p.kind == PieceKind::Chariot {
                    return true;
                }
                screen = Some(p);
                break;
            }
        }
        // "A cannon may not jump over a cannon."
        match screen {
            Some(p) if p.kind != PieceKind::Cannon => {}
            _ => continue,
        }
        for &s in it {
            if let Some(p) = at(s) {
                // "A cannon may not capture a cannon."
                if p.color == by && p.kind == PieceKind::Cannon && !cannon_target {
                    return true;
                }
                break;
            }
        }
    }
    for j in HORSE_SOURCES[target.index()].as_slice() {
        if at(j.dest) == Some(Piece::new(by, PieceKind::Horse)) && at(j.leg).is_none() {
            return true;
        }
    }
    for j in ELEPHANT_SOURCES[target.index()].as_slice() {
        if at(j.dest) == Some(Piece::new(by, PieceKind::Elephant))
            && at(j.leg1).is_none()
            && at(j.leg2).is_none()
        {
            return true;
        }
    }
    for &s in SOLDIER_SOURCES[by.index()][target.index()].as_slice() {
        if at(s) == Some(Piece::new(by, PieceKind::Soldier)) {
            return true;
        }
    }
    if include_palace_pieces {
        for &s in PALACE_STEPS[target.index()].as_slice() {
            if let Some(p) = at(s) {
                if p.color == by && matches!(p.kind, PieceKind::General | PieceKind::Guard) {
                    return true;
                }
            }
        }
    }
    false
}

impl Position {
    /// Every piece of either color in `occ` that attacks `target` when only
    /// the pieces in `occ` are on the board (a piece outside `occ` has been
    /// exchanged off; `target` itself is never a screen or leg, so what
    /// stands there does not matter). Cannon screens and horse/elephant legs
    /// are read from `occ`, so they appear and disappear with it. Cannons are
    /// reported even when the point holds a cannon: "a cannon may not
    /// capture a cannon" is for the caller, who knows what stands there.
    /// Used by the static exchange evaluation. The line walk mirrors
    /// `attacked_with` on purpose: that one is the check test on every
    /// node and stops at the first attacker, this one collects all of them.
    pub(crate) fn attackers_to(&self, target: Square, occ: Bitboard) -> Bitboard {
        let at = |s: Square| {
            if occ.contains(s) {
                self.board[s.index()]
            } else {
                None
            }
        };
        let mut out = Bitboard::EMPTY;
        for ray in LINES[target.index()].rays() {
            let mut it = ray.as_slice().iter();
            let mut screen = None;
            for &s in it.by_ref() {
                if let Some(p) = at(s) {
                    if p.kind == PieceKind::Chariot {
                        out = out.with(s);
                    }
                    screen = Some(p);
                    break;
                }
            }
            // "A cannon may not jump over a cannon."
            match screen {
                Some(p) if p.kind != PieceKind::Cannon => {}
                _ => continue,
            }
            for &s in it {
                if let Some(p) = at(s) {
                    if p.kind == PieceKind::Cannon {
                        out = out.with(s);
                    }
                    break;
                }
            }
        }
        for j in HORSE_SOURCES[target.index()].as_slice() {
            if at(j.dest).is_some_and(|p| p.kind == PieceKind::Horse) && at(j.leg).is_none() {
                out = out.with(j.dest);
            }
        }
        for j in ELEPHANT_SOURCES[target.index()].as_slice() {
            if at(j.dest).is_some_and(|p| p.kind == PieceKind::Elephant)
                && at(j.leg1).is_none()
                && at(j.leg2).is_none()
            {
                out = out.with(j.dest);
            }
        }
        for c in Color::BOTH {
            for &s in SOLDIER_SOURCES[c.index()][target.index()].as_slice() {
                if at(s) == Some(Piece::new(c, PieceKind::Soldier)) {
                    out = out.with(s);
                }
            }
        }
        // General and guards step along the lines of the palace they stand
        // in; the steps from `target` never leave its palace, which only the
        // owner's general and guards can occupy.
        for &s in PALACE_STEPS[target.index()].as_slice() {
            if at(s).is_some_and(|p| matches!(p.kind, PieceKind::General | PieceKind::Guard)) {
                out = out.with(s);
            }
        }
        out
    }

    /// Whether `target` is attacked by any piece of `by` (a capture onto it
    /// would be pseudo-legal if it held an enemy piece). Respects the
    /// cannon-captures-cannon ban for the piece actually on `target`.
    pub fn is_attacked(&self, target: Square, by: Color) -> bool {
        let cannon_target = self
            .piece_at(target)
            .is_some_and(|p| p.kind == PieceKind::Cannon);
        attacked_with(target, by, |s| self.board[s.index()], cannon_target, true)
    }

    /// Whether `color`'s general is attacked (in check, 장군).
    #[inline]
    pub fn in_check_color(&self, color: Color) -> bool {
        attacked_with(
            self.generals[color],
            !color,
            |s| self.board[s.index()],
            false,
            false,
        )
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.in_check_color(self.side)
    }

    /// Whether the side to move's general would be attacked after the
    /// pseudo-legal non-pass move `mv` (the board is not modified).
    #[inline]
    pub fn leaves_general_attacked(&self, mv: Move) -> bool {
        let us = self.side;
        let from = mv.from();
        let to = mv.to();
        let mover = self.board[from.index()];
        let king = if from == self.generals[us] {
            to
        } else {
            self.generals[us]
        };
        attacked_with(
            king,
            !us,
            |s| {
                if s == to {
                    mover
                } else if s == from {
                    None
                } else {
                    self.board[s.index()]
                }
            },
            false,
            false,
        )
    }

    /// The enemy pieces giving check to the side to move.
    pub fn checkers(&self) -> Bitboard {
        let us = self.side;
        let king = self.generals[us];
        let them = !us;
        let mut out = Bitboard::EMPTY;
        for s in self.color_bb(them) {
            if self.attacks_square_from(s, king) {
                out = out.with(s);
            }
        }
        out
    }

    /// Whether the piece on `from` attacks `target` (slow; for diagnostics
    /// such as the `Checkers:` line and tests).
    pub fn attacks_square_from(&self, from: Square, target: Square) -> bool {
        let Some(p) = self.piece_at(from) else {
            return false;
        };
        let cannon_target = self
            .piece_at(target)
            .is_some_and(|q| q.kind == PieceKind::Cannon);
        // Look at the board with every other piece of that color removed.
        attacked_with(
            target,
            p.color,
            |s| match self.board[s.index()] {
                Some(q) if q.color == p.color && s != from => Some(Piece::new(!q.color, q.kind)),
                other => other,
            },
            cannon_target,
            true,
        )
    }
}
