//! Time controls and the runner's own clocks.
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
//! Byoyomi follows the spec (§8.5): the deadline of a move is the main
//! time left plus all periods left. A move that overruns the main time by
//! at most one period costs nothing more (the period restarts); each further
//! started period is used up; overrunning every period loses on time.

use super::engine_process::EngineProtocol;
use janggi_core::types::Color;
use std::fmt;

/// Default overrun tolerated with a fixed time per move (`st`) and no clock.
pub const ST_MARGIN_MS: u64 = 50;
/// Default wait for a move when no clock limits it (fixed depth or nodes).
pub const DEFAULT_TIMEOUT_MS: u64 = 60_000;
/// Default wait for a reply to `stop` after a deadline passed.
pub const DEFAULT_STOP_WAIT_MS: u64 = 1_000;

/// A bad time-control value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClockError(pub String);

impl fmt::Display for ClockError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ClockError {}

/// Byoyomi periods (초읽기).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Byoyomi {
    /// Length of one period in ms.
    pub period_ms: u64,
    /// Number of periods.
    pub periods: u32,
}

/// A clock-based time control (`tc=` and `byoyomi=`): what a
/// [`GameClock`] starts from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct ClockSettings {
    /// Moves per session (`40/…`); `None` for sudden death.
    pub moves: Option<u32>,
    /// Time per session (main time) in ms.
    pub base_ms: u64,
    /// Increment per move in ms.
    pub inc_ms: u64,
    /// Byoyomi after the main time.
    pub byoyomi: Option<Byoyomi>,
}

fn bad(what: &str, text: &str) -> ClockError {
    ClockError(format!("bad {what} '{text}'"))
}

/// Seconds (`0.1`, `60`) or `m:ss` / `h:mm:ss` to milliseconds.
fn parse_seconds(text: &str, what: &str) -> Result<u64, ClockError> {
    let mut total = 0.0f64;
    for part in text.split(':') {
        let v: f64 = part.trim().parse().map_err(|_| bad(what, text))?;
        if !v.is_finite() || v < 0.0 {
            return Err(bad(what, text));
        }
        total = total * 60.0 + v;
    }
    if total > 1e9 {
        return Err(bad(what, text));
    }
    Ok((total * 1000.0).round() as u64)
}

impl ClockSettings {
    /// Parses `40/60+0.6`, `10+0.1`, `1:30`, `600`.
    ///
    /// # Errors
    /// [`ClockError`] naming the text.
    pub fn parse(text: &str) -> Result<ClockSettings, ClockError> {
        let (moves, rest) = match text.split_once('/') {
            Some((m, r)) => {
                let m: u32 = m.parse().map_err(|_| bad("moves per session", text))?;
                if m == 0 {
                    return Err(bad("moves per session", text));
                }
                (Some(m), r)
            }
            None => (None, text),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (b, Some(i)),
            None => (rest, None),
        };
        let base_ms = parse_seconds(base, "time control")?;
        let inc_ms = inc.map_or(Ok(0), |i| parse_seconds(i, "increment"))?;
        Ok(ClockSettings {
            moves,
            base_ms,
            inc_ms,
            byoyomi: None,
        })
    }
}

impl Byoyomi {
    /// Parses `30000x3` (ms × periods) or `30000` (one period).
    ///
    /// # Errors
    /// [`ClockError`] naming the text.
    pub fn parse(text: &str) -> Result<Byoyomi, ClockError> {
        let (ms, n) = match text.split_once(['x', 'X', '*']) {
            Some((a, b)) => (a, b),
            None => (text, "1"),
        };
        let period_ms: u64 = ms.trim().parse().map_err(|_| bad("byoyomi", text))?;
        let periods: u32 = n.trim().parse().map_err(|_| bad("byoyomi periods", text))?;
        if period_ms == 0 || periods == 0 {
            return Err(bad("byoyomi", text));
        }
        Ok(Byoyomi { period_ms, periods })
    }
}

impl fmt::Display for ClockSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(m) = self.moves {
            write!(f, "{m}/")?;
        }
        write!(f, "{}", self.base_ms as f64 / 1000.0)?;
        if self.inc_ms > 0 {
            write!(f, "+{}", self.inc_ms as f64 / 1000.0)?;
        }
        if let Some(b) = self.byoyomi {
            write!(f, " byoyomi={}x{}", b.period_ms, b.periods)?;
        }
        Ok(())
    }
}

/// Everything that limits one engine's thinking, as given on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThinkingLimits {
    /// Clock settings (sudden death, sessions, byoyomi).
    pub tc: Option<ClockSettings>,
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

fn parse_u64(key: &str, value: &str) -> Result<u64, ClockError> {
    value.trim().parse().map_err(|_| bad(key, value))
}

impl ThinkingLimits {
    /// Applies one `key=value` pair; `Ok(false)` if `key` is not a limit key.
    ///
    /// # Errors
    /// [`ClockError`] for a bad value.
    pub fn set(&mut self, key: &str, value: &str) -> Result<bool, ClockError> {
        match key {
            "tc" => {
                let byo = self.tc.and_then(|t| t.byoyomi);
                let mut tc = ClockSettings::parse(value)?;
                tc.byoyomi = byo;
                self.tc = Some(tc);
            }
            "byoyomi" => {
                let b = Byoyomi::parse(value)?;
                let mut tc = self.tc.unwrap_or_default();
                tc.byoyomi = Some(b);
                self.tc = Some(tc);
            }
            "st" => self.movetime_ms = Some(parse_seconds(value, "st")?),
            "depth" => {
                self.depth = Some(value.trim().parse().map_err(|_| bad("depth", value))?);
            }
            "nodes" => self.nodes = Some(parse_u64("nodes", value)?),
            "timemargin" => self.margin_ms = Some(parse_u64("timemargin", value)?),
            "timeout" => self.timeout_ms = parse_u64("timeout", value)?,
            "stopwait" => self.stop_wait_ms = parse_u64("stopwait", value)?,
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

/// An engine ran out of time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeForfeit {
    /// Time the move took (ms).
    pub used_ms: u64,
    /// Time it had (ms, without the margin).
    pub allowed_ms: u64,
}

/// One side's clock during a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameClock {
    tc: ClockSettings,
    main_ms: u64,
    periods_left: u32,
    moves_made: u32,
}

impl GameClock {
    /// A full clock.
    pub fn new(tc: ClockSettings) -> GameClock {
        GameClock {
            tc,
            main_ms: tc.base_ms,
            periods_left: tc.byoyomi.map_or(0, |b| b.periods),
            moves_made: 0,
        }
    }

    /// The time control.
    pub fn time_control(&self) -> ClockSettings {
        self.tc
    }

    /// Main time left (ms).
    pub fn main_ms(&self) -> u64 {
        self.main_ms
    }

    /// Byoyomi periods left.
    pub fn periods_left(&self) -> u32 {
        self.periods_left
    }

    /// Moves to the end of the session (`movestogo`), for `40/…` controls.
    pub fn moves_to_go(&self) -> Option<u32> {
        self.tc.moves.map(|m| m - self.moves_made % m)
    }

    /// The time this move may take before the engine loses on time (ms,
    /// without the margin): main time plus every period left.
    pub fn allowed_ms(&self) -> u64 {
        let period = self.tc.byoyomi.map_or(0, |b| b.period_ms);
        self.main_ms + u64::from(self.periods_left) * period
    }

    /// Charges a move that took `used_ms`: forfeits if it exceeds
    /// [`GameClock::allowed_ms`] by more than `margin_ms`, else updates the
    /// main time, the periods and the increment.
    ///
    /// # Errors
    /// [`TimeForfeit`]; the clock is then unchanged.
    pub fn charge(&mut self, used_ms: u64, margin_ms: u64) -> Result<(), TimeForfeit> {
        let allowed = self.allowed_ms();
        if used_ms > allowed.saturating_add(margin_ms) {
            return Err(TimeForfeit {
                used_ms,
                allowed_ms: allowed,
            });
        }
        match self.tc.byoyomi {
            Some(b) if used_ms > self.main_ms => {
                let over = used_ms - self.main_ms;
                self.main_ms = 0;
                // Within one period: the period restarts. Each further
                // started period is used up (at least one always stays,
                // since an overrun within the margin is forgiven).
                let started = over.div_ceil(b.period_ms);
                let lost = u32::try_from(started.saturating_sub(1)).unwrap_or(u32::MAX);
                self.periods_left = self.periods_left.saturating_sub(lost).max(1);
            }
            _ => self.main_ms = self.main_ms.saturating_sub(used_ms),
        }
        self.main_ms += self.tc.inc_ms;
        self.moves_made += 1;
        if let Some(m) = self.tc.moves {
            if self.moves_made.is_multiple_of(m) {
                self.main_ms += self.tc.base_ms;
            }
        }
        Ok(())
    }
}

/// The `go` command for the side to move, whose engine has `limits`;
/// `clocks` are both sides' clocks (Cho, Han) where they have one.
pub fn go_command(
    protocol: EngineProtocol,
    limits: &ThinkingLimits,
    side: Color,
    clocks: [Option<&GameClock>; 2],
) -> String {
    let mut go = String::from("go");
    let own = clocks[side.index()];
    if let Some(clock) = own {
        // UCI: wtime is Cho's ("white") clock; USI: btime is the first
        // player's (Cho's) clock, as in shogi, where Black (sente) moves first.
        let (cho_key, han_key, cho_inc, han_inc) = match protocol {
            EngineProtocol::Uci => ("wtime", "btime", "winc", "binc"),
            EngineProtocol::Usi => ("btime", "wtime", "binc", "winc"),
        };
        let time = |c: Color| clocks[c.index()].map_or(clock.main_ms(), |k| k.main_ms());
        let inc = |c: Color| clocks[c.index()].map_or(0, |k| k.time_control().inc_ms);
        go.push_str(&format!(
            " {cho_key} {} {han_key} {}",
            time(Color::Cho),
            time(Color::Han)
        ));
        if inc(Color::Cho) > 0 || inc(Color::Han) > 0 {
            go.push_str(&format!(
                " {cho_inc} {} {han_inc} {}",
                inc(Color::Cho),
                inc(Color::Han)
            ));
        }
        if let Some(mtg) = clock.moves_to_go() {
            go.push_str(&format!(" movestogo {mtg}"));
        }
        if let Some(b) = clock.time_control().byoyomi {
            go.push_str(&format!(" byoyomi {}", b.period_ms));
            if b.periods > 1 {
                // An extension (not in UCI or USI; this engine reads it):
                // the periods left.
                go.push_str(&format!(" periods {}", clock.periods_left()));
            }
        }
    }
    if let Some(st) = limits.movetime_ms {
        go.push_str(&format!(" movetime {st}"));
    }
    if let Some(d) = limits.depth {
        go.push_str(&format!(" depth {d}"));
    }
    if let Some(n) = limits.nodes {
        go.push_str(&format!(" nodes {n}"));
    }
    go
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_time_controls() {
        let tc = ClockSettings::parse("40/60+0.6").unwrap();
        assert_eq!((tc.moves, tc.base_ms, tc.inc_ms), (Some(40), 60_000, 600));
        let tc = ClockSettings::parse("10+0.1").unwrap();
        assert_eq!((tc.moves, tc.base_ms, tc.inc_ms), (None, 10_000, 100));
        let tc = ClockSettings::parse("1:30").unwrap();
        assert_eq!(tc.base_ms, 90_000);
        assert!(ClockSettings::parse("abc").is_err());
        assert!(ClockSettings::parse("0/10").is_err());
        assert!(ClockSettings::parse("10+").is_err());
        assert!(ClockSettings::parse("-5").is_err());
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
        assert!(l.set("depth", "x").is_err());
    }

    #[test]
    fn fischer_and_sessions() {
        let mut c = GameClock::new(ClockSettings::parse("2/1+0.5").unwrap());
        assert_eq!(c.moves_to_go(), Some(2));
        c.charge(400, 0).unwrap(); // 1000 - 400 + 500
        assert_eq!(c.main_ms(), 1100);
        assert_eq!(c.moves_to_go(), Some(1));
        c.charge(100, 0).unwrap(); // 1100 - 100 + 500 + 1000 (new session)
        assert_eq!(c.main_ms(), 2500);
        assert_eq!(c.moves_to_go(), Some(2));
        let before = c;
        assert_eq!(
            c.charge(2600, 0),
            Err(TimeForfeit {
                used_ms: 2600,
                allowed_ms: 2500
            })
        );
        assert_eq!(c, before);
        // Within the margin: survives with nothing left but the increment.
        c.charge(2550, 100).unwrap();
        assert_eq!(c.main_ms(), 500);
    }

    /// The byoyomi test: an engine that always uses 90 % of its
    /// period never forfeits; one that uses 110 % does (with 1 period at
    /// once; with 3 periods after eating them one by one).
    #[test]
    fn byoyomi_ninety_and_hundred_ten_percent() {
        let tc = ClockSettings {
            moves: None,
            base_ms: 2_000,
            inc_ms: 0,
            byoyomi: Some(Byoyomi {
                period_ms: 1_000,
                periods: 3,
            }),
        };
        let mut c = GameClock::new(tc);
        for _ in 0..1000 {
            // 90 % of the period each move: the main time runs out, then
            // every move fits inside one period.
            c.charge(900, 0).expect("90 % of a period never forfeits");
        }
        assert_eq!((c.main_ms(), c.periods_left()), (0, 3));
        let mut c = GameClock::new(tc);
        let mut forfeit_at = None;
        for i in 0..100 {
            if c.charge(1_100, 0).is_err() {
                forfeit_at = Some(i);
                break;
            }
        }
        // Main time 2000: moves 0 (900 left) and 1 (over by 200: fits in
        // a period) survive; then each 1100 ms move eats one period: move 2
        // leaves 2, move 3 leaves 1, move 4 overruns the last period.
        assert_eq!(forfeit_at, Some(4));
        let one = ClockSettings {
            byoyomi: Some(Byoyomi {
                period_ms: 1_000,
                periods: 1,
            }),
            ..ClockSettings::default()
        };
        let mut c = GameClock::new(one);
        assert!(c.charge(900, 0).is_ok());
        assert!(c.charge(1_100, 0).is_err());
        // One long move may use several periods at once.
        let mut c = GameClock::new(tc);
        c.charge(2_000 + 2_500, 0).unwrap(); // 3 periods started → 2 lost
        assert_eq!(c.periods_left(), 1);
    }

    #[test]
    fn go_commands() {
        let mut l = ThinkingLimits::default();
        l.set("tc", "10+0.1").unwrap();
        let a = GameClock::new(l.tc.unwrap());
        let mut b = a;
        b.charge(1000, 0).unwrap();
        let go = go_command(EngineProtocol::Uci, &l, Color::Han, [Some(&a), Some(&b)]);
        assert_eq!(go, "go wtime 10000 btime 9100 winc 100 binc 100");
        let go = go_command(EngineProtocol::Usi, &l, Color::Han, [Some(&a), Some(&b)]);
        assert_eq!(go, "go btime 10000 wtime 9100 binc 100 winc 100");
        let mut l = ThinkingLimits::default();
        l.set("tc", "0").unwrap();
        l.set("byoyomi", "500x3").unwrap();
        let c = GameClock::new(l.tc.unwrap());
        let go = go_command(EngineProtocol::Uci, &l, Color::Cho, [Some(&c), Some(&c)]);
        assert_eq!(go, "go wtime 0 btime 0 byoyomi 500 periods 3");
        let mut l = ThinkingLimits::default();
        l.set("nodes", "1000").unwrap();
        l.set("st", "0.25").unwrap();
        assert_eq!(
            go_command(EngineProtocol::Uci, &l, Color::Cho, [None, None]),
            "go movetime 250 nodes 1000"
        );
    }
}
