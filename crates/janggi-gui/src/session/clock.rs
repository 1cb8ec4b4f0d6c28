//! The board's byoyomi clock: both sides' main time and periods, and when
//! the side to move's turn started (none while paused).

use super::settings::Byoyomi;
use janggi_core::Color;
use std::time::{Duration, Instant};

/// Both sides' clocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Main time left, Cho and Han.
    pub main_ms: [u64; 2],
    /// Periods left, Cho and Han.
    pub periods: [u32; 2],
    /// When the side to move's turn started.
    pub turn_started: Option<Instant>,
}

impl Clock {
    /// Full clocks, not running.
    pub fn new(b: Byoyomi) -> Clock {
        Clock {
            main_ms: [b.main_ms; 2],
            periods: [b.periods; 2],
            turn_started: None,
        }
    }

    /// Charges `side` for its turn up to `now`; false when its time ran out.
    pub fn charge(&mut self, b: Byoyomi, side: Color, now: Instant) -> bool {
        let Some(start) = self.turn_started else {
            return true;
        };
        let i = side.index();
        let elapsed = now.saturating_duration_since(start).as_millis() as u64;
        if elapsed <= self.main_ms[i] {
            self.main_ms[i] -= elapsed;
            return true;
        }
        let over = elapsed - self.main_ms[i];
        self.main_ms[i] = 0;
        let used = (over / b.period_ms.max(1)) as u32;
        if used >= self.periods[i] {
            self.periods[i] = 0;
            return false;
        }
        self.periods[i] -= used;
        true
    }

    /// When `side`'s time runs out if it does not move.
    pub fn deadline(&self, b: Byoyomi, side: Color) -> Option<Instant> {
        let i = side.index();
        let ms = self.main_ms[i] + u64::from(self.periods[i]) * b.period_ms;
        self.turn_started.map(|t| t + Duration::from_millis(ms))
    }
}
