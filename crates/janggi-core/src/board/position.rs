//! The position: what a FEN holds (board, side to move, counters) plus the
//! undo stack that make/unmake needs.

use super::tables::between_on_file;
use super::zobrist;
use crate::types::{Bitboard, ByColor, ByKind, Color, Move, Piece, PieceKind, Square};

/// What `make` saves so that `unmake` can restore the position exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    /// The move that was made.
    pub mv: Move,
    /// The piece it captured, if any.
    pub captured: Option<Piece>,
    /// Zobrist key before the move.
    pub key: u64,
    /// Halfmove clock before the move.
    pub halfmove: u32,
}

/// A Janggi position with an undo stack.
///
/// Invariants (checked by [`Position::is_consistent`]): the mailbox and the
/// bitboards agree, each side has exactly one general and `generals` points
/// at it, and `key` equals the key computed from scratch.
#[derive(Clone, Debug)]
pub struct Position {
    pub(crate) board: [Option<Piece>; 90],
    pub(crate) by_color: ByColor<Bitboard>,
    pub(crate) by_kind: ByKind<Bitboard>,
    pub(crate) generals: ByColor<Square>,
    pub(crate) side: Color,
    pub(crate) key: u64,
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    pub(crate) stack: Vec<State>,
}

impl PartialEq for Position {
    /// Two positions are equal when what a FEN shows is equal (the undo
    /// stack is history, not position).
    fn eq(&self, other: &Self) -> bool {
        self.board == other.board
            && self.side == other.side
            && self.halfmove == other.halfmove
            && self.fullmove == other.fullmove
    }
}

impl Eq for Position {}

impl Position {
    /// Builds a position from a mailbox. The caller (FEN parsing, setups)
    /// has validated that each side has exactly one general.
    pub(crate) fn from_parts(
        board: [Option<Piece>; 90],
        side: Color,
        halfmove: u32,
        fullmove: u32,
    ) -> Position {
        let mut by_color = ByColor([Bitboard::EMPTY; 2]);
        let mut by_kind = ByKind([Bitboard::EMPTY; 7]);
        let mut generals = ByColor([Square::ALL[0]; 2]);
        for sq in Square::ALL {
            if let Some(p) = board[sq.index()] {
                by_color[p.color] = by_color[p.color].with(sq);
                by_kind[p.kind] = by_kind[p.kind].with(sq);
                if p.kind == PieceKind::General {
                    generals[p.color] = sq;
                }
            }
        }
        let mut pos = Position {
            board,
            by_color,
            by_kind,
            generals,
            side,
            key: 0,
            halfmove,
            fullmove,
            stack: Vec::with_capacity(256),
        };
        pos.key = pos.compute_key();
        pos
    }

    /// The piece on `sq`.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// Side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Zobrist key (board + side to move).
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Halfmove clock: plies since the last capture.
    #[inline]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// Fullmove number, starting at 1 and incremented after Han's move.
    #[inline]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// Square of `color`'s general.
    #[inline]
    pub fn general(&self, color: Color) -> Square {
        self.generals[color]
    }

    /// All pieces of `color`.
    #[inline]
    pub fn color_bb(&self, color: Color) -> Bitboard {
        self.by_color[color]
    }

    /// All pieces of `kind`, both colors.
    #[inline]
    pub fn kind_bb(&self, kind: PieceKind) -> Bitboard {
        self.by_kind[kind]
    }

    /// Pieces of `color` and `kind`.
    #[inline]
    pub fn pieces(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.by_color[color] & self.by_kind[kind]
    }

    /// All occupied squares.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color.0[0] | self.by_color.0[1]
    }

    /// The moves made since this position was set up, oldest first, with what
    /// each captured.
    pub fn history(&self) -> &[State] {
        &self.stack
    }

    /// The last move made, if any.
    #[inline]
    pub fn last_move(&self) -> Option<Move> {
        self.stack.last().map(|s| s.mv)
    }

    /// Whether the last `n` moves made (from this position's set-up on) were
    /// all passes. With fewer than `n` moves made, false.
    #[inline]
    pub fn last_moves_were_passes(&self, n: usize) -> bool {
        self.stack.len() >= n
            && self.stack[self.stack.len() - n..]
                .iter()
                .all(|s| s.mv.is_pass())
    }

    /// Bikjang (빅장) state: both generals on one file with nothing between.
    /// This is not check.
    #[inline]
    pub fn generals_facing(&self) -> bool {
        let a = self.generals.0[0];
        let b = self.generals.0[1];
        a.file() == b.file() && (between_on_file(a, b) & self.occupied()).is_empty()
    }

    /// Material points of `color` on the board (spec §6, without the deom).
    pub fn material(&self, color: Color) -> u32 {
        PieceKind::ALL
            .iter()
            .map(|&k| k.points() * self.pieces(color, k).count())
            .sum()
    }

    /// Makes `mv`, which must be pseudo-legal in this position (a pass, or a
    /// move of a piece of the side to move onto an empty point or an enemy
    /// piece other than the general). Legality (self-check) is not checked.
    ///
    /// # Panics
    /// In debug builds, if the origin square does not hold a piece of the side
    /// to move or the destination holds one of its own pieces.
    #[inline(always)]
    pub fn make(&mut self, mv: Move) {
        let mut st = State {
            mv,
            captured: None,
            key: self.key,
            halfmove: self.halfmove,
        };
        if mv.is_pass() {
            self.halfmove += 1;
        } else {
            let from = mv.from();
            let to = mv.to();
            let moving = self.board[from.index()];
            debug_assert!(
                moving.is_some_and(|p| p.color == self.side),
                "no own piece on {from}"
            );
            let Some(p) = moving else {
                return;
            };
            let to_bb = Bitboard::from_square(to);
            if let Some(c) = self.board[to.index()] {
                debug_assert!(c.color != self.side);
                self.by_color[c.color] ^= to_bb;
                self.by_kind[c.kind] ^= to_bb;
                self.key ^= zobrist::piece_key(c, to);
                st.captured = Some(c);
                self.halfmove = 0;
            } else {
                self.halfmove += 1;
            }
            // The mover leaves `from` and lands on `to`: one mask for both.
            let path = Bitboard::from_square(from) | to_bb;
            self.board[from.index()] = None;
            self.board[to.index()] = Some(p);
            self.by_color[p.color] ^= path;
            self.by_kind[p.kind] ^= path;
            self.key ^= zobrist::piece_key(p, from) ^ zobrist::piece_key(p, to);
            if p.kind == PieceKind::General {
                self.generals[p.color] = to;
            }
        }
        if self.side == Color::Han {
            self.fullmove += 1;
        }
        self.side = !self.side;
        self.key ^= zobrist::side_key();
        self.stack.push(st);
    }

    /// Takes back the last move made. Does nothing if no move was made.
    #[inline(always)]
    pub fn unmake(&mut self) {
        let Some(st) = self.stack.pop() else {
            return;
        };
        self.side = !self.side;
        if self.side == Color::Han {
            self.fullmove -= 1;
        }
        let mv = st.mv;
        if !mv.is_pass() {
            let from = mv.from();
            let to = mv.to();
            let to_bb = Bitboard::from_square(to);
            // The key is restored whole below, so only the board and the
            // bitboards are put back here.
            if let Some(p) = self.board[to.index()] {
                let path = Bitboard::from_square(from) | to_bb;
                self.board[from.index()] = Some(p);
                self.by_color[p.color] ^= path;
                self.by_kind[p.kind] ^= path;
                if p.kind == PieceKind::General {
                    self.generals[p.color] = from;
                }
            }
            self.board[to.index()] = st.captured;
            if let Some(c) = st.captured {
                self.by_color[c.color] ^= to_bb;
                self.by_kind[c.kind] ^= to_bb;
            }
        }
        self.key = st.key;
        self.halfmove = st.halfmove;
        debug_assert!(self.is_consistent());
    }

    /// Forgets the undo history (the position stays as it is); the next
    /// position derived from here starts a fresh tree, as a FEN root does.
    pub fn clear_history(&mut self) {
        self.stack.clear();
    }

    /// The Zobrist key computed from scratch.
    pub fn compute_key(&self) -> u64 {
        let mut k = 0;
        for sq in Square::ALL {
            if let Some(p) = self.board[sq.index()] {
                k ^= zobrist::piece_key(p, sq);
            }
        }
        if self.side == Color::Han {
            k ^= zobrist::side_key();
        }
        k
    }

    /// Checks every internal invariant: mailbox ↔ bitboards, general
    /// squares, no bits at 90 or above, key.
    pub fn is_consistent(&self) -> bool {
        let mut by_color = ByColor([Bitboard::EMPTY; 2]);
        let mut by_kind = ByKind([Bitboard::EMPTY; 7]);
        for sq in Square::ALL {
            if let Some(p) = self.board[sq.index()] {
                by_color[p.color] = by_color[p.color].with(sq);
                by_kind[p.kind] = by_kind[p.kind].with(sq);
            }
        }
        let no_high_bits = self
            .by_color
            .0
            .iter()
            .chain(self.by_kind.0.iter())
            .all(|b| b.0 >> 90 == 0);
        by_color == self.by_color
            && by_kind == self.by_kind
            && no_high_bits
            && Color::BOTH.iter().all(|&c| {
                self.pieces(c, PieceKind::General) == Bitboard::from_square(self.generals[c])
            })
            && self.key == self.compute_key()
    }
}
