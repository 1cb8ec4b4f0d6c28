//! The clock's arithmetic against a model written the long way round:
//! the k-th period is started when the overrun passes k − 1 periods; all
//! but the last started one are used up (§8.5).

use janggi_core::Color;
use janggi_uci::{Byoyomi, Charged, Clock, Flagged, TimeControl};
use proptest::prelude::*;

/// (main left, periods left) after a move of `used` ms, or `None` on a
/// flag: the smallest k with overrun ≤ k periods, k − 1 periods used.
fn model(main: u64, period: u64, periods: u32, used: u64) -> Option<(u64, u32)> {
    if used <= main {
        return Some((main - used, periods));
    }
    let over = used - main;
    (1..=periods)
        .find(|&k| over <= u64::from(k) * period)
        .map(|k| (0, periods - (k - 1)))
}

proptest! {
    #[test]
    fn one_move_matches_the_model(
        main in 0u64..5_000,
        period in 1u64..3_000,
        periods in 1u32..6,
        used in 0u64..25_000,
    ) {
        let tc = TimeControl::byoyomi(main, Byoyomi { period_ms: period, periods });
        let mut clock = Clock::new(tc);
        let got = clock.charge(Color::Cho, used);
        let side = *clock.side(Color::Cho).unwrap();
        match model(main, period, periods, used) {
            Some((m, p)) => {
                prop_assert_eq!(got, Ok(Charged { periods_used: periods - p }));
                prop_assert_eq!((side.main_ms(), side.periods_left()), (m, p));
            }
            None => {
                let allowed = main + u64::from(periods) * period;
                prop_assert_eq!(got, Err(Flagged { used_ms: used, allowed_ms: allowed }));
                prop_assert_eq!(side.main_ms(), main, "a flag leaves the clock as it was");
            }
        }
        // Han's clock is untouched.
        prop_assert_eq!(clock.side(Color::Han).unwrap().periods_left(), periods);
    }

    /// Over a game: a move flags exactly when it takes longer than
    /// `allowed_ms`, and a side never keeps fewer than one period.
    #[test]
    fn a_game_flags_exactly_past_the_allowed_time(
        main in 0u64..3_000,
        period in 1u64..2_000,
        periods in 1u32..4,
        inc in 0u64..300,
        moves in prop::collection::vec(0u64..6_000, 1..40),
    ) {
        let tc = TimeControl { inc_ms: inc, ..TimeControl::byoyomi(main, Byoyomi { period_ms: period, periods }) };
        let mut clock = Clock::new(tc);
        for used in moves {
            let allowed = clock.allowed_ms(Color::Han).unwrap();
            let before = *clock.side(Color::Han).unwrap();
            match clock.charge(Color::Han, used) {
                Ok(c) => {
                    prop_assert!(used <= allowed);
                    let after = clock.side(Color::Han).unwrap();
                    prop_assert!(after.periods_left() >= 1);
                    prop_assert_eq!(before.periods_left() - after.periods_left(), c.periods_used);
                    let expect_main = before.main_ms().saturating_sub(used) + inc;
                    prop_assert_eq!(after.main_ms(), expect_main);
                }
                Err(f) => {
                    prop_assert!(used > allowed);
                    prop_assert_eq!(f.allowed_ms, allowed);
                    break;
                }
            }
        }
    }
}
