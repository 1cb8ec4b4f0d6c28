//! Record files on the board: an uploaded GIB or PGN file's games listed
//! (and kept for opening), and the current game written as a file.

use crate::error::{ApiError, Listing};
use crate::request::RecordFormat;
use crate::session::{Phase, PhaseError, Session, Source};
use janggi_records::Record;

/// Most games kept from one uploaded file.
pub const MAX_LOADED_GAMES: usize = 2000;

/// A GIB or PGN file's bytes (any encoding the records crate reads): the
/// games that could be read, and the list of all of them (with why a
/// broken one could not be read).
///
/// # Errors
/// [`ApiError::NoGame`] when not one game could be read.
pub fn read_file(bytes: &[u8]) -> Result<(Vec<Record>, Vec<Listing>), ApiError> {
    let mut list = Vec::new();
    let mut good = Vec::new();
    for (i, g) in janggi_records::read_any(bytes)
        .into_iter()
        .take(MAX_LOADED_GAMES)
        .enumerate()
    {
        match g {
            Ok(r) => {
                list.push(Listing::Game {
                    index: good.len(),
                    source: Source::of(&r),
                    warnings: r.warnings.iter().map(ToString::to_string).collect(),
                });
                good.push(r);
            }
            Err(e) => list.push(Listing::Broken {
                game: i + 1,
                error: e.to_string(),
            }),
        }
    }
    if good.is_empty() {
        return Err(ApiError::NoGame(list));
    }
    Ok((good, list))
}

/// A game written as a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SavedFile {
    /// The bytes.
    pub data: Vec<u8>,
    /// Its content type.
    pub content_type: &'static str,
    /// The file name offered.
    pub file_name: &'static str,
}

/// The game of `session` as a file in `format`; `engine_name` names the
/// engine's side when the game has no header of its own.
///
/// # Errors
/// The game has not started, or GIB cannot say it.
pub fn save(
    session: &Session,
    engine_name: Option<&str>,
    format: RecordFormat,
) -> Result<SavedFile, ApiError> {
    if matches!(session.phase, Phase::Setup { .. }) {
        return Err(PhaseError::GameNotStarted.into());
    }
    let rec = session.to_record(engine_name);
    Ok(match format {
        RecordFormat::Pgn => SavedFile {
            data: janggi_records::pgn::write_pgn(&rec, janggi_records::pgn::MoveStyle::San)
                .into_bytes(),
            content_type: "application/x-chess-pgn; charset=utf-8",
            file_name: "janggi.pgn",
        },
        RecordFormat::Gib => {
            let text =
                janggi_records::gib::write_gib(&rec).map_err(|e| ApiError::Gib(e.to_string()))?;
            SavedFile {
                data: janggi_records::gib::encode_cp949(&text),
                content_type: "application/octet-stream",
                file_name: "janggi.gib",
            }
        }
    })
}
