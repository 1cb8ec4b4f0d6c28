//! Time management: when to stop thinking.
//!
//! Two budgets per move, both measured from the start of the search (or
//! from `ponderhit`, when the clock really starts running for us):
//!
//! * **soft** — do not start another iteration after this much time;
//! * **hard** — abort the running iteration at this point.
//!
//! Clock kinds (`Clock`): sudden death (`time`), Fischer (`inc` is added
//! after the move, so it can be spent from the next move on: we plan with
//! most of it but never count on it for the move at hand), `movestogo`
//! (the remaining time is for that many moves), byoyomi (after the main
//! time every move must be made inside one period: the hard limit is
//! `time + period - overhead - margin`, so a move never eats into the next
//! period), `movetime` (exact), and `infinite`/pondering (no time limit;
//! a pondering search never stops on time, only on `stop` or after
//! `ponderhit`). Never losing on time comes first: the hard limit always
//! stays below what the clock allows.

use super::Limits;
use std::time::{Duration, Instant};

/// Moves we plan for when the GUI does not send `movestogo`.
const DEFAULT_MOVES_TO_GO: u32 = 30;
/// Safety margin kept on every clock, beyond the GUI's move overhead,
/// for our own stop latency.
const SAFETY: Duration = Duration::from_millis(20);
/// At most this share (percent) of a byoyomi period is ever used.
const BYOYOMI_MAX_PERCENT: u32 = 85;
/// The hard limit is at most this many soft limits.
const HARD_FACTOR: u32 = 4;
/// Lowest budget for any move (a move must still be found).
const MIN_BUDGET: Duration = Duration::from_millis(1);

/// The time budget of one search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    /// Do not start another iteration after this.
    pub soft: Option<Duration>,
    /// Stop the search at this point.
    pub hard: Option<Duration>,
}

impl TimeBudget {
    /// No time limit.
    pub const NONE: TimeBudget = TimeBudget {
        soft: None,
        hard: None,
    };

    /// The budget for `limits` (ignoring `infinite`/ponder: the caller
    /// decides when the budget applies).
    pub fn new(limits: &Limits) -> TimeBudget {
        let overhead = limits.move_overhead;
        let mut budget = TimeBudget::NONE;
        if let Some(mt) = limits.movetime {
            let t = mt.saturating_sub(overhead).max(MIN_BUDGET);
            budget = TimeBudget {
                soft: Some(t),
                hard: Some(t),
            };
        }
        if let Some(c) = limits.clock {
            let reserve = overhead + SAFETY;
            // Everything the clock allows for this move.
            let byo = if c.byoyomi > Duration::ZERO {
                c.byoyomi
            } else {
                Duration::ZERO
            };
            let max_total = (c.time + byo).saturating_sub(reserve).max(MIN_BUDGET);
            let mtg = c.movestogo.unwrap_or(DEFAULT_MOVES_TO_GO).clamp(1, 100);
            let mut soft = c.time / mtg + c.inc * 3 / 4;
            // Of a period we plan to use half and never pass 85 %: a loaded
            // machine or a slow pipe must not cost the period.
            let byo_usable = (byo * BYOYOMI_MAX_PERCENT / 100).saturating_sub(reserve);
            if byo > Duration::ZERO {
                // A period is ours every move.
                soft += byo_usable / 2;
            }
            if mtg == 1 {
                // The last move before a new control: use what is safe.
                soft = soft.max(c.time * 6 / 10);
            }
            // With main time left, keep most of it for later moves.
            let hard_cap = if byo > Duration::ZERO {
                c.time.saturating_sub(reserve) * 8 / 10 + byo_usable
            } else {
                (c.time * 8 / 10).saturating_sub(reserve)
            }
            .max(MIN_BUDGET)
            .min(max_total);
            let soft = soft.min(hard_cap).max(MIN_BUDGET);
            let hard = (soft * HARD_FACTOR).min(hard_cap).max(soft);
            let clock = TimeBudget {
                soft: Some(soft),
                hard: Some(hard),
            };
            budget = match budget.hard {
                Some(h) if h < hard => budget,
                _ => clock,
            };
        }
        budget
    }
}

/// A running stopwatch with a budget.
#[derive(Clone, Copy, Debug)]
pub struct Timer {
    start: Instant,
    budget: TimeBudget,
}

impl Timer {
    /// Starts now.
    pub fn start(budget: TimeBudget) -> Timer {
        Timer {
            start: Instant::now(),
            budget,
        }
    }

    /// Restarts the clock (at `ponderhit`).
    pub fn restart(&mut self) {
        self.start = Instant::now();
    }

    /// Time since the start.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Whether the hard limit has passed.
    pub fn hard_expired(&self) -> bool {
        self.budget.hard.is_some_and(|h| self.start.elapsed() >= h)
    }

    /// Whether a new iteration should not be started (scaled by `scale`
    /// percent: more when the best move is unstable, less when it is
    /// clear).
    pub fn soft_expired(&self, scale: u32) -> bool {
        self.budget
            .soft
            .is_some_and(|s| self.start.elapsed() >= s * scale / 100)
    }

    /// Whether the budget limits time at all.
    pub fn limited(&self) -> bool {
        self.budget.hard.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::super::Clock;
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn clock(time: u64, inc: u64, byo: u64) -> Limits {
        Limits {
            clock: Some(Clock {
                time: ms(time),
                inc: ms(inc),
                movestogo: None,
                byoyomi: ms(byo),
                periods: 1,
            }),
            move_overhead: ms(50),
            ..Limits::default()
        }
    }

    #[test]
    fn sudden_death_never_exceeds_clock() {
        for t in [0, 1, 10, 100, 1000, 60_000] {
            let b = TimeBudget::new(&clock(t, 0, 0));
            let hard = b.hard.expect("limited");
            assert!(hard <= ms(t).max(ms(1)), "{t}: {hard:?}");
            assert!(b.soft.expect("limited") <= hard);
        }
    }

    #[test]
    fn byoyomi_stays_inside_one_period() {
        let b = TimeBudget::new(&clock(0, 0, 1000));
        let hard = b.hard.expect("limited");
        assert!(hard <= ms(850 - 50), "{hard:?}");
        assert!(hard >= ms(500), "uses the period: {hard:?}");
    }

    #[test]
    fn movetime_is_exact_minus_overhead() {
        let l = Limits {
            movetime: Some(ms(500)),
            move_overhead: ms(30),
            ..Limits::default()
        };
        assert_eq!(TimeBudget::new(&l).hard, Some(ms(470)));
    }

    #[test]
    fn increment_is_used() {
        let a = TimeBudget::new(&clock(10_000, 0, 0)).soft.expect("limited");
        let b = TimeBudget::new(&clock(10_000, 1000, 0))
            .soft
            .expect("limited");
        assert!(b > a);
    }
}
