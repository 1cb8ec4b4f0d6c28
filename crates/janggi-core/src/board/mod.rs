//! The board core: geometry tables, position, move generation, legality,
//! FEN and the start setups. Knows nothing about search, eval or protocol.

pub mod attacks;
pub mod fen;
pub mod korean;
pub mod legal;
pub mod movegen;
pub mod notation;
pub mod position;
pub mod rays;
pub mod setup;
pub mod tables;
pub mod zobrist;

pub use fen::{FenError, PositionError};
pub use korean::{KoreanMoveError, KoreanScript};
pub use legal::LegalityModel;
pub use movegen::GenKind;
pub use notation::{MoveParseError, Notation};
pub use position::{Position, State};
pub use setup::{setup_fen, Setup, START_FEN};
