//! The `go` command.
//!
//! ```text
//! go [ponder] [wtime MS btime MS] [winc MS binc MS] [movestogo N]
//!    [byoyomi MS [periods N]] [movetime MS] [depth N] [nodes N]
//!    [mate N] [infinite] [searchmoves MOVE…]
//! ```
//!
//! `byoyomi MS` is the period of the side to move (USI's keyword);
//! `periods N` is this project's extension: how many periods the side to
//! move has left (the engines assume one when it is missing). Which of
//! `wtime`/`btime` is Cho's depends on the [`Dialect`]: see
//! [`Go::time`].

use crate::dialect::Dialect;
use crate::error::ParseError;
use crate::words::Words;
use janggi_core::Color;
use std::fmt;
use std::str::FromStr;

/// A `go` command, every field as the line has it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Go {
    /// `ponder`: think on the opponent's time.
    pub ponder: bool,
    /// `wtime`: the clock time of "white" (ms). Cho's in UCI, Han's in USI.
    pub wtime: Option<u64>,
    /// `btime`: the clock time of "black" (ms). Han's in UCI, Cho's in USI.
    pub btime: Option<u64>,
    /// `winc` (ms).
    pub winc: Option<u64>,
    /// `binc` (ms).
    pub binc: Option<u64>,
    /// `movestogo`: moves to the next time control.
    pub movestogo: Option<u32>,
    /// `byoyomi`: the byoyomi period (ms).
    pub byoyomi: Option<u64>,
    /// `periods`: byoyomi periods the side to move has left (extension).
    pub periods: Option<u32>,
    /// `movetime`: think exactly this long (ms).
    pub movetime: Option<u64>,
    /// `depth`.
    pub depth: Option<u32>,
    /// `nodes`.
    pub nodes: Option<u64>,
    /// `mate`: search for a mate in this many moves.
    pub mate: Option<u32>,
    /// `infinite`: until `stop`.
    pub infinite: bool,
    /// `searchmoves`: only these moves (as the line writes them).
    pub searchmoves: Vec<String>,
}

/// The keywords of `go` (a `searchmoves` list stops at any of them).
const KEYWORDS: [&str; 14] = [
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "byoyomi",
    "periods",
    "movetime",
    "depth",
    "nodes",
    "mate",
    "infinite",
    "searchmoves",
];

impl Go {
    /// `go movetime MS`.
    pub fn movetime(ms: u64) -> Go {
        Go {
            movetime: Some(ms),
            ..Go::default()
        }
    }

    /// `go depth N`.
    pub fn depth(depth: u32) -> Go {
        Go {
            depth: Some(depth),
            ..Go::default()
        }
    }

    /// `go nodes N`.
    pub fn nodes(nodes: u64) -> Go {
        Go {
            nodes: Some(nodes),
            ..Go::default()
        }
    }

    /// `side`'s clock time in `dialect` (`wtime` or `btime`).
    pub fn time(&self, dialect: Dialect, side: Color) -> Option<u64> {
        if dialect.is_white(side) {
            self.wtime
        } else {
            self.btime
        }
    }

    /// `side`'s increment in `dialect` (`winc` or `binc`).
    pub fn inc(&self, dialect: Dialect, side: Color) -> Option<u64> {
        if dialect.is_white(side) {
            self.winc
        } else {
            self.binc
        }
    }

    /// Sets `side`'s clock time in `dialect`.
    pub fn set_time(&mut self, dialect: Dialect, side: Color, ms: u64) {
        if dialect.is_white(side) {
            self.wtime = Some(ms);
        } else {
            self.btime = Some(ms);
        }
    }

    /// Sets `side`'s increment in `dialect`.
    pub fn set_inc(&mut self, dialect: Dialect, side: Color, ms: u64) {
        if dialect.is_white(side) {
            self.winc = Some(ms);
        } else {
            self.binc = Some(ms);
        }
    }
}

impl fmt::Display for Go {
    /// The canonical line: keywords in the order of the module's syntax.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("go")?;
        if self.ponder {
            f.write_str(" ponder")?;
        }
        let numbers: [(&str, Option<u64>); 11] = [
            ("wtime", self.wtime),
            ("btime", self.btime),
            ("winc", self.winc),
            ("binc", self.binc),
            ("movestogo", self.movestogo.map(u64::from)),
            ("byoyomi", self.byoyomi),
            ("periods", self.periods.map(u64::from)),
            ("movetime", self.movetime),
            ("depth", self.depth.map(u64::from)),
            ("nodes", self.nodes),
            ("mate", self.mate.map(u64::from)),
        ];
        for (key, value) in numbers {
            if let Some(v) = value {
                write!(f, " {key} {v}")?;
            }
        }
        if self.infinite {
            f.write_str(" infinite")?;
        }
        if !self.searchmoves.is_empty() {
            write!(f, " searchmoves {}", self.searchmoves.join(" "))?;
        }
        Ok(())
    }
}

impl FromStr for Go {
    type Err = ParseError;

    /// Reads a `go` line, keywords in any order (a repeated one: the last
    /// counts).
    ///
    /// # Errors
    /// [`ParseError`]: not a `go` line, an unknown word, a keyword without
    /// its number or with a bad one.
    fn from_str(line: &str) -> Result<Go, ParseError> {
        let mut w = Words::new(line);
        w.expect("go")?;
        let mut go = Go::default();
        while let Some(word) = w.next() {
            match word {
                "ponder" => go.ponder = true,
                "infinite" => go.infinite = true,
                "wtime" => go.wtime = Some(w.number("wtime")?),
                "btime" => go.btime = Some(w.number("btime")?),
                "winc" => go.winc = Some(w.number("winc")?),
                "binc" => go.binc = Some(w.number("binc")?),
                "movestogo" => go.movestogo = Some(w.number("movestogo")?),
                "byoyomi" => go.byoyomi = Some(w.number("byoyomi")?),
                "periods" => go.periods = Some(w.number("periods")?),
                "movetime" => go.movetime = Some(w.number("movetime")?),
                "depth" => go.depth = Some(w.number("depth")?),
                "nodes" => go.nodes = Some(w.number("nodes")?),
                "mate" => go.mate = Some(w.number("mate")?),
                "searchmoves" => {
                    let moves = w.until(|t| KEYWORDS.contains(&t));
                    go.searchmoves = moves.split_whitespace().map(str::to_string).collect();
                }
                other => return Err(ParseError::UnknownToken(other.to_string())),
            }
        }
        Ok(go)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_lines_round_trip() {
        for line in [
            "go",
            "go wtime 10000 btime 9100 winc 100 binc 100",
            "go wtime 0 btime 0 byoyomi 500 periods 3",
            "go movetime 250 nodes 1000",
            "go ponder wtime 60000 btime 60000 movestogo 40",
            "go depth 8 mate 3 infinite searchmoves a1a2 b1c3",
            "go infinite",
        ] {
            let go: Go = line.parse().unwrap();
            assert_eq!(go.to_string(), line);
        }
    }

    #[test]
    fn any_order_parses_to_the_same_value() {
        let a: Go = "go searchmoves h1h2 e2e3 btime 5 wtime 6 periods 2 byoyomi 30000"
            .parse()
            .unwrap();
        assert_eq!(a.wtime, Some(6));
        assert_eq!(a.btime, Some(5));
        assert_eq!(a.searchmoves, vec!["h1h2", "e2e3"]);
        assert_eq!(
            a.to_string(),
            "go wtime 6 btime 5 byoyomi 30000 periods 2 searchmoves h1h2 e2e3"
        );
    }

    #[test]
    fn errors_are_typed() {
        assert_eq!(
            "go wtime".parse::<Go>(),
            Err(ParseError::MissingValue("wtime"))
        );
        assert_eq!(
            "go depth -1".parse::<Go>(),
            Err(ParseError::BadNumber {
                field: "depth",
                text: "-1".into()
            })
        );
        assert_eq!(
            "go fast".parse::<Go>(),
            Err(ParseError::UnknownToken("fast".into()))
        );
        assert_eq!(
            "stop".parse::<Go>(),
            Err(ParseError::NotThisCommand { expected: "go" })
        );
        assert_eq!(
            "".parse::<Go>(),
            Err(ParseError::NotThisCommand { expected: "go" })
        );
    }

    #[test]
    fn the_first_movers_time_follows_the_dialect() {
        let mut go = Go::default();
        go.set_time(Dialect::Usi, Color::Cho, 10_000);
        go.set_time(Dialect::Usi, Color::Han, 9_100);
        go.set_inc(Dialect::Usi, Color::Cho, 100);
        assert_eq!(go.btime, Some(10_000));
        assert_eq!(go.wtime, Some(9_100));
        assert_eq!(go.binc, Some(100));
        assert_eq!(go.time(Dialect::Usi, Color::Cho), Some(10_000));
        assert_eq!(go.time(Dialect::Uci, Color::Cho), Some(9_100));
        assert_eq!(go.inc(Dialect::Usi, Color::Cho), Some(100));
        assert_eq!(go.inc(Dialect::Uci, Color::Cho), None);
        assert_eq!(Go::movetime(300).to_string(), "go movetime 300");
        assert_eq!(Go::depth(8).to_string(), "go depth 8");
        assert_eq!(Go::nodes(100).to_string(), "go nodes 100");
    }
}
