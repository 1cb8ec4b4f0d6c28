//! What limits an engine's thinking in a match, as the command line gives
//! it; the clocks themselves are janggi-uci's [`Clock`].
//!
//! Syntax (cutechess-cli's, plus byoyomi):
//!
//! | key | meaning |
//! |---|---|
//! | `tc=40/60+0.6` | 40 moves in 60 s, then again; 0.6 s increment per move |
//! | `tc=10+0.1`, `tc=1:30+1`, `tc=600` | sudden death (base in s or m:ss) with optional increment |
//! | `st=0.1` | fixed time per move in seconds (`go movetime 100`) |
//! | `depth=8`, `nodes=20000` | fixed depth / nodes (may be combined with a clock) |
//! | `byoyomi=30000x3` | byoyomi (초읽기): 3 periods of 30 000 ms after the main time (`tc`) |
//! | `timemargin=MS` | overrun allowed beyond the clock before a forfeit (default 0 with a clock, [`ST_MARGIN_MS`] with `st` alone) |
//! | `timeout=MS` | how long to wait for a move when no clock limits it (default 60 000) |
//! | `stopwait=MS` | after the deadline: how long to wait for the engine to answer `stop` (default 1 000) |
//!
//! The runner measures wall time from sending `go` to reading `bestmove`
//! and subtracts nothing: the move overhead is the engine's own business.
//! The same `timemargin` applies to every engine unless set per engine.
//! With `st` alone the default is [`ST_MARGIN_MS`]: `go movetime N` asks
//! for N ms of thinking, and engines (Stockfish's family included) stop at
//! N ms, not before it, so the reply is always a little later than N.
//!
//! Byoyomi follows the spec (§8.5), charged by [`Clock`] (the web board
//! charges the same one): the deadline of a move is the main time left
//! plus all periods left. A move that overruns the main time by at most
//! one period costs nothing more (the period restarts); each further
//! started period is used up; overrunning every period loses on time.

use super::engine_process::EngineProtocol;
use janggi_core::Color;
use janggi_uci::{parse_seconds, Byoyomi, Clock, Go, TimeControl, TimeControlError};

/// Default overrun tolerated with a fixed time per move (`st`) and no clock.
pub const ST_MARGIN_MS: u64 = 50;
/// Default wait for a move when no clock limits it (fixed depth or nodes).
pub const DEFAULT_TIMEOUT_MS: u64 = 60_000;
/// Default wait for a reply to `stop` after a deadline passed.
pub const DEFAULT_STOP_WAIT_MS: u64 = 1_000;

/// Everything that limits one engine's thinking, as given on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThinkingLimits {
    /// Clock settings (sudden death, sessions, byoyomi).
    pub tc: Option<TimeControl>,
    /// Fixed time per move in ms (`st`).
    pub movetime_ms: Option<u64>,
    /// Fixed depth.
    pub depth: Option<u32>,
    /// Fixed nodes.
    pub nodes: Option<u64>,
    /// Overrun tolerated beyond the clock (ms), if given (see [`ThinkingLimits::margin`]).
    pub margin_ms: Option<u64>,
    /// Wait for a move when no clock limits it (ms).
    pub timeout_ms: u64,
    /// Wait for the answer to `stop` after a deadline (ms).
    pub stop_wait_ms: u64,
}

impl Default for ThinkingLimits {
    fn default() -> ThinkingLimits {
        ThinkingLimits {
            tc: None,
            movetime_ms: None,
            depth: None,
            nodes: None,
            margin_ms: None,
            timeout_ms: DEFAULT_TIMEOUT_MS,
            stop_wait_ms: DEFAULT_STOP_WAIT_MS,
        }
    }
}

fn parse_number<T: std::str::FromStr>(
    key: &'static str,
    value: &str,
) -> Result<T, TimeControlError> {
    value.trim().parse().map_err(|_| TimeControlError {
        what: key,
        text: value.to_string(),
    })
}

impl ThinkingLimits {
    /// Applies one `key=value` pair; `Ok(false)` if `key` is not a limit key.
    ///
    /// # Errors
    /// [`TimeControlError`] for a bad value.
    pub fn set(&mut self, key: &str, value: &str) -> Result<bool, TimeControlError> {
        match key {
            "tc" => {
                let byo = self.tc.and_then(|t| t.byoyomi);
                let mut tc: TimeControl = value.parse()?;
                tc.byoyomi = byo;
                self.tc = Some(tc);
            }
            "byoyomi" => {
                let b: Byoyomi = value.parse()?;
                let mut tc = self.tc.unwrap_or_default();
                tc.byoyomi = Some(b);
                self.tc = Some(tc);
            }
            "st" => self.movetime_ms = Some(parse_seconds(value, "st")?),
            "depth" => self.depth = Some(parse_number("depth", value)?),
            "nodes" => self.nodes = Some(parse_number("nodes", value)?),
            "timemargin" => self.margin_ms = Some(parse_number("timemargin", value)?),
            "timeout" => self.timeout_ms = parse_number("timeout", value)?,
            "stopwait" => self.stop_wait_ms = parse_number("stopwait", value)?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The overrun tolerated (ms): `timemargin` if given, else
    /// [`ST_MARGIN_MS`] for `st` without a clock, else 0.
    pub fn margin(&self) -> u64 {
        let st_only = self.tc.is_none() && self.movetime_ms.is_some();
        self.margin_ms
            .unwrap_or(if st_only { ST_MARGIN_MS } else { 0 })
    }

    /// Whether anything limits the search at all.
    pub fn is_limited(&self) -> bool {
        self.tc.is_some()
            || self.movetime_ms.is_some()
            || self.depth.is_some()
            || self.nodes.is_some()
    }

    /// Short description (`tc=10+0.1`, `st=0.1`, `nodes=1000` …).
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(tc) = self.tc {
            parts.push(format!("tc={tc}"));
        }
        if let Some(st) = self.movetime_ms {
            parts.push(format!("st={}", st as f64 / 1000.0));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth={d}"));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("nodes={n}"));
        }
        parts.join(" ")
    }
}

/// The clocks of a game: each side on its engine's time control, or on
/// none (an engine limited by `st`, `depth` or `nodes` alone).
pub fn game_clock(limits: [&ThinkingLimits; 2]) -> Clock {
    Clock::per_side(limits.map(|l| l.tc))
}

/// The `go` for the side to move, whose engine has `limits` and speaks
/// `protocol`: the clock's part ([`Clock::go`]: both times, the
/// increments, `movestogo`, byoyomi and periods) and then `movetime`,
/// `depth` and `nodes`.
pub fn go_command(
    protocol: EngineProtocol,
    limits: &ThinkingLimits,
    side: Color,
    clock: &Clock,
) -> Go {
    let mut go = clock.go(side, protocol);
    go.movetime = limits.movetime_ms;
    go.depth = limits.depth;
    go.nodes = limits.nodes;
    go
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_limits() {
        let mut l = ThinkingLimits::default();
        assert!(l.set("tc", "600").unwrap());
        assert!(l.set("byoyomi", "30000x3").unwrap());
        let tc = l.tc.unwrap();
        assert_eq!(tc.base_ms, 600_000);
        assert_eq!(
            tc.byoyomi,
            Some(Byoyomi {
                period_ms: 30_000,
                periods: 3
            })
        );
        // byoyomi first, tc second keeps both.
        let mut l = ThinkingLimits::default();
        l.set("byoyomi", "1000").unwrap();
        l.set("tc", "5").unwrap();
        assert_eq!(l.tc.unwrap().byoyomi.unwrap().periods, 1);
        assert!(l.set("st", "0.1").unwrap());
        assert_eq!(l.movetime_ms, Some(100));
        assert_eq!(l.margin(), 0, "a clock is set: no default margin");
        let mut st = ThinkingLimits::default();
        st.set("st", "0.1").unwrap();
        assert_eq!(st.margin(), ST_MARGIN_MS);
        st.set("timemargin", "0").unwrap();
        assert_eq!(st.margin(), 0);
        assert!(!l.set("name", "x").unwrap());
        assert!(l.set("byoyomi", "0x3").is_err());
        assert_eq!(
            l.set("depth", "x"),
            Err(TimeControlError {
                what: "depth",
                text: "x".into()
            })
        );
        assert!(l.set("tc", "10+").is_err());
        assert_eq!(l.describe(), "tc=5 byoyomi=1000x1 st=0.1");
    }

    #[test]
    fn go_commands() {
        let mut l = ThinkingLimits::default();
        l.set("tc", "10+0.1").unwrap();
        let mut clock = game_clock([&l, &l]);
        clock.charge(Color::Han, 1000).unwrap();
        let go = go_command(EngineProtocol::Uci, &l, Color::Han, &clock);
        assert_eq!(
            go.to_string(),
            "go wtime 10000 btime 9100 winc 100 binc 100"
        );
        // USI: btime is the first mover's (Cho's) clock.
        let go = go_command(EngineProtocol::Usi, &l, Color::Han, &clock);
        assert_eq!((go.btime, go.wtime), (Some(10_000), Some(9_100)));
        assert_eq!(
            go.to_string(),
            "go wtime 9100 btime 10000 winc 100 binc 100"
        );
        let mut l = ThinkingLimits::default();
        l.set("tc", "0").unwrap();
        l.set("byoyomi", "500x3").unwrap();
        let clock = game_clock([&l, &l]);
        let go = go_command(EngineProtocol::Uci, &l, Color::Cho, &clock);
        assert_eq!(go.to_string(), "go wtime 0 btime 0 byoyomi 500 periods 3");
        let mut l = ThinkingLimits::default();
        l.set("nodes", "1000").unwrap();
        l.set("st", "0.25").unwrap();
        let none = game_clock([&l, &l]);
        assert_eq!(
            go_command(EngineProtocol::Uci, &l, Color::Cho, &none).to_string(),
            "go movetime 250 nodes 1000"
        );
        // One engine on a clock, the other on nodes: each gets its own go.
        let mut timed = ThinkingLimits::default();
        timed.set("tc", "5").unwrap();
        let mixed = game_clock([&timed, &l]);
        assert_eq!(
            go_command(EngineProtocol::Uci, &timed, Color::Cho, &mixed).to_string(),
            "go wtime 5000 btime 5000"
        );
        assert_eq!(
            go_command(EngineProtocol::Uci, &l, Color::Han, &mixed).to_string(),
            "go movetime 250 nodes 1000"
        );
    }
}
