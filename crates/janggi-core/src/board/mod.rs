//! The board core: geometry tables, position, move generation, legality,
//! FEN and the start setups. Knows nothing about search, eval or protocol.

pub(crate) mod attacks;
pub(crate) mod fen;
pub(crate) mod korean;
pub(crate) mod legal;
pub(crate) mod movegen;
pub(crate) mod notation;
pub(crate) mod position;
pub(crate) mod rays;
pub(crate) mod setup;
pub(crate) mod tables;
pub(crate) mod zobrist;

pub use fen::{FenError, PositionError};
pub use korean::{piece_name, KoreanMoveError, KoreanScript};
pub use legal::{Danger, LegalityModel, UnknownModel};
pub use movegen::GenKind;
pub use notation::{MoveParseError, Notation};
pub use position::{Position, State};
pub use setup::{setup_fen, Setup, UnknownSetup, START_FEN};
