//! Match statistics: win/draw/loss counts, the score, the Elo difference
//! with its 95 % error margin, the likelihood of superiority (LOS) and a
//! sequential probability ratio test (SPRT).
//!
//! The formulas are the ones cutechess-cli and fishtest use, so numbers
//! printed here can be compared with theirs:
//!
//! * score `s = (W + D/2) / N`, Elo `= -400 · log10(1/s − 1)`;
//! * error margin (cutechess-cli's `EloDiff`): the per-game variance
//!   `σ² = w(1−s)² + d(½−s)² + l(0−s)²` with `w = W/N` …, the standard
//!   error `σ/√N`, the score interval `s ± z₀.₉₇₅ · σ/√N` mapped to Elo,
//!   and half its width;
//! * LOS `= ½ (1 + erf((W − L) / √(2 (W + L))))`;
//! * SPRT: the generalized SPRT with the trinomial (W/D/L) normal
//!   approximation of the log-likelihood ratio in logistic Elo
//!   (fishtest's `LLR_logistic`):
//!   `LLR = N (s₁ − s₀)(2s − s₀ − s₁) / (2σ²)` with `sᵢ = 1/(1 + 10^(−eloᵢ/400))`,
//!   stopping at `ln(β/(1−α))` (H0 accepted) or `ln((1−β)/α)` (H1 accepted).
//!
//! ```
//! use janggi_match::stats::Tally;
//! let t = Tally { wins: 60, losses: 40, draws: 100 };
//! assert!((t.elo().unwrap() - 34.86).abs() < 0.01);
//! ```

use std::fmt;

/// The two-sided 95 % quantile of the standard normal distribution.
const Z95: f64 = 1.959_963_984_540_054;

/// Wins, losses and draws from one side's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games won.
    pub wins: u32,
    /// Games lost.
    pub losses: u32,
    /// Games drawn.
    pub draws: u32,
}

/// One game's result from one side's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameScore {
    /// 1 point.
    Win,
    /// ½ point.
    Draw,
    /// 0 points.
    Loss,
}

impl GameScore {
    /// The same result from the opponent's point of view.
    pub const fn flip(self) -> GameScore {
        match self {
            GameScore::Win => GameScore::Loss,
            GameScore::Loss => GameScore::Win,
            GameScore::Draw => GameScore::Draw,
        }
    }
}

/// Elo difference for a score fraction in (0, 1).
pub fn elo_from_score(score: f64) -> f64 {
    // `+ 0.0` turns −0.0 (an even score) into 0.0 for printing.
    -400.0 * (1.0 / score - 1.0).log10() + 0.0
}

/// Expected score for an Elo difference (the logistic curve).
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

impl Tally {
    /// Adds one game.
    pub fn add(&mut self, result: GameScore) {
        match result {
            GameScore::Win => self.wins += 1,
            GameScore::Loss => self.losses += 1,
            GameScore::Draw => self.draws += 1,
        }
    }

    /// The same counts from the opponent's point of view.
    pub const fn flipped(self) -> Tally {
        Tally {
            wins: self.losses,
            losses: self.wins,
            draws: self.draws,
        }
    }

    /// Games counted.
    pub const fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// Points (wins + half the draws).
    pub fn points(&self) -> f64 {
        f64::from(self.wins) + f64::from(self.draws) / 2.0
    }

    /// Score fraction, `None` before the first game.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.points() / f64::from(n))
    }

    /// Draw ratio, `None` before the first game.
    pub fn draw_ratio(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| f64::from(self.draws) / f64::from(n))
    }

    /// Per-game variance of the score (`σ²` above).
    pub fn variance(&self) -> Option<f64> {
        let n = f64::from(self.games());
        let s = self.score()?;
        let (w, l, d) = (
            f64::from(self.wins) / n,
            f64::from(self.losses) / n,
            f64::from(self.draws) / n,
        );
        Some(w * (1.0 - s).powi(2) + l * s.powi(2) + d * (0.5 - s).powi(2))
    }

    /// Elo difference; `None` with no games or a 0 % / 100 % score (infinite).
    pub fn elo(&self) -> Option<f64> {
        let s = self.score()?;
        (s > 0.0 && s < 1.0).then(|| elo_from_score(s))
    }

    /// Half the width of the 95 % confidence interval in Elo, as
    /// cutechess-cli computes it; `None` when it is undefined (no games, or
    /// the interval reaches 0 % or 100 %).
    pub fn elo_error(&self) -> Option<f64> {
        let s = self.score()?;
        let dev = (self.variance()? / f64::from(self.games())).sqrt();
        let (lo, hi) = (s - Z95 * dev, s + Z95 * dev);
        (lo > 0.0 && hi < 1.0).then(|| (elo_from_score(hi) - elo_from_score(lo)) / 2.0)
    }

    /// Likelihood of superiority in (0, 1): the probability that this side
    /// is the stronger one, from wins and losses only (draws carry no
    /// information). `None` when there are no decisive games.
    pub fn los(&self) -> Option<f64> {
        let (w, l) = (f64::from(self.wins), f64::from(self.losses));
        (w + l > 0.0).then(|| 0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt())))
    }

    /// `Elo difference: X +/- Y, LOS: Z %, DrawRatio: D %` (cutechess-cli's line).
    pub fn elo_line(&self) -> String {
        let fmt_opt = |v: Option<f64>, inf: &str| v.map_or(inf.to_string(), |x| format!("{x:.1}"));
        let inf = match self.score() {
            Some(s) if s >= 1.0 => "inf",
            Some(s) if s <= 0.0 => "-inf",
            _ => "nan",
        };
        format!(
            "Elo difference: {} +/- {}, LOS: {} %, DrawRatio: {} %",
            fmt_opt(self.elo(), inf),
            fmt_opt(self.elo_error(), "nan"),
            fmt_opt(self.los().map(|x| x * 100.0), "nan"),
            fmt_opt(self.draw_ratio().map(|x| x * 100.0), "0.0"),
        )
    }
}

impl fmt::Display for Tally {
    /// `W - L - D  [0.xxx] N` (cutechess-cli's order: wins, losses, draws).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} - {} - {}  [{:.3}] {}",
            self.wins,
            self.losses,
            self.draws,
            self.score().unwrap_or(0.0),
            self.games()
        )
    }
}

/// The error function: its Maclaurin series below 2.5, the continued
/// fraction of `erfc` above (both accurate to better than 1e-12 here).
pub fn erf(x: f64) -> f64 {
    if x < 0.0 {
        return -erf(-x);
    }
    if x < 2.5 {
        // Maclaurin series: converges quickly for small |x|.
        let mut sum = 0.0f64;
        let mut term = x;
        let mut n = 0.0;
        while term.abs() > 1e-17 * sum.abs().max(1e-300) || n < 1.0 {
            sum += term / (2.0 * n + 1.0);
            n += 1.0;
            term *= -x * x / n;
            if n > 200.0 {
                break;
            }
        }
        return sum * 2.0 / std::f64::consts::PI.sqrt();
    }
    // Continued fraction for erfc (Lentz), good for large x.
    let mut f = x;
    for k in (1..=60).rev() {
        f = x + f64::from(k) / 2.0 / f;
    }
    1.0 - (-x * x).exp() / (f * std::f64::consts::PI.sqrt())
}

/// Parameters of a sequential probability ratio test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtParams {
    /// Elo of the null hypothesis H0.
    pub elo0: f64,
    /// Elo of the alternative hypothesis H1.
    pub elo1: f64,
    /// Type I error (accepting H1 when H0 holds).
    pub alpha: f64,
    /// Type II error (accepting H0 when H1 holds).
    pub beta: f64,
}

/// What an SPRT concluded so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// Keep playing.
    Continue,
    /// H0 accepted (the LLR reached the lower bound).
    AcceptH0,
    /// H1 accepted (the LLR reached the upper bound).
    AcceptH1,
}

impl SprtParams {
    /// Lower bound `ln(β / (1 − α))`.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// Upper bound `ln((1 − β) / α)`.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// Log-likelihood ratio of `t` (0 while the variance is 0).
    pub fn llr(&self, t: &Tally) -> f64 {
        let (Some(s), Some(var)) = (t.score(), t.variance()) else {
            return 0.0;
        };
        if var <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
        f64::from(t.games()) * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
    }

    /// The decision for `t`.
    pub fn decide(&self, t: &Tally) -> SprtDecision {
        let llr = self.llr(t);
        if llr >= self.upper_bound() {
            SprtDecision::AcceptH1
        } else if llr <= self.lower_bound() {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }

    /// `SPRT: llr 2.95 (100.2%), lbound -2.94, ubound 2.94 - H1 was accepted`
    /// (cutechess-cli's line).
    pub fn line(&self, t: &Tally) -> String {
        let llr = self.llr(t);
        let (lo, hi) = (self.lower_bound(), self.upper_bound());
        let pct = if llr >= 0.0 { llr / hi } else { llr / lo } * 100.0;
        let verdict = match self.decide(t) {
            SprtDecision::AcceptH1 => " - H1 was accepted",
            SprtDecision::AcceptH0 => " - H0 was accepted",
            SprtDecision::Continue => "",
        };
        format!("SPRT: llr {llr:.3} ({pct:.1}%), lbound {lo:.2}, ubound {hi:.2}{verdict}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn erf_values() {
        // erf(0.5) = 0.5204998778, erf(1) = 0.8427007929, erf(2) = 0.9953222650,
        // erf(3) = 0.9999779095 (tables).
        for (x, v) in [
            (0.5, 0.520_499_877_8),
            (1.0, 0.842_700_792_9),
            (2.0, 0.995_322_265_0),
            (3.0, 0.999_977_909_5),
        ] {
            assert!((erf(x) - v).abs() < 1e-9, "erf({x}) = {}", erf(x));
            assert!((erf(-x) + v).abs() < 1e-9);
        }
    }

    #[test]
    fn degenerate_tallies() {
        let t = Tally::default();
        assert_eq!(t.score(), None);
        assert_eq!(t.elo(), None);
        let all = Tally {
            wins: 5,
            losses: 0,
            draws: 0,
        };
        assert_eq!(all.elo(), None);
        assert_eq!(all.elo_error(), None);
        assert!(all.elo_line().starts_with("Elo difference: inf +/- nan"));
        assert_eq!(all.to_string(), "5 - 0 - 0  [1.000] 5");
        assert_eq!(
            Tally {
                wins: 0,
                losses: 0,
                draws: 4
            }
            .los(),
            None
        );
    }
}
