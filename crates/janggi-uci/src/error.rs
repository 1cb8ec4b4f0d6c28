//! What can be wrong with a line.

use std::fmt;

/// Why a line is not the command it was read as. Every parser of this
/// crate returns it; none panics.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// The line does not start with the command's keyword (`go`, `info`, …).
    NotThisCommand {
        /// The keyword it should start with.
        expected: &'static str,
    },
    /// A word the command does not have.
    UnknownToken(String),
    /// A keyword with nothing after it.
    MissingValue(&'static str),
    /// A keyword whose value is not a number in its range.
    BadNumber {
        /// The keyword.
        field: &'static str,
        /// What stood there.
        text: String,
    },
    /// A keyword whose value is not one of the words it may be.
    BadValue {
        /// The keyword.
        field: &'static str,
        /// What stood there.
        text: String,
    },
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::NotThisCommand { expected } => {
                write!(f, "not a `{expected}` line")
            }
            ParseError::UnknownToken(t) => write!(f, "unknown word `{t}`"),
            ParseError::MissingValue(k) => write!(f, "`{k}` has no value"),
            ParseError::BadNumber { field, text } => {
                write!(f, "`{field}` needs a number, not `{text}`")
            }
            ParseError::BadValue { field, text } => write!(f, "bad `{field}` value `{text}`"),
        }
    }
}

impl std::error::Error for ParseError {}
