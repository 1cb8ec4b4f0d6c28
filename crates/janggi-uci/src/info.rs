//! The `info` line.
//!
//! ```text
//! info [depth N] [seldepth N] [multipv N] [score (cp|mate) N [lowerbound|upperbound]]
//!      [wdl W D L] [nodes N] [nps N] [hashfull N] [tbhits N] [time MS]
//!      [currmove MOVE] [currmovenumber N] [pv MOVE…] [string TEXT…]
//! ```
//!
//! Engines send more than this (Fairy-Stockfish, Stockfish's family):
//! a word this crate does not know is skipped, so such a line still
//! parses, but a known keyword must carry a good value, or the line is an
//! error. `pv` runs up to `string` or the end of the line; `string` runs
//! to the end of the line.

use crate::error::ParseError;
use crate::score::{Bound, Score};
use crate::words::Words;
use std::fmt;
use std::str::FromStr;

/// One `info` line. Fields the line does not have are `None` (or empty).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Info {
    /// `depth`.
    pub depth: Option<u32>,
    /// `seldepth`.
    pub seldepth: Option<u32>,
    /// `multipv` (1 = the best line; `None` when the engine sent none,
    /// which means the best line too).
    pub multipv: Option<u32>,
    /// `score cp N` / `score mate N`, from the engine's (side to move's)
    /// point of view.
    pub score: Option<Score>,
    /// `lowerbound` / `upperbound` after the score.
    pub bound: Option<Bound>,
    /// `wdl W D L` in permille (`UCI_ShowWDL`), side to move's view.
    pub wdl: Option<[u32; 3]>,
    /// `nodes`.
    pub nodes: Option<u64>,
    /// `nps`.
    pub nps: Option<u64>,
    /// `hashfull` (permille).
    pub hashfull: Option<u32>,
    /// `tbhits`.
    pub tbhits: Option<u64>,
    /// `time` in milliseconds.
    pub time_ms: Option<u64>,
    /// `currmove`: the move being searched.
    pub currmove: Option<String>,
    /// `currmovenumber`.
    pub currmovenumber: Option<u32>,
    /// `pv`: the moves as the engine wrote them.
    pub pv: Vec<String>,
    /// `string`: the free text that ends the line.
    pub string: Option<String>,
}

impl Info {
    /// Whether this line is about the best line: `multipv 1` or no
    /// `multipv` at all. With `MultiPV` > 1 (Fairy-Stockfish at a low
    /// Skill Level, or set by hand) the other lines are worse moves, not
    /// the engine's view of the position.
    pub fn is_main_line(&self) -> bool {
        self.multipv.is_none_or(|m| m <= 1)
    }
}

impl fmt::Display for Info {
    /// The canonical line: fields in the order of the module's syntax.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("info")?;
        let put = |f: &mut fmt::Formatter<'_>, key: &str, v: Option<u64>| match v {
            Some(v) => write!(f, " {key} {v}"),
            None => Ok(()),
        };
        put(f, "depth", self.depth.map(u64::from))?;
        put(f, "seldepth", self.seldepth.map(u64::from))?;
        put(f, "multipv", self.multipv.map(u64::from))?;
        if let Some(s) = self.score {
            write!(f, " score {s}")?;
            if let Some(b) = self.bound {
                write!(f, " {b}")?;
            }
        }
        if let Some([w, d, l]) = self.wdl {
            write!(f, " wdl {w} {d} {l}")?;
        }
        put(f, "nodes", self.nodes)?;
        put(f, "nps", self.nps)?;
        put(f, "hashfull", self.hashfull.map(u64::from))?;
        put(f, "tbhits", self.tbhits)?;
        put(f, "time", self.time_ms)?;
        if let Some(m) = &self.currmove {
            write!(f, " currmove {m}")?;
        }
        put(f, "currmovenumber", self.currmovenumber.map(u64::from))?;
        if !self.pv.is_empty() {
            write!(f, " pv {}", self.pv.join(" "))?;
        }
        if let Some(s) = &self.string {
            f.write_str(" string")?;
            if !s.is_empty() {
                write!(f, " {s}")?;
            }
        }
        Ok(())
    }
}

impl FromStr for Info {
    type Err = ParseError;

    /// Reads an `info` line (see the module's syntax); unknown words are
    /// skipped.
    ///
    /// # Errors
    /// [`ParseError`]: not an `info` line, or a known keyword without its
    /// value or with a bad one.
    fn from_str(line: &str) -> Result<Info, ParseError> {
        let mut w = Words::new(line);
        w.expect("info")?;
        let mut info = Info::default();
        while let Some(word) = w.next() {
            match word {
                "depth" => info.depth = Some(w.number("depth")?),
                "seldepth" => info.seldepth = Some(w.number("seldepth")?),
                "multipv" => info.multipv = Some(w.number("multipv")?),
                "nodes" => info.nodes = Some(w.number("nodes")?),
                "nps" => info.nps = Some(w.number("nps")?),
                "hashfull" => info.hashfull = Some(w.number("hashfull")?),
                "tbhits" => info.tbhits = Some(w.number("tbhits")?),
                "time" => info.time_ms = Some(w.number("time")?),
                "currmove" => info.currmove = Some(w.value("currmove")?.to_string()),
                "currmovenumber" => info.currmovenumber = Some(w.number("currmovenumber")?),
                "score" => {
                    info.score = Some(Score::read(&mut w)?);
                    info.bound = w.peek().and_then(Bound::from_word);
                    if info.bound.is_some() {
                        w.next();
                    }
                }
                "wdl" => info.wdl = Some([w.number("wdl")?, w.number("wdl")?, w.number("wdl")?]),
                "pv" => {
                    let moves = w.until(|t| t == "string");
                    info.pv = moves.split_whitespace().map(str::to_string).collect();
                }
                "string" => {
                    info.string = Some(w.rest().to_string());
                }
                // Fields of other engines (`refutation`, `currline`, `cpuload`, …).
                _ => {}
            }
        }
        Ok(info)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_line() {
        let line = "info depth 12 seldepth 17 multipv 1 score cp 31 wdl 412 350 238 nodes 123456 nps 98765 hashfull 3 time 1250 pv h1h2 a7a6 b1c3";
        let i: Info = line.parse().unwrap();
        assert_eq!(
            i,
            Info {
                depth: Some(12),
                seldepth: Some(17),
                multipv: Some(1),
                score: Some(Score::Cp(31)),
                wdl: Some([412, 350, 238]),
                nodes: Some(123_456),
                nps: Some(98_765),
                hashfull: Some(3),
                time_ms: Some(1250),
                pv: vec!["h1h2".into(), "a7a6".into(), "b1c3".into()],
                ..Info::default()
            }
        );
        assert_eq!(i.to_string(), line);
    }

    #[test]
    fn canonical_lines_round_trip() {
        for line in [
            "info",
            "info depth 5 score mate -3 lowerbound nodes 10",
            "info depth 5 score cp 20 upperbound",
            "info currmove e2e3 currmovenumber 4",
            "info tbhits 0 time 3",
            "info string hello  there",
            "info string",
            "info depth 2 pv a1a2 string why not",
        ] {
            let i: Info = line.parse().unwrap();
            assert_eq!(i.to_string(), line);
        }
    }

    #[test]
    fn other_engines_fields_are_skipped() {
        let i: Info = "info depth 3 seldepth 4 multipv 2 score cp -12 nodes 900 nps 90000 tbhits 0 cpuload 12 refutation a1a2 time 10 pv b1c3"
            .parse()
            .unwrap();
        assert_eq!((i.depth, i.multipv), (Some(3), Some(2)));
        assert_eq!(i.score, Some(Score::Cp(-12)));
        assert_eq!(i.time_ms, Some(10));
        assert_eq!(i.pv, vec!["b1c3"]);
        assert!(!i.is_main_line());
        assert!(Info::default().is_main_line());
    }

    #[test]
    fn a_known_field_must_be_good() {
        assert_eq!(
            "info score cp x depth".parse::<Info>(),
            Err(ParseError::BadNumber {
                field: "cp",
                text: "x".into()
            })
        );
        assert_eq!(
            "info wdl 1 2".parse::<Info>(),
            Err(ParseError::MissingValue("wdl"))
        );
        assert_eq!(
            "info depth".parse::<Info>(),
            Err(ParseError::MissingValue("depth"))
        );
        assert_eq!(
            "bestmove a1a2".parse::<Info>(),
            Err(ParseError::NotThisCommand { expected: "info" })
        );
        assert_eq!(
            "information".parse::<Info>(),
            Err(ParseError::NotThisCommand { expected: "info" })
        );
    }
}
