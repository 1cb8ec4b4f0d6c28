//! What the game refuses, typed: a move the rules refuse, a request that
//! does not fit the game's phase, or a value outside the game (a ply past
//! the record, a record that does not replay).

use crate::reasons::Refusal;
use janggi_core::MoveParseError;
use std::fmt;

/// Something the game does not allow now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PhaseError {
    /// A second arrangement for a side, or arrangements once playing.
    SetupDone,
    /// Cho before Han (hanFirst).
    HanFirst,
    /// Han's arrangement a second time.
    HanChosen,
    /// A move, a look or an undo before the arrangements.
    NotStarted,
    /// The undo allowance is used up.
    NoUndosLeft,
    /// Undo with too few moves.
    NothingToTakeBack,
    /// Draw offers are switched off.
    DrawOffersOff,
    /// Saving a game that has not started.
    GameNotStarted,
    /// A second analysis while one runs.
    AnalysisRunning,
    /// Analysis of a game without moves.
    NothingToAnalyse,
    /// Opening a game of a record file before any file was loaded.
    NoRecordLoaded,
    /// An answer when nothing was asked.
    NothingAsked,
    /// A second draw offer or undo while one waits for its answer.
    AlreadyAsked,
}

impl fmt::Display for PhaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PhaseError::SetupDone => "the arrangements are already chosen",
            PhaseError::HanFirst => {
                "Han chooses first (hanFirst): Han's arrangement is not chosen yet"
            }
            PhaseError::HanChosen => "Han's arrangement is already chosen",
            PhaseError::NotStarted => "choose the arrangements first",
            PhaseError::NoUndosLeft => "no undos left",
            PhaseError::NothingToTakeBack => "nothing to take back",
            PhaseError::DrawOffersOff => "draw offers are off",
            PhaseError::GameNotStarted => "the game has not started",
            PhaseError::AnalysisRunning => "an analysis is already running",
            PhaseError::NothingToAnalyse => "there are no moves to analyse",
            PhaseError::NoRecordLoaded => "no record file is loaded",
            PhaseError::NothingAsked => "nothing is waiting for an answer",
            PhaseError::AlreadyAsked => "a draw offer or undo already waits for its answer",
        })
    }
}

/// A request the game cannot accept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The move or pass is refused by the rules.
    Refused(Refusal),
    /// The request does not fit the game's phase.
    Phase(PhaseError),
    /// A ply past the record (`plies` played).
    NoSuchPly {
        /// Plies in the record.
        plies: usize,
    },
    /// The record does not replay (a move of it no longer parses).
    RecordDoesNotReplay(MoveParseError),
    /// A loaded record's move the referee refuses.
    RecordMove {
        /// Its number (from 1).
        number: usize,
        /// Its UCI text.
        uci: String,
        /// Why.
        why: Box<GameError>,
    },
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::Refused(r) => write!(f, "refused: {}", r.en()),
            GameError::Phase(p) => write!(f, "{p}"),
            GameError::NoSuchPly { plies } => write!(f, "`ply` must be 0 … {plies}"),
            GameError::RecordDoesNotReplay(e) => write!(f, "the record does not replay: {e}"),
            GameError::RecordMove { number, uci, why } => {
                write!(f, "move {number} ({uci}) cannot be played: {why}")
            }
        }
    }
}

impl std::error::Error for GameError {}

impl From<PhaseError> for GameError {
    fn from(p: PhaseError) -> Self {
        GameError::Phase(p)
    }
}

impl From<Refusal> for GameError {
    fn from(r: Refusal) -> Self {
        GameError::Refused(r)
    }
}
