//! The protocol's error type: everything one input line can get wrong.

use super::command::CommandError;
use super::options::OptionError;
use crate::engine::EngineBusy;
use janggi_core::{FenError, IllegalMove, MoveParseError};
use std::fmt;

/// Why a move of a `position … moves` list was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not move text in the dialect's notation.
    Syntax(MoveParseError),
    /// Move text, but not legal in the game at that point.
    Illegal(IllegalMove),
}

/// Everything that can go wrong with one input line.
#[derive(Clone, Debug, PartialEq)]
pub enum ProtocolError {
    /// The line does not parse.
    Command(CommandError),
    /// `position fen` with a bad FEN (the previous position is kept).
    Fen {
        /// The FEN as given (shortened).
        fen: String,
        /// Why.
        error: FenError,
    },
    /// A bad move in a move list (the valid prefix is kept).
    Move {
        /// 1-based index in the list.
        index: usize,
        /// The move text.
        text: String,
        /// Why.
        error: MoveError,
        /// Whether this came from re-playing the moves under new rules.
        replay: bool,
    },
    /// `setoption` failed.
    Option(OptionError),
    /// The engine is busy with a search that waits for `stop`.
    Busy {
        /// The refused command.
        command: &'static str,
        /// Engine's reason.
        error: EngineBusy,
    },
    /// An input line longer than [`MAX_LINE`](super::MAX_LINE).
    LineTooLong(usize),
}

impl fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProtocolError::Command(e) => write!(f, "{e}"),
            ProtocolError::Fen { fen, error } => {
                write!(
                    f,
                    "position: bad FEN '{fen}': {error}; the previous position is kept"
                )
            }
            ProtocolError::Move {
                index,
                text,
                error,
                replay,
            } => {
                let why = match error {
                    MoveError::Syntax(_) => "is not move text".to_string(),
                    MoveError::Illegal(IllegalMove::GameOver) => {
                        "cannot be played: the game is over".to_string()
                    }
                    MoveError::Illegal(IllegalMove::NotLegal(why)) => format!("is illegal ({why})"),
                };
                let cmd = if *replay { "rules changed" } else { "position" };
                let kept = index.saturating_sub(1);
                write!(
                    f,
                    "{cmd}: move {index} '{text}' {why}; kept the first {kept} moves"
                )
            }
            ProtocolError::Option(e) => write!(f, "{e}"),
            ProtocolError::Busy { command, error } => write!(f, "{command} ignored: {error}"),
            ProtocolError::LineTooLong(n) => write!(f, "input line longer than {n} bytes ignored"),
        }
    }
}

impl std::error::Error for ProtocolError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ProtocolError::Command(e) => Some(e),
            ProtocolError::Fen { error, .. } => Some(error),
            ProtocolError::Option(e) => Some(e),
            ProtocolError::Busy { error, .. } => Some(error),
            _ => None,
        }
    }
}

impl From<CommandError> for ProtocolError {
    fn from(e: CommandError) -> Self {
        ProtocolError::Command(e)
    }
}

impl From<OptionError> for ProtocolError {
    fn from(e: OptionError) -> Self {
        ProtocolError::Option(e)
    }
}

impl From<janggi_core::RuleError> for ProtocolError {
    fn from(e: janggi_core::RuleError) -> Self {
        ProtocolError::Option(OptionError::Rule(e))
    }
}

pub(crate) fn busy(command: &'static str) -> impl Fn(EngineBusy) -> ProtocolError {
    move |error| ProtocolError::Busy { command, error }
}
