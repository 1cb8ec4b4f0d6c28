//! # janggi-core — the rules of Janggi (Korean chess, 장기)
//!
//! Layers, each depending only on those before it:
//! `types → board → game`.
//!
//! * [`types`]: squares, bitboards, colours, pieces, moves;
//! * [`board`]: the position, move generation, legality, FEN and the
//!   start setups (the 4 × 4 cards);
//! * [`game`]: a [`Game`](game::Game) owns a position and its history and
//!   decides everything that depends on history or on the rule set:
//!   bikjang, repetition, passes, counting with the deom, move limits and
//!   the outcome. The per-ply rule decision lives once, in the game
//!   layer's judge ([`game::judge`](game::judge())), which the game and
//!   the engine's search both call.
//!
//! Set up a game, play moves, read the outcome:
//!
//! ```
//! use janggi_core::board::{Notation, Position, Setup};
//! use janggi_core::game::{Event, Game, Rules};
//!
//! // Han 마상상마, Cho 상마상마, under the default rules (the spec's §2).
//! let start = Position::from_setups(Setup::Mssm, Setup::Smsm);
//! let mut game = Game::new(start, Rules::default());
//! let mv = game.position().parse_move("a4a5", Notation::Uci).unwrap();
//! let events = game.play(mv).unwrap();
//! assert!(!events.contains(&Event::GameOver));
//! assert!(game.outcome().is_none());
//!
//! // The side to move resigns; the outcome names the winner.
//! game.resign(game.side_to_move()).unwrap();
//! assert!(game.outcome().is_some());
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod board;
pub mod game;
pub mod types;

pub use board::{FenError, LegalityModel, Notation, Position, PositionError, Setup};
pub use types::{Bitboard, Color, Move, MoveList, Piece, PieceKind, Square};
