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
//! the increments still to come, less the overhead and safety margin each
//! of those moves will cost, and never count on it for the move at hand;
//! so a low clock is rebuilt rather than spent to the floor), `movestogo`
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
            // What we may spend over the next `mtg` moves: the clock plus the
            // increments still to come, less the reserve each of those moves
            // needs (so on a low clock we spend less than the increment and
            // the clock builds up again instead of running to the floor).
            // Without increment at least a quarter of the clock stays
            // plannable. With byoyomi the periods are the reserve.
            let plannable = if byo > Duration::ZERO {
                c.time
            } else {
                (c.time + c.inc * (mtg - 1))
                    .saturating_sub(reserve * (mtg + 2))
                    .max(c.time / 4)
            };
            let mut soft = plannable / mtg;
            // Of a period we plan to use two thirds and never pass 85 %: a
            // loaded machine or a slow pipe must not cost the period. (With
            // half, games at 30 s + 3 x 10 s used 3.9 s of each 10 s period
            // on average: iterations stop early when the best move is
            // stable, and what is left of a period is lost.)
            let byo_usable = (byo * BYOYOMI_MAX_PERCENT / 100).saturating_sub(reserve);
            if byo > Duration::ZERO {
                // A period is ours every move.
                soft += byo_usable * 2 / 3;
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

    /// A simulated game at 10 s + 0.1 s with `Move Overhead` 50 ms on a
    /// slow machine: every move spends one and a half times its soft
    /// budget (the search runs past it on unstable moves) plus 40 ms of
    /// latency the overhead did not cover, and every tenth move runs to the
    /// hard limit. The clock must not run low: the budget keeps a reserve
    /// for the moves still to come. (Before the reserve was planned, the
    /// clock fell to 0.16 s here, and an XBoard game in CI was lost on time.)
    #[test]
    fn a_slow_machine_keeps_a_reserve_at_ten_plus_a_tenth() {
        let inc = ms(100);
        let mut left = ms(10_000);
        let mut lowest = left;
        for ply in 0..300u32 {
            let b = TimeBudget::new(&clock(left.as_millis() as u64, 100, 0));
            let (soft, hard) = (b.soft.expect("limited"), b.hard.expect("limited"));
            let used = if ply % 10 == 9 {
                hard
            } else {
                (soft * 3 / 2).min(hard)
            } + ms(40);
            assert!(
                used < left,
                "ply {ply}: lost on time ({used:?} of {left:?})"
            );
            left = left - used + inc;
            lowest = lowest.min(left);
        }
        assert!(lowest >= ms(250), "clock ran down to {lowest:?}");
    }

    /// The long clock of the strength rows, 60 s + 0.6 s, default overhead
    /// (10 ms), each move spending its soft budget: the first move takes a
    /// sensible share (between 1/60 and 1/20 of the clock, plus the
    /// increment), a quarter of the clock is still there after 40 moves
    /// (the 30-move horizon leaves 16.6 s), and in a 150-move game the
    /// clock never falls below the reserve the plan keeps, increment +
    /// (overhead + safety) x 32 = 1.56 s (it bottoms out at 1.92 s).
    #[test]
    fn sixty_plus_six_tenths_is_spent_sensibly() {
        let mut left = ms(60_000);
        let at = |left: Duration| {
            let mut l = clock(left.as_millis() as u64, 600, 0);
            l.move_overhead = ms(10);
            TimeBudget::new(&l)
        };
        let first = at(left).soft.expect("limited");
        assert!(
            first >= ms(1_000 + 600) && first <= ms(3_000 + 600),
            "{first:?}"
        );
        let mut lowest = left;
        for mv in 0..150 {
            if mv == 40 {
                assert!(left >= ms(15_000), "after 40 moves: {left:?}");
            }
            let used = at(left).soft.expect("limited");
            assert!(used < left);
            left = left - used + ms(600);
            lowest = lowest.min(left);
        }
        assert!(lowest >= ms(1_560), "{lowest:?}");
    }

    /// Byoyomi 30 s + 3 x 10 s with `Move Overhead` 50 ms. In the worst
    /// case, every move running to its hard limit plus the GUI's overhead,
    /// no move ever passes the end of its period, so no period is lost.
    /// Spending the soft budget, main time lasts at least four moves.
    #[test]
    fn byoyomi_thirty_plus_three_times_ten_never_loses_a_period() {
        let period = ms(10_000);
        let budget = |main: Duration| {
            TimeBudget::new(&Limits {
                clock: Some(Clock {
                    time: main,
                    inc: Duration::ZERO,
                    movestogo: None,
                    byoyomi: period,
                    periods: 3,
                }),
                move_overhead: ms(50),
                ..Limits::default()
            })
        };
        for worst in [true, false] {
            let mut main = ms(30_000);
            let mut moves_in_main = 0;
            for _ in 0..200 {
                let b = budget(main);
                let spent = if worst { b.hard } else { b.soft };
                let used = spent.expect("limited") + ms(50);
                if main > Duration::ZERO {
                    moves_in_main += 1;
                    assert!(used < main + period, "{used:?} with {main:?} left");
                    main = main.saturating_sub(used);
                } else {
                    assert!(used < period, "a period lost: {used:?}");
                }
            }
            if !worst {
                assert!(
                    moves_in_main >= 4,
                    "main time gone in {moves_in_main} moves"
                );
            }
        }
    }

    /// Once the main time is gone, a byoyomi move plans to use most of
    /// the period (it is lost if unused): at least 60 % of 10 s as the soft
    /// budget, and the hard limit stays inside 85 %.
    #[test]
    fn a_byoyomi_move_plans_most_of_its_period() {
        let b = TimeBudget::new(&clock(0, 0, 10_000));
        let (soft, hard) = (b.soft.expect("limited"), b.hard.expect("limited"));
        assert!(soft >= ms(5_500), "{soft:?}");
        assert!(hard <= ms(8_500) && hard >= soft, "{hard:?}");
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
