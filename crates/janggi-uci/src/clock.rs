//! The one clock with byoyomi, for every front end (the match runner, the
//! web board).
//!
//! Byoyomi follows the rules spec (§8.5, "as in baduk"): the deadline of
//! a move is the main time left plus every period left. A move that
//! overruns the main time by at most one period costs nothing more (the
//! period restarts); each further started period is used up; overrunning
//! every period loses on time. So an overrun of exactly one period uses
//! none up, one of exactly two periods uses one, and so on:
//! `periods used = ⌈overrun / period⌉ − 1`.
//!
//! Times are whole milliseconds. The clock knows no wall time: whoever
//! owns it measures how long a move took and charges it
//! ([`Clock::charge`]); [`Clock::deadline`] turns the time left into an
//! [`Instant`] for a turn that started at a given moment.

use crate::dialect::Dialect;
use crate::go::Go;
use crate::time_control::TimeControl;
use janggi_core::Color;
use std::fmt;
use std::time::{Duration, Instant};

/// A move overran its side's clock: it loses on time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flagged {
    /// Time the move took (ms).
    pub used_ms: u64,
    /// Time it had (ms, without any margin).
    pub allowed_ms: u64,
}

impl fmt::Display for Flagged {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "used {} ms with {} ms on the clock",
            self.used_ms, self.allowed_ms
        )
    }
}

impl std::error::Error for Flagged {}

/// What charging a move did to a clock that still runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Charged {
    /// Byoyomi periods the move used up.
    pub periods_used: u32,
}

/// One side's clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SideClock {
    tc: TimeControl,
    main_ms: u64,
    periods_left: u32,
    moves_made: u32,
}

impl SideClock {
    /// A full clock.
    pub fn new(tc: TimeControl) -> SideClock {
        SideClock {
            tc,
            main_ms: tc.base_ms,
            periods_left: tc.byoyomi.map_or(0, |b| b.periods),
            moves_made: 0,
        }
    }

    /// The time control.
    pub fn time_control(&self) -> TimeControl {
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

    fn period_ms(&self) -> u64 {
        self.tc.byoyomi.map_or(0, |b| b.period_ms)
    }

    /// The time this move may take before it loses on time (ms): main
    /// time plus every period left (the spec's deadline).
    pub fn allowed_ms(&self) -> u64 {
        self.main_ms
            .saturating_add(u64::from(self.periods_left).saturating_mul(self.period_ms()))
    }

    /// Charges a move that took `used_ms`: flags if it exceeds
    /// [`SideClock::allowed_ms`] by more than `margin_ms`, else takes the
    /// main time, then the periods (see the module), and adds the
    /// increment and, at the end of a session, the next session's time.
    /// A move forgiven by the margin keeps its last period.
    ///
    /// # Errors
    /// [`Flagged`]; the clock is then unchanged.
    pub fn charge(&mut self, used_ms: u64, margin_ms: u64) -> Result<Charged, Flagged> {
        let allowed = self.allowed_ms();
        if used_ms > allowed.saturating_add(margin_ms) {
            return Err(Flagged {
                used_ms,
                allowed_ms: allowed,
            });
        }
        let mut charged = Charged::default();
        match self.tc.byoyomi {
            Some(b) if used_ms > self.main_ms => {
                let over = used_ms - self.main_ms;
                self.main_ms = 0;
                // Within one period: the period restarts. Each further
                // started period is used up.
                let started = over.div_ceil(b.period_ms.max(1));
                let lost = u32::try_from(started.saturating_sub(1)).unwrap_or(u32::MAX);
                let keep = self.periods_left.min(1);
                let left = self.periods_left.saturating_sub(lost).max(keep);
                charged.periods_used = self.periods_left - left;
                self.periods_left = left;
            }
            _ => self.main_ms = self.main_ms.saturating_sub(used_ms),
        }
        self.main_ms = self.main_ms.saturating_add(self.tc.inc_ms);
        self.moves_made = self.moves_made.saturating_add(1);
        if let Some(m) = self.tc.moves {
            if self.moves_made.is_multiple_of(m) {
                self.main_ms = self.main_ms.saturating_add(self.tc.base_ms);
            }
        }
        Ok(charged)
    }

    /// Runs the clock out (the side lost on time): no main time, no period.
    pub fn flag(&mut self) {
        self.main_ms = 0;
        self.periods_left = 0;
    }
}

/// Both sides' clocks. A side may have none (a runner's engine that
/// plays by depth or nodes against one on a clock): its charges are free
/// and it has no deadline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    sides: [Option<SideClock>; 2],
}

impl Clock {
    /// Both sides on `tc`.
    pub fn new(tc: TimeControl) -> Clock {
        Clock::per_side([Some(tc), Some(tc)])
    }

    /// Each side on its own time control (Cho's, Han's), or on none.
    pub fn per_side(tc: [Option<TimeControl>; 2]) -> Clock {
        Clock {
            sides: tc.map(|t| t.map(SideClock::new)),
        }
    }

    /// `side`'s clock, if it has one.
    pub fn side(&self, side: Color) -> Option<&SideClock> {
        self.sides[side.index()].as_ref()
    }

    /// The time `side` may take on this move before it loses on time
    /// (ms), if it has a clock: [`SideClock::allowed_ms`].
    pub fn allowed_ms(&self, side: Color) -> Option<u64> {
        self.side(side).map(SideClock::allowed_ms)
    }

    /// When `side`, whose turn started at `turn_started`, loses on time
    /// if it has not moved.
    pub fn deadline(&self, side: Color, turn_started: Instant) -> Option<Instant> {
        self.allowed_ms(side)
            .and_then(|ms| turn_started.checked_add(Duration::from_millis(ms)))
    }

    /// Charges `side` for a move that took `used_ms`, with no margin
    /// (see [`SideClock::charge`]); a side without a clock is charged
    /// nothing.
    ///
    /// # Errors
    /// [`Flagged`]; the clock is then unchanged ([`Clock::flag`] runs it out).
    pub fn charge(&mut self, side: Color, used_ms: u64) -> Result<Charged, Flagged> {
        self.charge_with_margin(side, used_ms, 0)
    }

    /// [`Clock::charge`] that forgives an overrun of up to `margin_ms`.
    ///
    /// # Errors
    /// [`Flagged`]; the clock is then unchanged.
    pub fn charge_with_margin(
        &mut self,
        side: Color,
        used_ms: u64,
        margin_ms: u64,
    ) -> Result<Charged, Flagged> {
        match &mut self.sides[side.index()] {
            Some(c) => c.charge(used_ms, margin_ms),
            None => Ok(Charged::default()),
        }
    }

    /// Runs `side`'s clock out (it lost on time).
    pub fn flag(&mut self, side: Color) {
        if let Some(c) = &mut self.sides[side.index()] {
            c.flag();
        }
    }

    /// The clock part of the `go` for `side` to move, in `dialect`
    /// (nothing when `side` has no clock):
    ///
    /// * both sides' main time left (`wtime`/`btime`, Cho's under the key
    ///   the dialect gives the first mover; a side without a clock is
    ///   shown `side`'s own time);
    /// * both increments when either side has one (`winc`/`binc`);
    /// * `movestogo` for session controls;
    /// * `byoyomi` (the period) and, when the control has more than one
    ///   period, `periods` (the periods `side` has left).
    pub fn go(&self, side: Color, dialect: Dialect) -> Go {
        let mut go = Go::default();
        let Some(own) = self.side(side) else {
            return go;
        };
        for c in [Color::Cho, Color::Han] {
            let time = self.side(c).map_or(own.main_ms(), SideClock::main_ms);
            go.set_time(dialect, c, time);
        }
        let inc = |c: Color| self.side(c).map_or(0, |k| k.time_control().inc_ms);
        if inc(Color::Cho) > 0 || inc(Color::Han) > 0 {
            for c in [Color::Cho, Color::Han] {
                go.set_inc(dialect, c, inc(c));
            }
        }
        go.movestogo = own.moves_to_go();
        if let Some(b) = own.time_control().byoyomi {
            go.byoyomi = Some(b.period_ms);
            if b.periods > 1 {
                go.periods = Some(own.periods_left());
            }
        }
        go
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time_control::Byoyomi;

    fn byo(base_ms: u64, period_ms: u64, periods: u32) -> TimeControl {
        TimeControl::byoyomi(base_ms, Byoyomi { period_ms, periods })
    }

    #[test]
    fn fischer_and_sessions() {
        let mut c = SideClock::new("2/1+0.5".parse().unwrap());
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
            Err(Flagged {
                used_ms: 2600,
                allowed_ms: 2500
            })
        );
        assert_eq!(c, before);
        // Within the margin: survives with nothing left but the increment.
        c.charge(2550, 100).unwrap();
        assert_eq!(c.main_ms(), 500);
    }

    /// The boundary the board and the runner once disagreed on: an
    /// overrun of exactly k periods uses k − 1 of them.
    #[test]
    fn an_overrun_of_exactly_k_periods_uses_k_minus_one() {
        /// Main time, period, periods, the move's time → (periods used,
        /// periods left), or `None` for a flag.
        type Case = (u64, u64, u32, u64, Option<(u32, u32)>);
        let table: [Case; 12] = [
            (0, 1000, 3, 0, Some((0, 3))),
            (0, 1000, 3, 1, Some((0, 3))),
            (0, 1000, 3, 999, Some((0, 3))),
            (0, 1000, 3, 1000, Some((0, 3))),
            (0, 1000, 3, 1001, Some((1, 2))),
            (0, 1000, 3, 2000, Some((1, 2))),
            (0, 1000, 3, 2001, Some((2, 1))),
            (0, 1000, 3, 3000, Some((2, 1))),
            (0, 1000, 3, 3001, None),
            (5000, 1000, 3, 6000, Some((0, 3))),
            (5000, 1000, 3, 7000, Some((1, 2))),
            (5000, 1000, 1, 6001, None),
        ];
        for (main, period, periods, used, want) in table {
            let mut c = Clock::new(byo(main, period, periods));
            let got = c.charge(Color::Han, used);
            match want {
                Some((used_up, left)) => {
                    assert_eq!(
                        got,
                        Ok(Charged {
                            periods_used: used_up
                        }),
                        "{main}+{periods}x{period}, {used} ms"
                    );
                    let s = c.side(Color::Han).unwrap();
                    assert_eq!((s.main_ms(), s.periods_left()), (0, left));
                    assert_eq!(c.side(Color::Cho).unwrap().periods_left(), periods);
                }
                None => assert_eq!(
                    got,
                    Err(Flagged {
                        used_ms: used,
                        allowed_ms: main + u64::from(periods) * period
                    })
                ),
            }
        }
    }

    /// An engine that always uses 90 % of its period never loses on
    /// time; one that uses 110 % does (with 1 period at once; with 3 after
    /// eating them one by one).
    #[test]
    fn byoyomi_ninety_and_hundred_ten_percent() {
        let tc = byo(2_000, 1_000, 3);
        let mut c = SideClock::new(tc);
        for _ in 0..1000 {
            c.charge(900, 0).expect("90 % of a period never loses");
        }
        assert_eq!((c.main_ms(), c.periods_left()), (0, 3));
        let mut c = SideClock::new(tc);
        let forfeit_at = (0..100).find(|_| c.charge(1_100, 0).is_err());
        // Moves 0 (900 left) and 1 (over by 200: fits in a period)
        // survive; then each 1100 ms move eats one period.
        assert_eq!(forfeit_at, Some(4));
        let mut c = SideClock::new(byo(0, 1_000, 1));
        assert!(c.charge(900, 0).is_ok());
        assert!(c.charge(1_100, 0).is_err());
        let mut c = SideClock::new(tc);
        assert_eq!(c.charge(2_000 + 2_500, 0).map(|c| c.periods_used), Ok(2));
        assert_eq!(c.periods_left(), 1);
    }

    #[test]
    fn the_margin_forgives_but_keeps_the_last_period() {
        let mut c = SideClock::new(byo(0, 1_000, 2));
        assert_eq!(c.charge(2_050, 100), Ok(Charged { periods_used: 1 }));
        assert_eq!(c.periods_left(), 1);
        assert!(c.charge(1_101, 100).is_err());
        // A period of 0 ms (never parsed, but constructible) does not panic.
        let mut z = SideClock::new(byo(10, 0, 2));
        assert!(z.charge(11, 0).is_err());
        assert!(z.charge(11, 5).is_ok());
        c.flag();
        assert_eq!((c.main_ms(), c.periods_left(), c.allowed_ms()), (0, 0, 0));
    }

    #[test]
    fn deadlines_and_sides_without_a_clock() {
        let t = Instant::now();
        let c = Clock::new(byo(60_000, 20_000, 2));
        assert_eq!(
            c.deadline(Color::Cho, t),
            Some(t + Duration::from_millis(100_000))
        );
        let mut half = Clock::per_side([Some("10".parse().unwrap()), None]);
        assert_eq!(half.deadline(Color::Han, t), None);
        assert_eq!(half.charge(Color::Han, u64::MAX), Ok(Charged::default()));
        half.flag(Color::Han);
        assert_eq!(half.side(Color::Han), None);
        half.flag(Color::Cho);
        assert_eq!(half.allowed_ms(Color::Cho), Some(0));
    }

    #[test]
    fn go_for_the_side_to_move() {
        let mut c = Clock::new("10+0.1".parse().unwrap());
        c.charge(Color::Han, 1000).unwrap();
        assert_eq!(
            c.go(Color::Han, Dialect::Uci).to_string(),
            "go wtime 10000 btime 9100 winc 100 binc 100"
        );
        // USI: btime is the first mover's (Cho's).
        let usi = c.go(Color::Han, Dialect::Usi);
        assert_eq!(usi.time(Dialect::Usi, Color::Cho), Some(10_000));
        assert_eq!(
            usi.to_string(),
            "go wtime 9100 btime 10000 winc 100 binc 100"
        );
        let c = Clock::new(byo(0, 500, 3));
        assert_eq!(
            c.go(Color::Cho, Dialect::Uci).to_string(),
            "go wtime 0 btime 0 byoyomi 500 periods 3"
        );
        let c = Clock::new(byo(60_000, 20_000, 1));
        assert_eq!(
            c.go(Color::Cho, Dialect::Uci).to_string(),
            "go wtime 60000 btime 60000 byoyomi 20000"
        );
        let mut s = Clock::new("2/60".parse().unwrap());
        s.charge(Color::Cho, 1_000).unwrap();
        assert_eq!(
            s.go(Color::Cho, Dialect::Uci).to_string(),
            "go wtime 59000 btime 60000 movestogo 1"
        );
        // A side without a clock is shown the mover's time; none for itself.
        let half = Clock::per_side([Some("5+1".parse().unwrap()), None]);
        assert_eq!(
            half.go(Color::Cho, Dialect::Uci).to_string(),
            "go wtime 5000 btime 5000 winc 1000 binc 0"
        );
        assert_eq!(half.go(Color::Han, Dialect::Uci), Go::default());
    }
}
