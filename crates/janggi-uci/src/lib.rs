//! # janggi-uci — one vocabulary for the UCI wire, one clock
//!
//! The lines an engine and its clients (the match runner, the web board,
//! the analysis) exchange, as typed values: each has `Display`, which
//! writes the canonical line, and `FromStr`, which reads it back without
//! ever panicking ([`ParseError`] names what was wrong).
//!
//! | line | type |
//! |---|---|
//! | `go wtime … btime … byoyomi … periods …` | [`Go`] |
//! | `info depth … score cp … pv …` | [`Info`] (its score: [`Score`], [`Bound`]) |
//! | `bestmove … ponder …` | [`BestMove`] ([`Answer`]: a move, `resign`, `(none)`) |
//! | `option name … type …` | [`OptionDecl`] ([`OptionKind`]) |
//! | `setoption name … value …` | [`SetOption`] |
//!
//! An engine reads `go` from GUIs with [`Go::read_lenient`] instead
//! ([`LenientGo`]): negative times as 0, keywords in any case, UCCI's
//! clock words ([`UcciClock`]), `perft N`, and unknown words kept aside
//! rather than refused.
//!
//! [`Dialect`] is UCI or USI: the handshake words and which `go` key
//! carries the first mover's (Cho's) time. [`Clock`] is the one clock
//! with byoyomi (§8.5 of the rules spec) that every front end charges;
//! it also writes the clock part of the `go` for the side to move.
//!
//! ```
//! use janggi_uci::{Clock, Dialect, Go, Info, Score, TimeControl};
//! use janggi_core::Color;
//!
//! let info: Info = "info depth 7 score cp -35 nodes 100 pv a1a2".parse().unwrap();
//! assert_eq!(info.score, Some(Score::Cp(-35)));
//! assert_eq!(info.to_string(), "info depth 7 score cp -35 nodes 100 pv a1a2");
//!
//! let tc: TimeControl = "10+0.1".parse().unwrap();
//! let mut clock = Clock::new(tc);
//! clock.charge(Color::Cho, 1_000).unwrap();
//! let go: Go = clock.go(Color::Han, Dialect::Uci);
//! assert_eq!(go.to_string(), "go wtime 9100 btime 10000 winc 100 binc 100");
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod bestmove;
mod clock;
mod dialect;
mod error;
mod go;
mod info;
mod lenient_go;
mod option;
mod score;
mod time_control;
mod words;

pub use bestmove::{Answer, BestMove};
pub use clock::{Charged, Clock, Flagged, SideClock};
pub use dialect::Dialect;
pub use error::ParseError;
pub use go::Go;
pub use info::Info;
pub use lenient_go::{LenientGo, UcciClock};
pub use option::{OptionDecl, OptionKind, SetOption};
pub use score::{Bound, Pawns, Score, MATE_CP};
pub use time_control::{parse_seconds, Byoyomi, TimeControl, TimeControlError};
