//! # janggi — a Janggi (Korean chess, 장기) engine
//!
//! Layers, each depending only on those before it:
//! `types → rules → game → eval → search → engine → protocol → cli`.
//!
//! ```
//! use janggi::{perft::perft, LegalityModel, Position};
//! let mut pos = Position::startpos();
//! assert_eq!(perft(&mut pos, 2, LegalityModel::Casual), 1024);
//! ```

#![warn(missing_docs)]

pub mod bench;
pub mod engine;
pub mod eval;
pub mod nnue;
pub mod perft;
pub mod protocol;
pub mod search;

pub use board::{FenError, LegalityModel, Notation, Position, PositionError, Setup};
pub use janggi_core::{board, game, types};
pub use types::{Bitboard, Color, Move, MoveList, Piece, PieceKind, Square};
pub mod cli;
