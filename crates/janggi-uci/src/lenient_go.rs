//! Reading `go` as GUIs send it: [`Go::read_lenient`].
//!
//! See [`LenientGo`] for what it accepts beyond the canonical line.

use crate::dialect::Dialect;
use crate::error::ParseError;
use crate::go::Go;
use crate::words::Words;
use janggi_core::Color;
use std::str::FromStr;

/// UCCI's clock words: the side to move's and the opponent's time, where
/// UCI and USI say "white" and "black".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct UcciClock {
    /// `time MS`: the side to move's clock.
    pub time: Option<u64>,
    /// `increment MS`: the side to move's increment.
    pub increment: Option<u64>,
    /// `opptime MS`: the opponent's clock.
    pub opptime: Option<u64>,
    /// `oppincrement MS`: the opponent's increment.
    pub oppincrement: Option<u64>,
}

/// A `go` line as [`Go::read_lenient`] read it: the [`Go`], the words
/// that are no part of `Go` but that engines accept, and the words
/// nobody knows.
///
/// [`Go`]'s `FromStr` reads the canonical line and refuses anything else.
/// An engine cannot be that strict: a GUI whose flag fell sends
/// `wtime -50`, a UCCI GUI sends its own clock words, and a word the
/// engine does not know must not cost the GUI its `bestmove`. The lenient
/// reader is the engine's side of the wire:
///
/// | input | reading |
/// |---|---|
/// | keywords in any case (`GO WTIME 5`) | as the lower-case keyword; move texts after `searchmoves` are kept as written |
/// | a negative time (`wtime`, `btime`, `winc`, `binc`, `byoyomi`, `movetime`, and UCCI's times) | 0 |
/// | UCCI `time MS`, `increment MS` | the side to move's clock and increment ([`UcciClock`]) |
/// | UCCI `opptime MS`, `oppincrement MS` | the opponent's, kept apart ([`UcciClock`]) |
/// | `perft N` (Stockfish's extension) | [`LenientGo::perft`] |
/// | any other word | kept in [`LenientGo::unknown`] (one word each, nothing after it is taken as its value) |
///
/// What stays an error ([`ParseError`]): a line that is not `go`, a
/// keyword without its value, a value that is no number (`depth banana`),
/// and a negative count (`depth`, `nodes`, `mate`, `movestogo`,
/// `periods`, `perft`), since a count has no "ran out" reading.
///
/// Every canonical line ([`Go`]'s `Display`) reads back as the same
/// [`Go`] with nothing beside it.
///
/// ```
/// use janggi_uci::{Dialect, Go, LenientGo};
/// use janggi_core::Color;
///
/// let g = Go::read_lenient("GO wtime -50 btime 3000 frobnicate depth 9").unwrap();
/// assert_eq!(g.go.wtime, Some(0));
/// assert_eq!(g.go.depth, Some(9));
/// assert_eq!(g.unknown, vec!["frobnicate".to_string()]);
///
/// let ucci = Go::read_lenient("go time 60000 increment 500 opptime 1000").unwrap();
/// assert_eq!(ucci.own_time(Dialect::Uci, Color::Han), Some(60_000));
/// assert_eq!(ucci.own_inc(Dialect::Uci, Color::Han), Some(500));
///
/// let line = "go wtime 1000 btime 900 byoyomi 500 periods 2";
/// assert_eq!(Go::read_lenient(line).unwrap(), LenientGo::from(line.parse::<Go>().unwrap()));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct LenientGo {
    /// Every UCI/USI field of the line.
    pub go: Go,
    /// UCCI's clock words.
    pub ucci: UcciClock,
    /// `perft N`: count the leaf nodes to depth N instead of searching.
    pub perft: Option<u32>,
    /// Words that are no `go` keyword, in order, as written (a caller
    /// reports them and searches anyway).
    pub unknown: Vec<String>,
}

impl From<Go> for LenientGo {
    /// A [`Go`] with nothing beside it.
    fn from(go: Go) -> LenientGo {
        LenientGo {
            go,
            ..LenientGo::default()
        }
    }
}

/// How a keyword's value is read.
#[derive(Clone, Copy)]
enum Slot {
    Ponder,
    Infinite,
    SearchMoves,
    /// A time in ms: a negative one reads as 0.
    Time(fn(&mut LenientGo) -> &mut Option<u64>),
    /// A count: a negative one is an error.
    Count(fn(&mut LenientGo) -> &mut Option<u32>),
    /// A node count.
    Nodes,
}

/// Every keyword the lenient reader knows (a `searchmoves` list stops at
/// any of them, in any case).
const KEYWORDS: [(&str, Slot); 19] = [
    ("ponder", Slot::Ponder),
    ("infinite", Slot::Infinite),
    ("searchmoves", Slot::SearchMoves),
    ("wtime", Slot::Time(|g| &mut g.go.wtime)),
    ("btime", Slot::Time(|g| &mut g.go.btime)),
    ("winc", Slot::Time(|g| &mut g.go.winc)),
    ("binc", Slot::Time(|g| &mut g.go.binc)),
    ("byoyomi", Slot::Time(|g| &mut g.go.byoyomi)),
    ("movetime", Slot::Time(|g| &mut g.go.movetime)),
    ("time", Slot::Time(|g| &mut g.ucci.time)),
    ("increment", Slot::Time(|g| &mut g.ucci.increment)),
    ("opptime", Slot::Time(|g| &mut g.ucci.opptime)),
    ("oppincrement", Slot::Time(|g| &mut g.ucci.oppincrement)),
    ("movestogo", Slot::Count(|g| &mut g.go.movestogo)),
    ("periods", Slot::Count(|g| &mut g.go.periods)),
    ("depth", Slot::Count(|g| &mut g.go.depth)),
    ("mate", Slot::Count(|g| &mut g.go.mate)),
    ("perft", Slot::Count(|g| &mut g.perft)),
    ("nodes", Slot::Nodes),
];

/// The keyword `word` is (in any case), with its canonical spelling.
fn keyword(word: &str) -> Option<(&'static str, Slot)> {
    KEYWORDS
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(word))
        .copied()
}

/// A time in ms: a number, or a negative number read as 0 (a clock that
/// ran out).
fn time(w: &mut Words<'_>, field: &'static str) -> Result<u64, ParseError> {
    let text = w.value(field)?;
    let negative = text
        .strip_prefix('-')
        .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()));
    if negative {
        return Ok(0);
    }
    text.parse().map_err(|_| ParseError::BadNumber {
        field,
        text: text.to_string(),
    })
}

impl Go {
    /// Reads a `go` line as an engine must take it from a GUI: see
    /// [`LenientGo`] for what is accepted beyond the canonical line. Keywords may come in any order; a repeated one: the
    /// last counts.
    ///
    /// # Errors
    /// [`ParseError::NotThisCommand`] when the line is no `go` line;
    /// [`ParseError::MissingValue`] for a keyword at the end of the line;
    /// [`ParseError::BadNumber`] for a value that is no number (or a
    /// negative count).
    pub fn read_lenient(line: &str) -> Result<LenientGo, ParseError> {
        let mut w = Words::new(line);
        match w.next() {
            Some(first) if first.eq_ignore_ascii_case("go") => {}
            _ => return Err(ParseError::NotThisCommand { expected: "go" }),
        }
        let mut g = LenientGo::default();
        while let Some(word) = w.next() {
            let Some((field, slot)) = keyword(word) else {
                g.unknown.push(word.to_string());
                continue;
            };
            match slot {
                Slot::Ponder => g.go.ponder = true,
                Slot::Infinite => g.go.infinite = true,
                Slot::SearchMoves => {
                    let moves = w.until(|t| keyword(t).is_some());
                    g.go.searchmoves = moves.split_whitespace().map(str::to_string).collect();
                }
                Slot::Time(place) => *place(&mut g) = Some(time(&mut w, field)?),
                Slot::Count(place) => *place(&mut g) = Some(w.number(field)?),
                Slot::Nodes => g.go.nodes = Some(w.number(field)?),
            }
        }
        Ok(g)
    }

    /// Whether the line gives any clock: a time, an increment, `byoyomi`
    /// or `movestogo`.
    pub fn has_clock(&self) -> bool {
        self.wtime.is_some()
            || self.btime.is_some()
            || self.winc.is_some()
            || self.binc.is_some()
            || self.byoyomi.is_some()
            || self.movestogo.is_some()
    }
}

impl LenientGo {
    /// Whether the line gives any clock ([`Go::has_clock`], or UCCI's
    /// `time`/`increment`; the opponent's clock alone is none).
    pub fn has_clock(&self) -> bool {
        self.go.has_clock() || self.ucci.time.is_some() || self.ucci.increment.is_some()
    }

    /// The clock time of `side`, the side to move: UCCI's `time` if given,
    /// else its `wtime`/`btime` in `dialect` ([`Go::time`]).
    pub fn own_time(&self, dialect: Dialect, side: Color) -> Option<u64> {
        self.ucci.time.or(self.go.time(dialect, side))
    }

    /// The increment of `side`, the side to move: UCCI's `increment` if
    /// given, else its `winc`/`binc` in `dialect` ([`Go::inc`]).
    pub fn own_inc(&self, dialect: Dialect, side: Color) -> Option<u64> {
        self.ucci.increment.or(self.go.inc(dialect, side))
    }
}

impl FromStr for LenientGo {
    type Err = ParseError;

    /// [`Go::read_lenient`].
    fn from_str(line: &str) -> Result<LenientGo, ParseError> {
        Go::read_lenient(line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(line: &str) -> LenientGo {
        Go::read_lenient(line).unwrap_or_else(|e| panic!("{line}: {e}"))
    }

    #[test]
    fn negative_times_read_as_zero() {
        let g = read("go wtime -50 btime -1 winc -0 binc 20 byoyomi -3 movetime -7");
        assert_eq!(
            (g.go.wtime, g.go.btime, g.go.winc, g.go.binc),
            (Some(0), Some(0), Some(0), Some(20))
        );
        assert_eq!((g.go.byoyomi, g.go.movetime), (Some(0), Some(0)));
        // Even beyond any integer type: the clock ran out.
        assert_eq!(read("go wtime -99999999999999999999999").go.wtime, Some(0));
        let g = read("go time -5 increment -1 opptime -2 oppincrement -3");
        assert_eq!(
            g.ucci,
            UcciClock {
                time: Some(0),
                increment: Some(0),
                opptime: Some(0),
                oppincrement: Some(0)
            }
        );
        assert!(g.unknown.is_empty());
    }

    #[test]
    fn negative_counts_and_bad_numbers_are_errors() {
        for (line, field, text) in [
            ("go depth -1", "depth", "-1"),
            ("go nodes -3", "nodes", "-3"),
            ("go movestogo -2", "movestogo", "-2"),
            ("go perft -1", "perft", "-1"),
            ("go depth banana", "depth", "banana"),
            ("go wtime -", "wtime", "-"),
            ("go wtime -5x", "wtime", "-5x"),
            ("go wtime 1e3", "wtime", "1e3"),
        ] {
            assert_eq!(
                Go::read_lenient(line),
                Err(ParseError::BadNumber {
                    field,
                    text: text.into()
                }),
                "{line}"
            );
        }
        assert_eq!(
            Go::read_lenient("go WTIME"),
            Err(ParseError::MissingValue("wtime"))
        );
        assert_eq!(
            Go::read_lenient("stop"),
            Err(ParseError::NotThisCommand { expected: "go" })
        );
        assert_eq!(
            Go::read_lenient("  "),
            Err(ParseError::NotThisCommand { expected: "go" })
        );
    }

    #[test]
    fn unknown_words_are_kept_and_the_rest_is_read() {
        let g = read("go foo 5 depth 4 Bar");
        assert_eq!(g.unknown, vec!["foo", "5", "Bar"]);
        assert_eq!(g.go, Go::depth(4));
    }

    #[test]
    fn keywords_in_any_case() {
        let g = read("GO Ponder WTime 10 BTIME 20 Depth 3 SearchMoves B1C3 h1G3 INFINITE perft 2");
        assert!(g.go.ponder && g.go.infinite);
        assert_eq!(
            (g.go.wtime, g.go.btime, g.go.depth),
            (Some(10), Some(20), Some(3))
        );
        // Move texts are kept as written; the list ends at a keyword in
        // any case.
        assert_eq!(g.go.searchmoves, vec!["B1C3", "h1G3"]);
        assert_eq!(g.perft, Some(2));
    }

    #[test]
    fn the_side_to_moves_clock() {
        let g = read("go wtime 1000 btime 2000 winc 10 binc 20");
        assert_eq!(g.own_time(Dialect::Uci, Color::Cho), Some(1000));
        assert_eq!(g.own_time(Dialect::Usi, Color::Cho), Some(2000));
        assert_eq!(g.own_inc(Dialect::Uci, Color::Han), Some(20));
        assert!(g.has_clock());
        let g = read("go time 500 wtime 1000 opptime 9");
        assert_eq!(g.own_time(Dialect::Uci, Color::Cho), Some(500));
        assert_eq!(g.own_inc(Dialect::Uci, Color::Cho), None);
        assert!(!read("go opptime 9 oppincrement 1").has_clock());
        assert!(read("go increment 1").has_clock());
        assert!(read("go movestogo 3").has_clock());
        assert!(!read("go periods 3 depth 2 infinite").has_clock());
    }
}
