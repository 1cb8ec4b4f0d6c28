//! The `bestmove` line: `bestmove MOVE [ponder MOVE]`.
//!
//! Besides a move, an engine may answer `bestmove resign` (USI) or
//! `bestmove (none)` (UCI, no legal move). `0000` is UCI's null move and
//! stays move text: janggi-core reads it as a pass.

use crate::error::ParseError;
use crate::words::Words;
use std::fmt;
use std::str::FromStr;

/// What an engine answered after `bestmove`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Answer {
    /// A move, as the engine wrote it (`b1c3`, `8j7h`, `0000`, …).
    Move(String),
    /// `resign`.
    Resign,
    /// `(none)`: the engine sees no legal move.
    NoMove,
}

impl Answer {
    /// The answer a word stands for: `resign`, `(none)`, else a move.
    pub fn from_word(word: &str) -> Answer {
        match word {
            "resign" => Answer::Resign,
            "(none)" => Answer::NoMove,
            mv => Answer::Move(mv.to_string()),
        }
    }

    /// The move text, if the answer is a move.
    pub fn as_move(&self) -> Option<&str> {
        match self {
            Answer::Move(m) => Some(m),
            _ => None,
        }
    }
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Answer::Move(m) => m,
            Answer::Resign => "resign",
            Answer::NoMove => "(none)",
        })
    }
}

/// A `bestmove` line.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BestMove {
    /// The answer.
    pub mv: Answer,
    /// `ponder`: the reply the engine expects, as it wrote it.
    pub ponder: Option<String>,
}

impl BestMove {
    /// `bestmove MOVE`.
    pub fn new(mv: impl Into<String>) -> BestMove {
        BestMove {
            mv: Answer::from_word(&mv.into()),
            ponder: None,
        }
    }
}

impl fmt::Display for BestMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bestmove {}", self.mv)?;
        if let Some(p) = &self.ponder {
            write!(f, " ponder {p}")?;
        }
        Ok(())
    }
}

impl FromStr for BestMove {
    type Err = ParseError;

    /// Reads `bestmove MOVE [ponder MOVE]`.
    ///
    /// # Errors
    /// [`ParseError`]: not a `bestmove` line, no move, `ponder` without a
    /// move, or anything else after them.
    fn from_str(line: &str) -> Result<BestMove, ParseError> {
        let mut w = Words::new(line);
        w.expect("bestmove")?;
        let mv = Answer::from_word(w.value("bestmove")?);
        let ponder = match w.next() {
            None => None,
            Some("ponder") => Some(w.value("ponder")?.to_string()),
            Some(other) => return Err(ParseError::UnknownToken(other.to_string())),
        };
        match w.next() {
            None => Ok(BestMove { mv, ponder }),
            Some(other) => Err(ParseError::UnknownToken(other.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_round_trip() {
        for (line, mv) in [
            ("bestmove c1c2 ponder a7a6", Answer::Move("c1c2".into())),
            ("bestmove 8j7h", Answer::Move("8j7h".into())),
            ("bestmove 0000", Answer::Move("0000".into())),
            ("bestmove resign", Answer::Resign),
            ("bestmove (none)", Answer::NoMove),
        ] {
            let b: BestMove = line.parse().unwrap();
            assert_eq!(b.mv, mv);
            assert_eq!(b.to_string(), line);
        }
        assert_eq!(BestMove::new("resign").mv, Answer::Resign);
        assert_eq!(Answer::Move("a1a2".into()).as_move(), Some("a1a2"));
        assert_eq!(Answer::NoMove.as_move(), None);
    }

    #[test]
    fn errors_are_typed() {
        assert_eq!(
            "bestmove".parse::<BestMove>(),
            Err(ParseError::MissingValue("bestmove"))
        );
        assert_eq!(
            "bestmove a1a2 ponder".parse::<BestMove>(),
            Err(ParseError::MissingValue("ponder"))
        );
        assert_eq!(
            "bestmove a1a2 b1b2".parse::<BestMove>(),
            Err(ParseError::UnknownToken("b1b2".into()))
        );
        assert_eq!(
            "bestmove a1a2 ponder b1b2 x".parse::<BestMove>(),
            Err(ParseError::UnknownToken("x".into()))
        );
        assert_eq!(
            "bestmoves a1a2".parse::<BestMove>(),
            Err(ParseError::NotThisCommand {
                expected: "bestmove"
            })
        );
    }
}
