//! The SPSA arithmetic: the parameters to tune (a Fishtest-style list),
//! the gain schedules, the ± perturbation of one iteration, and the update
//! from that iteration's games.
//!
//! Simultaneous perturbation stochastic approximation (Spall 1992, as
//! Fishtest runs it): at iteration k every parameter θᵢ is moved by
//! ±cₖ,ᵢ at once (the signs Δᵢ drawn at random), the engine with θ + cΔ
//! plays the engine with θ − cΔ, and each θᵢ moves by
//! Rₖ,ᵢ · cₖ,ᵢ · Δᵢ · (points of θ+ − points of θ−), where
//! cₖ = c_end · (N ÷ (k + 1))^γ and Rₖ = aₖ ÷ cₖ²,
//! aₖ = r_end · c_end² · ((A + N) ÷ (A + k + 1))^α, so that at the last
//! iteration c is `c_end` and R is `r_end`. α = 0.602, γ = 0.101 and
//! A = N ÷ 10, Fishtest's defaults.

use std::fmt;

/// Exponent of the learning-rate decay (Spall's recommended value).
pub const ALPHA: f64 = 0.602;
/// Exponent of the perturbation decay.
pub const GAMMA: f64 = 0.101;
/// The stability constant A as a fraction of the iterations.
pub const A_RATIO: f64 = 0.1;

/// One parameter under tuning.
#[derive(Clone, Debug, PartialEq)]
pub struct TunedParam {
    /// Its name, as the engine's `SearchTune` option knows it.
    pub name: String,
    /// The value it starts from.
    pub start: f64,
    /// Smallest value it may take.
    pub min: f64,
    /// Largest value it may take.
    pub max: f64,
    /// The perturbation at the last iteration.
    pub c_end: f64,
    /// The learning rate at the last iteration.
    pub r_end: f64,
}

/// A parameter list that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamListError {
    /// 1-based line, 0 for the list as a whole.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ParamListError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "parameter list: {}", self.message)
        } else {
            write!(f, "parameter list, line {}: {}", self.line, self.message)
        }
    }
}

impl std::error::Error for ParamListError {}

/// Reads a parameter list: one parameter a line,
/// `name, start, min, max, c_end, r_end` (Fishtest's order), `#` starts
/// a comment. Names are unique; `min ≤ start ≤ max`, `c_end > 0`,
/// `r_end > 0`.
///
/// # Errors
/// [`ParamListError`] naming the line.
pub fn parse_params(text: &str) -> Result<Vec<TunedParam>, ParamListError> {
    let mut out: Vec<TunedParam> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let err = |message: String| ParamListError {
            line: i + 1,
            message,
        };
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        if fields.len() != 6 {
            return Err(err(format!(
                "'{line}': expected name, start, min, max, c_end, r_end"
            )));
        }
        let name = fields[0];
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(err(format!("'{name}' is not a parameter name")));
        }
        if out.iter().any(|p| p.name == name) {
            return Err(err(format!("{name} is listed twice")));
        }
        let mut nums = [0.0f64; 5];
        for (slot, text) in nums.iter_mut().zip(&fields[1..]) {
            *slot = text
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| err(format!("'{text}' is not a number")))?;
        }
        let [start, min, max, c_end, r_end] = nums;
        if !(min <= start && start <= max) {
            return Err(err(format!(
                "{name}: start {start} is not within {min}..={max}"
            )));
        }
        if c_end <= 0.0 || r_end <= 0.0 {
            return Err(err(format!("{name}: c_end and r_end must be above 0")));
        }
        out.push(TunedParam {
            name: name.to_string(),
            start,
            min,
            max,
            c_end,
            r_end,
        });
    }
    if out.is_empty() {
        return Err(ParamListError {
            line: 0,
            message: "no parameters".to_string(),
        });
    }
    Ok(out)
}

/// The gains of iteration `k` (0-based) of `n`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gains {
    /// cₖ ÷ c_end: every parameter's perturbation is its `c_end` times this.
    pub c_scale: f64,
    /// Rₖ ÷ r_end.
    pub r_scale: f64,
}

/// The gains of iteration `k` of `n` (k < n).
pub fn gains(k: u64, n: u64) -> Gains {
    let n = n.max(1) as f64;
    let k1 = k as f64 + 1.0;
    let a = A_RATIO * n;
    let c_scale = (n / k1).powf(GAMMA);
    let a_scale = ((a + n) / (a + k1)).powf(ALPHA);
    Gains {
        c_scale,
        r_scale: a_scale / (c_scale * c_scale),
    }
}

/// SplitMix64's output function.
fn mix(z: u64) -> u64 {
    janggi_core::rng::splitmix64(z).1
}

/// The signs Δ of iteration `k`: a function of the seed and `k` only, so
/// an iteration replayed after an interruption perturbs the same way.
pub fn signs(seed: u64, k: u64, count: usize) -> Vec<i8> {
    (0..count)
        .map(|i| {
            let h = mix(mix(seed ^ 0x5350_5341) ^ mix(k.wrapping_mul(0x1_0001) ^ i as u64));
            if h & 1 == 0 {
                1
            } else {
                -1
            }
        })
        .collect()
}

/// The integer values the two engines of one iteration play with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Perturbation {
    /// θ + cΔ, rounded and clamped.
    pub plus: Vec<i64>,
    /// θ − cΔ, rounded and clamped.
    pub minus: Vec<i64>,
}

/// The integers an engine plays with for real values: clamped to each
/// parameter's range and rounded.
pub fn rounded(params: &[TunedParam], values: &[f64]) -> Vec<i64> {
    params
        .iter()
        .zip(values)
        .map(|(p, v)| v.clamp(p.min, p.max).round() as i64)
        .collect()
}

/// The two engines' values around `theta` for the signs `delta`.
pub fn perturb(params: &[TunedParam], theta: &[f64], delta: &[i8], g: Gains) -> Perturbation {
    let side = |sign: f64| {
        let moved: Vec<f64> = params
            .iter()
            .zip(theta)
            .zip(delta)
            .map(|((p, &t), &d)| t + sign * f64::from(d) * p.c_end * g.c_scale)
            .collect();
        rounded(params, &moved)
    };
    Perturbation {
        plus: side(1.0),
        minus: side(-1.0),
    }
}

/// θ after an iteration in which θ+ scored `result` points more than θ−
/// (wins minus losses: draws cancel), clamped to each parameter's range.
pub fn update(
    params: &[TunedParam],
    theta: &[f64],
    delta: &[i8],
    g: Gains,
    result: f64,
) -> Vec<f64> {
    params
        .iter()
        .zip(theta)
        .zip(delta)
        .map(|((p, &t), &d)| {
            let c = p.c_end * g.c_scale;
            let r = p.r_end * g.r_scale;
            (t + r * c * f64::from(d) * result).clamp(p.min, p.max)
        })
        .collect()
}

/// The `SearchTune` value for integer values: `a=1,b=2`.
pub fn tune_value(params: &[TunedParam], values: &[i64]) -> String {
    params
        .iter()
        .zip(values)
        .map(|(p, v)| format!("{}={v}", p.name))
        .collect::<Vec<_>>()
        .join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIST: &str = "\
# name, start, min, max, c_end, r_end
rfp_margin, 200, 50, 400, 20, 0.002
lmr_div,    225, 100, 400, 15, 0.002   # the reductions
";

    fn list() -> Vec<TunedParam> {
        parse_params(LIST).unwrap()
    }

    #[test]
    fn a_list_reads_with_comments_and_spaces() {
        let p = list();
        assert_eq!(p.len(), 2);
        assert_eq!(p[1].name, "lmr_div");
        assert_eq!((p[1].start, p[1].min, p[1].max), (225.0, 100.0, 400.0));
        assert_eq!((p[1].c_end, p[1].r_end), (15.0, 0.002));
    }

    #[test]
    fn bad_lists_name_their_line() {
        let cases = [
            ("a, 1, 0, 2, 1", 1, "expected name"),
            ("a, 1, 0, 2, 1, x", 1, "'x' is not a number"),
            ("a, 5, 0, 2, 1, 0.1", 1, "not within"),
            ("a, 1, 0, 2, 0, 0.1", 1, "above 0"),
            ("a b, 1, 0, 2, 1, 0.1", 1, "not a parameter name"),
            ("a, 1, 0, 2, 1, 0.1\n\na, 1, 0, 2, 1, 0.1", 3, "twice"),
            ("a, 1, 0, 2, 1, inf", 1, "not a number"),
            ("# nothing\n", 0, "no parameters"),
        ];
        for (text, line, what) in cases {
            let e = parse_params(text).unwrap_err();
            assert_eq!(e.line, line, "{text}");
            assert!(e.to_string().contains(what), "{text}: {e}");
        }
    }

    #[test]
    fn the_gains_end_at_c_end_and_r_end_and_decay_before() {
        let n = 1000;
        let last = gains(n - 1, n);
        assert!((last.c_scale - 1.0).abs() < 1e-12);
        assert!((last.r_scale - 1.0).abs() < 1e-12);
        let first = gains(0, n);
        // c starts N^γ times larger; a starts ((A+N)/(A+1))^α times larger.
        assert!((first.c_scale - 1000f64.powf(GAMMA)).abs() < 1e-9);
        let mut prev = first;
        for k in 1..n {
            let g = gains(k, n);
            assert!(g.c_scale < prev.c_scale);
            prev = g;
        }
    }

    #[test]
    fn signs_are_a_function_of_seed_and_iteration() {
        assert_eq!(signs(7, 3, 40), signs(7, 3, 40));
        assert_ne!(signs(7, 3, 40), signs(7, 4, 40));
        assert_ne!(signs(7, 3, 40), signs(8, 3, 40));
        let s = signs(1, 0, 4000);
        let plus = s.iter().filter(|&&d| d == 1).count();
        assert!((1800..2200).contains(&plus), "{plus} of 4000");
        assert!(s.iter().all(|&d| d == 1 || d == -1));
    }

    #[test]
    fn perturbation_is_symmetric_rounded_and_clamped() {
        let p = list();
        let g = gains(99, 100);
        let pert = perturb(&p, &[200.0, 395.0], &[1, 1], g);
        assert_eq!(pert.plus, vec![220, 400], "clamped at lmr_div's max");
        assert_eq!(pert.minus, vec![180, 380]);
        let pert = perturb(&p, &[200.0, 225.0], &[-1, 1], g);
        assert_eq!(pert.plus, vec![180, 240]);
        assert_eq!(pert.minus, vec![220, 210]);
    }

    #[test]
    fn the_update_follows_the_winner() {
        let p = list();
        let g = gains(99, 100);
        let theta = [200.0, 225.0];
        // θ+ won by 2 points: move toward θ+ (rfp up, lmr_div down).
        let t = update(&p, &theta, &[1, -1], g, 2.0);
        assert!((t[0] - (200.0 + 0.002 * 20.0 * 2.0)).abs() < 1e-9);
        assert!((t[1] - (225.0 - 0.002 * 15.0 * 2.0)).abs() < 1e-9);
        // θ− won: the other way; a level result changes nothing.
        let t = update(&p, &theta, &[1, -1], g, -2.0);
        assert!(t[0] < 200.0 && t[1] > 225.0);
        assert_eq!(update(&p, &theta, &[1, -1], g, 0.0), theta.to_vec());
        // Clamped to the range.
        let t = update(&p, &[400.0, 100.0], &[1, -1], g, 1e9);
        assert_eq!(t, vec![400.0, 100.0]);
    }

    #[test]
    fn tune_values_are_the_engines_list() {
        assert_eq!(
            tune_value(&list(), &[210, 230]),
            "rfp_margin=210,lmr_div=230"
        );
    }
}
