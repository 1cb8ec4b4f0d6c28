//! Time controls as text: `40/60+0.6`, `10+0.1`, `1:30`, byoyomi `30000x3`.
//!
//! | text | meaning |
//! |---|---|
//! | `40/60+0.6` | 40 moves in 60 s, then again; 0.6 s increment per move |
//! | `10+0.1`, `1:30+1`, `600` | sudden death (base in s or m:ss) with optional increment |
//! | `30000x3` ([`Byoyomi`]) | 3 byoyomi periods (초읽기) of 30 000 ms after the main time |

use std::fmt;
use std::str::FromStr;

/// A time control or byoyomi text that does not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimeControlError {
    /// What was being read (`time control`, `increment`, `byoyomi`, …).
    pub what: &'static str,
    /// The text.
    pub text: String,
}

impl fmt::Display for TimeControlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad {} '{}'", self.what, self.text)
    }
}

impl std::error::Error for TimeControlError {}

fn bad(what: &'static str, text: &str) -> TimeControlError {
    TimeControlError {
        what,
        text: text.to_string(),
    }
}

/// The longest time a text may give, in seconds (about 31 years): beyond
/// it milliseconds would lose precision in an `f64`.
const MAX_SECONDS: f64 = 1e9;

/// Seconds (`0.1`, `60`) or `m:ss` / `h:mm:ss` to milliseconds.
///
/// # Errors
/// [`TimeControlError`] naming `what` and the text.
pub fn parse_seconds(text: &str, what: &'static str) -> Result<u64, TimeControlError> {
    let mut total = 0.0f64;
    for part in text.split(':') {
        let v: f64 = part.trim().parse().map_err(|_| bad(what, text))?;
        if !v.is_finite() || v < 0.0 {
            return Err(bad(what, text));
        }
        total = total * 60.0 + v;
    }
    if total > MAX_SECONDS {
        return Err(bad(what, text));
    }
    Ok((total * 1000.0).round() as u64)
}

/// Byoyomi periods (초읽기).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Byoyomi {
    /// Length of one period in ms.
    pub period_ms: u64,
    /// Number of periods.
    pub periods: u32,
}

impl FromStr for Byoyomi {
    type Err = TimeControlError;

    /// `30000x3` (ms × periods) or `30000` (one period); both at least 1.
    fn from_str(text: &str) -> Result<Byoyomi, TimeControlError> {
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

impl fmt::Display for Byoyomi {
    /// `30000x3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.period_ms, self.periods)
    }
}

/// A clock's time control: what a [`crate::Clock`] starts from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct TimeControl {
    /// Moves per session (`40/…`); `None` for sudden death.
    pub moves: Option<u32>,
    /// Time per session (the main time) in ms.
    pub base_ms: u64,
    /// Increment per move in ms.
    pub inc_ms: u64,
    /// Byoyomi after the main time.
    pub byoyomi: Option<Byoyomi>,
}

impl TimeControl {
    /// Main time then byoyomi, no increment: the board's clock.
    pub fn byoyomi(base_ms: u64, byoyomi: Byoyomi) -> TimeControl {
        TimeControl {
            base_ms,
            byoyomi: Some(byoyomi),
            ..TimeControl::default()
        }
    }
}

impl FromStr for TimeControl {
    type Err = TimeControlError;

    /// `40/60+0.6`, `10+0.1`, `1:30`, `600` (no byoyomi: see [`Byoyomi`]).
    fn from_str(text: &str) -> Result<TimeControl, TimeControlError> {
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
        Ok(TimeControl {
            moves,
            base_ms,
            inc_ms,
            byoyomi: None,
        })
    }
}

impl fmt::Display for TimeControl {
    /// `40/60+0.6`, with ` byoyomi=30000x3` when there is byoyomi.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(m) = self.moves {
            write!(f, "{m}/")?;
        }
        write!(f, "{}", self.base_ms as f64 / 1000.0)?;
        if self.inc_ms > 0 {
            write!(f, "+{}", self.inc_ms as f64 / 1000.0)?;
        }
        if let Some(b) = self.byoyomi {
            write!(f, " byoyomi={b}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls() {
        let tc: TimeControl = "40/60+0.6".parse().unwrap();
        assert_eq!((tc.moves, tc.base_ms, tc.inc_ms), (Some(40), 60_000, 600));
        assert_eq!(tc.to_string(), "40/60+0.6");
        let tc: TimeControl = "10+0.1".parse().unwrap();
        assert_eq!((tc.moves, tc.base_ms, tc.inc_ms), (None, 10_000, 100));
        assert_eq!("1:30".parse::<TimeControl>().unwrap().base_ms, 90_000);
        assert_eq!("1:00:00".parse::<TimeControl>().unwrap().base_ms, 3_600_000);
        for bad in ["abc", "0/10", "10+", "-5", "x/10", "NaN", "inf", "1e10"] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
        assert_eq!(
            "10+x".parse::<TimeControl>(),
            Err(TimeControlError {
                what: "increment",
                text: "x".into()
            })
        );
        let b: Byoyomi = "30000x3".parse().unwrap();
        assert_eq!(
            b,
            Byoyomi {
                period_ms: 30_000,
                periods: 3
            }
        );
        assert_eq!(b.to_string().parse(), Ok(b));
        assert_eq!("1000".parse::<Byoyomi>().unwrap().periods, 1);
        for bad in ["0x3", "1000x0", "x", "1000xy", ""] {
            assert!(bad.parse::<Byoyomi>().is_err(), "{bad}");
        }
        let tc = TimeControl::byoyomi(600_000, b);
        assert_eq!(tc.to_string(), "600 byoyomi=30000x3");
    }
}
