//! The score-to-probability model behind `UCI_ShowWDL` (`info … wdl W D L`).
//!
//! A score of `cp` centipawns (side to move's view) is turned into
//! win/draw/loss chances in permille by two logistic curves:
//!
//! ```text
//! W = 1000 · σ((cp − M) / S)      L = 1000 · σ((−cp − M) / S)      D = 1000 − W − L
//! σ(x) = 1 / (1 + e^(−x)),  S = WDL_SCALE_CP = 150,  M = WDL_DRAW_MARGIN_CP = 60
//! ```
//!
//! `S` sets how fast an advantage turns into a win (one scale unit past
//! the margin, about 73 % of the non-draw mass is the leader's), `M` how
//! wide the band around equality is where a draw is likely: at `cp = 0` the
//! model says 401 / 198 / 401, at +300 it says 832 / 85 / 83. Janggi games
//! rarely end drawn (counting decides most endings), so the draw band is
//! narrow. Mate scores are certain (1000 / 0 / 0 or 0 / 0 / 1000); games
//! won by a rule (counting, repetition) are reported as centipawns near
//! ±30000 and come out certain too. The model is a stated convention, not
//! a fit to game results; a fitted one can replace the two constants.
//!
//! ```
//! use janggi::protocol::wdl::wdl;
//! use janggi::search::ReportScore;
//! assert_eq!(wdl(ReportScore::Cp(0)), (401, 198, 401));
//! assert_eq!(wdl(ReportScore::Mate(3)), (1000, 0, 0));
//! let (w, d, l) = wdl(ReportScore::Cp(300));
//! assert_eq!((w, d, l), (832, 85, 83));
//! ```

use crate::search::ReportScore;

/// The logistic scale `S` in centipawns.
pub const WDL_SCALE_CP: f64 = 150.0;
/// The draw margin `M` in centipawns.
pub const WDL_DRAW_MARGIN_CP: f64 = 60.0;

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Win, draw and loss chances in permille (they add up to 1000) for
/// `score`, from the side to move's point of view.
pub fn wdl(score: ReportScore) -> (u32, u32, u32) {
    match score {
        ReportScore::Mate(n) if n > 0 => (1000, 0, 0),
        ReportScore::Mate(_) => (0, 0, 1000),
        ReportScore::Cp(cp) => {
            let cp = f64::from(cp);
            let permille = |x: f64| {
                (1000.0 * sigmoid(x / WDL_SCALE_CP))
                    .round()
                    .clamp(0.0, 1000.0)
            };
            // Both at most 500 + 500 when M ≥ 0, so D ≥ 0; `min` guards
            // against rounding.
            let w = permille(cp - WDL_DRAW_MARGIN_CP) as u32;
            let l = (permille(-cp - WDL_DRAW_MARGIN_CP) as u32).min(1000 - w);
            (w, 1000 - w - l, l)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetric_monotone_and_summing_to_1000() {
        let mut last_w = 0;
        for cp in (-3000..=3000).step_by(25) {
            let (w, d, l) = wdl(ReportScore::Cp(cp));
            assert_eq!(w + d + l, 1000, "{cp}");
            assert_eq!(wdl(ReportScore::Cp(-cp)), (l, d, w), "{cp}");
            assert!(w >= last_w, "{cp}");
            last_w = w;
        }
        assert_eq!(wdl(ReportScore::Cp(30_000)), (1000, 0, 0));
        assert_eq!(wdl(ReportScore::Mate(-2)), (0, 0, 1000));
        assert_eq!(wdl(ReportScore::Mate(0)), (0, 0, 1000));
    }
}
