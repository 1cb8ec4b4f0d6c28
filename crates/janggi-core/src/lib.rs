//! # janggi-core — the rules of Janggi (Korean chess, 장기)
//!
//! Everything a front end needs is at the crate root:
//!
//! * squares, bitboards, colours, pieces and moves: [`Square`],
//!   [`Bitboard`], [`Color`], [`PieceKind`], [`Piece`], [`Move`],
//!   [`MoveList`], the tables [`ByColor`] and [`ByKind`];
//! * the position: [`Position`] (FEN, make/unmake, legal moves under a
//!   [`LegalityModel`], move text in a [`Notation`] or in Korean, see
//!   [`KoreanScript`]) and the start setups ([`Setup`], [`START_FEN`]);
//! * the game: a [`Game`] owns a position and its history and decides
//!   everything that depends on history or on the [`Rules`]: bikjang,
//!   repetition, passes, counting with the deom, move limits and the
//!   [`Outcome`].
//!
//! Two public modules hold what is not the everyday API:
//!
//! * [`search_support`]: the hooks an engine's search and evaluation use
//!   beyond it (pseudo-legal generation, the legality shortcut, attack
//!   lines, the move tables, the per-ply judge), each with its contract;
//! * [`rng`]: SplitMix64, the small deterministic generator the Zobrist
//!   keys are made with, shared by the engine and the tools.
//!
//! The modules inside (`types → board → game`, each depending only on
//! those before it) are private: every public item has exactly one path.
//! `tests/public_surface.rs` pins the list of public names.
//!
//! Set up a game, play moves, read the outcome:
//!
//! ```
//! use janggi_core::{Event, Game, Notation, Position, Rules, Setup};
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
#![warn(unreachable_pub)]

mod board;
mod game;
mod types;

pub mod rng;
pub mod search_support;

pub use board::{
    piece_name, setup_fen, FenError, KoreanMoveError, KoreanScript, LegalityModel, MoveParseError,
    Notation, Position, PositionError, Setup, UnknownModel, UnknownSetup, START_FEN,
};
pub use game::{
    BikjangRule, EndReason, Event, Game, IllegalMove, Outcome, PendingBikjang, RepetitionRule,
    RuleError, Rules, REPETITION_LIMIT, REPETITION_WARNING,
};
pub use types::{
    Bitboard, BitboardIter, ByColor, ByKind, Color, Move, MoveList, Piece, PieceKind, Square,
    SquareText, MAX_MOVES,
};
