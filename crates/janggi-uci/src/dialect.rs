//! UCI or USI: the two dialects this project's engines and clients speak.

use crate::error::ParseError;
use janggi_core::{Color, Notation};
use std::fmt;
use std::str::FromStr;

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Dialect {
    /// UCI (Fairy-Stockfish's dialect for Janggi): squares `a1`–`i10`;
    /// `wtime` is Cho's ("white", the first mover) time.
    #[default]
    Uci,
    /// USI: squares `9j`–`1a`, `usinewgame`, `bestmove resign`; `btime`
    /// is Cho's time, as in shogi, where Black (sente) moves first.
    Usi,
}

impl Dialect {
    /// Move notation of the dialect.
    pub const fn notation(self) -> Notation {
        match self {
            Dialect::Uci => Notation::Uci,
            Dialect::Usi => Notation::Usi,
        }
    }

    /// The first line a client sends (`uci` / `usi`).
    pub const fn hello(self) -> &'static str {
        match self {
            Dialect::Uci => "uci",
            Dialect::Usi => "usi",
        }
    }

    /// The engine's answer that ends the handshake (`uciok` / `usiok`).
    pub const fn hello_ok(self) -> &'static str {
        match self {
            Dialect::Uci => "uciok",
            Dialect::Usi => "usiok",
        }
    }

    /// `ucinewgame` / `usinewgame`.
    pub const fn new_game(self) -> &'static str {
        match self {
            Dialect::Uci => "ucinewgame",
            Dialect::Usi => "usinewgame",
        }
    }

    /// Whether `side`'s time goes in the `w` keys (`wtime`, `winc`):
    /// Cho's in UCI, Han's in USI.
    pub const fn is_white(self, side: Color) -> bool {
        matches!(
            (self, side),
            (Dialect::Uci, Color::Cho) | (Dialect::Usi, Color::Han)
        )
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.hello())
    }
}

impl FromStr for Dialect {
    type Err = ParseError;

    /// `uci` / `usi`, in any case.
    fn from_str(s: &str) -> Result<Dialect, ParseError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "uci" => Ok(Dialect::Uci),
            "usi" => Ok(Dialect::Usi),
            _ => Err(ParseError::BadValue {
                field: "protocol",
                text: s.to_string(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dialects() {
        assert_eq!("USI".parse(), Ok(Dialect::Usi));
        assert_eq!("uci".parse(), Ok(Dialect::Uci));
        assert!("ucci".parse::<Dialect>().is_err());
        for d in [Dialect::Uci, Dialect::Usi] {
            assert_eq!(d.to_string().parse(), Ok(d));
            assert_ne!(d.is_white(Color::Cho), d.is_white(Color::Han));
        }
        assert!(Dialect::Uci.is_white(Color::Cho));
        assert!(Dialect::Usi.is_white(Color::Han));
        assert_eq!(Dialect::Usi.new_game(), "usinewgame");
        assert_eq!(Dialect::Uci.hello_ok(), "uciok");
    }
}
