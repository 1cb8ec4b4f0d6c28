//! Basic value types: squares, bitboards, colors and pieces, moves.

pub(crate) mod bitboard;
pub(crate) mod mv;
pub(crate) mod piece;
pub(crate) mod square;

pub use bitboard::{Bitboard, BitboardIter};
pub use mv::Move;
pub use piece::{ByColor, ByKind, Color, Piece, PieceKind};
pub use square::{Square, SquareText};

/// Upper bound on the number of pseudo-legal moves in any Janggi position
/// (plus the pass). A generous bound; the true maximum is far below it.
pub const MAX_MOVES: usize = 256;

/// A move list on the stack.
pub type MoveList = arrayvec::ArrayVec<Move, MAX_MOVES>;
