//! Move text: UCI (`b1c3`, `a7a10`) and USI (`8j7h`) coordinates. A pass is
//! written as the mover's general square twice (`e2e2`); on input `0000`,
//! `pass` and `@@@@` are also a pass.

use super::position::Position;
use crate::types::{Move, Square};
use std::fmt;

/// Square notation of a protocol dialect.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Notation {
    /// `a1` … `i10` (UCI, Fairy-Stockfish).
    #[default]
    Uci,
    /// `9j` … `1a` (USI).
    Usi,
}

/// Move text that is not a move at all (syntax).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveParseError(pub String);

impl fmt::Display for MoveParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}' is not move text", self.0)
    }
}

impl std::error::Error for MoveParseError {}

fn split_squares(text: &str, notation: Notation) -> Option<(Square, Square)> {
    let parse = |s: &str| match notation {
        Notation::Uci => Square::parse_uci(s),
        Notation::Usi => Square::parse_usi(s),
    };
    // Squares are 2 or 3 characters; try every split point.
    (2..=3)
        .filter(|&k| k < text.len() && text.is_char_boundary(k))
        .find_map(|k| Some((parse(&text[..k])?, parse(&text[k..])?)))
}

impl Position {
    /// Parses move text in `notation`. The result is a syntactically valid
    /// move; whether it is legal is a separate question.
    ///
    /// # Errors
    /// [`MoveParseError`] when the text names no squares, or names the same
    /// square twice other than the side to move's general square (a pass).
    pub fn parse_move(&self, text: &str, notation: Notation) -> Result<Move, MoveParseError> {
        let err = || MoveParseError(text.to_string());
        if matches!(text, "0000" | "pass" | "@@@@") {
            return Ok(Move::PASS);
        }
        let (from, to) = split_squares(text, notation).ok_or_else(err)?;
        if from == to {
            return if from == self.pass_square() {
                Ok(Move::PASS)
            } else {
                Err(err())
            };
        }
        Move::new(from, to).ok_or_else(err)
    }

    /// The move's text in `notation` (a pass is the general's square twice).
    pub fn move_text(&self, mv: Move, notation: Notation) -> String {
        let (from, to) = if mv.is_pass() {
            (self.pass_square(), self.pass_square())
        } else {
            (mv.from(), mv.to())
        };
        match notation {
            Notation::Uci => format!("{}{}", from.uci().as_str(), to.uci().as_str()),
            Notation::Usi => format!("{}{}", from.usi().as_str(), to.usi().as_str()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_write() {
        let p = Position::startpos();
        for (t, n) in [
            ("b1c3", Notation::Uci),
            ("a4a5", Notation::Uci),
            ("a1a10", Notation::Uci),
            ("a10a1", Notation::Uci),
        ] {
            let m = p.parse_move(t, n).unwrap();
            assert_eq!(p.move_text(m, n), t);
        }
        assert_eq!(p.parse_move("e2e2", Notation::Uci), Ok(Move::PASS));
        assert_eq!(p.parse_move("0000", Notation::Uci), Ok(Move::PASS));
        assert_eq!(p.move_text(Move::PASS, Notation::Uci), "e2e2");
        assert_eq!(p.move_text(Move::PASS, Notation::Usi), "5i5i");
        assert!(p.parse_move("e3e3", Notation::Uci).is_err());
        assert!(p.parse_move("z9z9", Notation::Uci).is_err());
        assert!(p.parse_move("", Notation::Uci).is_err());
        assert!(p.parse_move("e2", Notation::Uci).is_err());
        let m = p.parse_move("8j7h", Notation::Usi).unwrap();
        assert_eq!(p.move_text(m, Notation::Uci), "b1c3");
        assert_eq!(
            p.parse_move("09j09a", Notation::Usi).unwrap(),
            p.parse_move("a1a10", Notation::Uci).unwrap()
        );
    }
}
