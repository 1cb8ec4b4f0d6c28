//! The board's clock: janggi-uci's one clock with byoyomi (the match
//! runner's arithmetic: an overrun of the main time by at most one
//! period costs nothing more, each further started period is used up),
//! plus what only the board has: the wall-clock moment the side to
//! move's turn started, none while the clock is paused.

use janggi_core::Color;
use janggi_uci::{Flagged, TimeControl};
use std::time::{Duration, Instant};

/// Both sides' clocks and the running turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Main time and periods left, both sides.
    pub times: janggi_uci::Clock,
    /// When the side to move's turn started (`None`: paused).
    pub turn_started: Option<Instant>,
}

impl Clock {
    /// Full clocks on `tc`, not running.
    pub fn new(tc: TimeControl) -> Clock {
        Clock {
            times: janggi_uci::Clock::new(tc),
            turn_started: None,
        }
    }

    /// How long the running turn has lasted at `now` (0 while paused).
    pub fn elapsed(&self, now: Instant) -> Duration {
        self.turn_started
            .map_or(Duration::ZERO, |t| now.saturating_duration_since(t))
    }

    /// Charges `side` for its turn up to `now` (nothing while paused).
    ///
    /// # Errors
    /// [`Flagged`]: its time ran out; the clock is then unchanged.
    pub fn charge(&mut self, side: Color, now: Instant) -> Result<(), Flagged> {
        if self.turn_started.is_none() {
            return Ok(());
        }
        let ms = u64::try_from(self.elapsed(now).as_millis()).unwrap_or(u64::MAX);
        self.times.charge(side, ms).map(|_| ())
    }

    /// When `side`'s time runs out if it does not move (none while paused).
    pub fn deadline(&self, side: Color) -> Option<Instant> {
        self.turn_started.and_then(|t| self.times.deadline(side, t))
    }

    /// `side`'s main time left (ms).
    pub fn main_ms(&self, side: Color) -> u64 {
        self.times.side(side).map_or(0, |c| c.main_ms())
    }

    /// `side`'s periods left.
    pub fn periods_left(&self, side: Color) -> u32 {
        self.times.side(side).map_or(0, |c| c.periods_left())
    }

    /// One period (ms).
    pub fn period_ms(&self) -> u64 {
        self.times
            .side(Color::Cho)
            .and_then(|c| c.time_control().byoyomi)
            .map_or(0, |b| b.period_ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use janggi_uci::Byoyomi;

    /// 0 s main time, 3 periods of 1 s, Cho's turn started at `t`.
    fn running(t: Instant) -> Clock {
        let mut c = Clock::new(TimeControl::byoyomi(
            0,
            Byoyomi {
                period_ms: 1_000,
                periods: 3,
            },
        ));
        c.turn_started = Some(t);
        c
    }

    /// The boundary the board's own clock got wrong: an overrun of
    /// exactly one period costs nothing (the period restarts), one of
    /// exactly k periods uses k − 1, and the clock flags only past the
    /// last period.
    #[test]
    fn an_overrun_of_exactly_one_period_leaves_the_periods() {
        let t = Instant::now();
        let ms = Duration::from_millis;
        for (overrun, left) in [
            (1_000, Some(3)),
            (1_001, Some(2)),
            (2_000, Some(2)),
            (3_000, Some(1)),
            (3_001, None),
        ] {
            let mut c = running(t);
            let charged = c.charge(Color::Cho, t + ms(overrun));
            match left {
                Some(n) => {
                    assert_eq!(charged, Ok(()), "{overrun} ms");
                    assert_eq!(
                        (c.main_ms(Color::Cho), c.periods_left(Color::Cho)),
                        (0, n),
                        "{overrun} ms"
                    );
                }
                None => {
                    assert!(charged.is_err(), "{overrun} ms");
                    assert_eq!(
                        c.periods_left(Color::Cho),
                        3,
                        "a flag leaves the clock as it was"
                    );
                }
            }
        }
        // Han's clock is not touched; a paused clock charges nothing.
        let mut c = running(t);
        c.turn_started = None;
        assert_eq!(c.charge(Color::Cho, t + ms(60_000)), Ok(()));
        assert_eq!(c.periods_left(Color::Cho), 3);
        assert_eq!(c.deadline(Color::Cho), None);
        assert_eq!(running(t).deadline(Color::Han), Some(t + ms(3_000)));
        assert_eq!(running(t).period_ms(), 1_000);
    }
}
