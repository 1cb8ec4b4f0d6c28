//! # janggi-records — Janggi game records in and out
//!
//! * [`san`]: Fairy-Stockfish's SAN for Janggi (`Hc3`, `Pab4`), written and
//!   read exactly as Fairy-Stockfish and pychess do;
//! * [`gib`]: GIB, the Korean record format (CP949/EUC-KR or UTF-8,
//!   several games a file, Korean tags and moves);
//! * [`pgn`]: PGN with `[Variant "Janggi"]`, moves in SAN or UCI;
//! * [`epd`]: every position of a game as EPD lines;
//! * [`convert`]: whole files from one format to another (the CLI's
//!   `convert`);
//! * [`rules_arg`]: the rules `--variant`/`--rules` name;
//! * [`record`]: the [`Record`] all of them read into and write from, with
//!   typed [`GameError`]s and [`RecordWarning`]s; a broken game never stops
//!   the other games of a file.
//!
//! See docs/records.md for the formats and the orientation of Han's setup.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod board_tag;
pub mod convert;
pub mod epd;
pub mod gib;
pub mod pgn;
pub mod record;
pub mod rules_arg;
pub mod san;
pub mod tags;

pub use record::{GameError, GameErrorKind, GameResult, MoveError, Ply, Record, RecordWarning};

/// The formats a file can be read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// GIB.
    Gib,
    /// PGN.
    Pgn,
}

/// Guesses a file's format from its content: PGN when a `[Variant`, `[FEN`,
/// `[White`, `[Event` or `[Result` tag appears (or the movetext reads as
/// SAN/UCI), else GIB.
pub fn sniff(bytes: &[u8]) -> Format {
    let (text, _) = gib::decode(&bytes[..bytes.len().min(64 * 1024)]);
    let pgn_tags = [
        "[Variant ",
        "[FEN ",
        "[White ",
        "[Event ",
        "[Result ",
        "[Black ",
    ];
    if pgn_tags.iter().any(|t| text.contains(t)) {
        Format::Pgn
    } else {
        Format::Gib
    }
}

/// Reads every game of a file in either format, under the rules each
/// record says (PGN's variant tags; for GIB, KJF's unless the record
/// follows the apps' rules: [`gib::read_gib`]).
pub fn read_any(bytes: &[u8]) -> Vec<Result<Record, GameError>> {
    read_any_with(bytes, None)
}

/// [`read_any`], under exactly `rules` when given (`--rules`, `--variant`).
pub fn read_any_with(
    bytes: &[u8],
    rules: Option<janggi_core::Rules>,
) -> Vec<Result<Record, GameError>> {
    match sniff(bytes) {
        Format::Gib => gib::read_gib_choosing(bytes, rules).games,
        Format::Pgn => pgn::read_pgn_with(&gib::decode(bytes).0, rules),
    }
}
