//! File conversion between the formats, for `janggi-engine convert`: every
//! game of the input that reads is written; every one that does not is
//! reported, and the others still convert.

use crate::gib::{encode_cp949, write_gib};
use crate::pgn::{write_pgn, MoveStyle};
use crate::record::{GameError, RecordWarning};
use std::fmt;

/// The output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// PGN, moves in SAN.
    Pgn,
    /// PGN, moves in UCI coordinates (`[Notation "UCI"]`).
    PgnUci,
    /// GIB (UTF-8 text).
    Gib,
    /// GIB in CP949, as the Korean apps read it.
    GibCp949,
    /// EPD, every position.
    Epd,
}

/// One problem met while converting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// A game that could not be read (not written).
    Read(GameError),
    /// A game that reads but the target format cannot hold (not written).
    Write {
        /// The game's number in the input, from 1.
        index: usize,
        /// Why.
        error: crate::gib::GibWriteError,
    },
    /// The input holds no game at all (empty, or only blanks).
    NoGames,
    /// A game written, read with an assumption or repair.
    Warning {
        /// The game's number in the input, from 1.
        index: usize,
        /// What.
        warning: RecordWarning,
    },
}

impl Problem {
    /// Whether the game was left out of the output.
    pub fn is_error(&self) -> bool {
        !matches!(self, Problem::Warning { .. })
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::Read(e) => write!(f, "error: {e}"),
            Problem::NoGames => write!(f, "error: no games in the input (the file is empty)"),
            Problem::Write { index, error } => write!(f, "error: game {index}: {error}"),
            Problem::Warning { index, warning } => write!(f, "warning: game {index}: {warning}"),
        }
    }
}

/// What a conversion produced.
#[derive(Debug)]
pub struct Conversion {
    /// The output file's bytes.
    pub output: Vec<u8>,
    /// Games written.
    pub written: usize,
    /// Errors (games left out) and warnings, in input order.
    pub problems: Vec<Problem>,
}

/// Converts a file (GIB or PGN, detected) to `target`, each game under
/// the rules its record says ([`crate::read_any`]).
pub fn convert(input: &[u8], target: Target) -> Conversion {
    convert_with(input, target, None)
}

/// [`convert`], under exactly `rules` when given (`--variant`, `--rules`).
pub fn convert_with(input: &[u8], target: Target, rules: Option<janggi_core::Rules>) -> Conversion {
    let mut out = String::new();
    let mut problems = Vec::new();
    let mut written = 0;
    let games = crate::read_any_with(input, rules);
    if games.is_empty() {
        problems.push(Problem::NoGames);
    }
    for (i, g) in games.into_iter().enumerate() {
        let index = i + 1;
        let rec = match g {
            Ok(r) => r,
            Err(e) => {
                problems.push(Problem::Read(e));
                continue;
            }
        };
        let text = match target {
            Target::Pgn => Ok(write_pgn(&rec, MoveStyle::San)),
            Target::PgnUci => Ok(write_pgn(&rec, MoveStyle::Uci)),
            Target::Gib | Target::GibCp949 => write_gib(&rec),
            Target::Epd => Ok(crate::epd::write_epd(&rec, index)),
        };
        match text {
            Ok(t) => {
                out.push_str(&t);
                written += 1;
                problems.extend(
                    rec.warnings
                        .iter()
                        .cloned()
                        .map(|warning| Problem::Warning { index, warning }),
                );
            }
            Err(error) => problems.push(Problem::Write { index, error }),
        }
    }
    let output = if target == Target::GibCp949 {
        encode_cp949(&out)
    } else {
        out.into_bytes()
    };
    Conversion {
        output,
        written,
        problems,
    }
}
