//! `janggi-match spsa`: tunes an engine's numeric parameters by SPSA
//! (simultaneous perturbation stochastic approximation, as Fishtest runs
//! it), playing the engine against itself with the parameters pushed
//! apart, and resumable after any interruption.
//!
//! ```text
//! janggi-match spsa --params tools/spsa-params.txt --state /work/tune/spsa.state
//!     --iterations 2000 [--pairs 1] [--option SearchTune] [--history FILE]
//!     --engine cmd=janggi-tune [option.X=V…] --each tc=8+0.08 option.Hash=16
//!     --concurrency 2 --openings file=books/janggi-1200.epd order=random
//!     --seed 5 --variant janggi [--pgnout FILE]
//! ```
//!
//! Each iteration plays `--pairs` game pairs (each opening with both
//! colours) between θ + cΔ and θ − cΔ, sent to the one `--engine` as
//! `option.SearchTune=name=value,…` (or the option `--option` names),
//! and moves θ by the result ([`tuning`] has the arithmetic). The openings
//! walk through the book: iteration k starts `k × pairs` positions further
//! into the (seeded) order, so no two iterations replay one opening until
//! the book is used up.
//!
//! After every completed iteration the state file is replaced whole
//! ([`state`]) and one line is appended to the history (`STATE.history`
//! unless `--history` says otherwise): iteration, gains, the two sides'
//! values, the games and θ after. Run the same command again after any
//! interruption (Ctrl-C, a crash, a machine that went away): it goes on
//! from the last completed iteration, with the same signs and openings it
//! would have used. A state file of another run (other parameters, seed or
//! length) is refused, never overwritten.
//!
//! The match options are the match runner's (`janggi-match --help`),
//! except those SPSA decides: `--games`, `--rounds`, `--tournament`,
//! `--sprt`.

pub mod state;
pub mod tuning;

use super::config::{ArgError, MatchConfig};
use super::engine_process::{EngineProcess, ProcessError};
use super::runner::{run, MatchEnd, MatchError};
use super::{EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_USAGE};
use state::{SpsaState, StateError};
use std::fmt;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tuning::{ParamListError, TunedParam};

/// The usage text of `janggi-match spsa`.
pub const SPSA_USAGE: &str = "\
usage: spsa --params FILE --state FILE --iterations N [--pairs P] [--option NAME] [--history FILE]
            --engine cmd=PROGRAM [KEY=VALUE...] [--each KEY=VALUE...] [match options...]
  FILE of --params: one parameter a line, 'name, start, min, max, c_end, r_end' (# comments)
  the match options are janggi-match's, but for --games --rounds --tournament --sprt
  run the same command again to go on after an interruption
";

/// An SPSA run's settings.
#[derive(Clone, Debug)]
pub struct SpsaConfig {
    /// The parameters.
    pub params: Vec<TunedParam>,
    /// The state file.
    pub state: PathBuf,
    /// The history file (one line an iteration).
    pub history: PathBuf,
    /// Iterations in all.
    pub iterations: u64,
    /// Game pairs an iteration.
    pub pairs: usize,
    /// The engine option the values go to.
    pub option: String,
    /// The seed of the signs and openings.
    pub seed: u64,
    /// The match of one iteration: engine 0 is θ+, engine 1 θ−.
    pub base: MatchConfig,
}

/// Why an SPSA run cannot start or go on.
#[derive(Debug)]
pub enum SpsaError {
    /// A bad command line.
    Args(ArgError),
    /// The parameter list cannot be read.
    ParamsFile {
        /// The list.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// The parameter list does not parse.
    Params {
        /// The list.
        path: PathBuf,
        /// What is wrong.
        error: ParamListError,
    },
    /// The state file cannot be used.
    State(StateError),
    /// The engine did not start or stopped answering in the check.
    Engine {
        /// Its command.
        cmd: String,
        /// What went wrong.
        error: ProcessError,
    },
    /// The engine has no such option.
    NoOption {
        /// Its command.
        cmd: String,
        /// The option.
        option: String,
    },
    /// The engine answered the list with an error.
    Refused {
        /// Its command.
        cmd: String,
        /// Its `info string error …` line.
        reply: String,
    },
    /// An iteration's match could not start.
    Match(MatchError),
    /// The history file cannot be written.
    History {
        /// The file.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
}

impl fmt::Display for SpsaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpsaError::Args(e) => write!(f, "{e}"),
            SpsaError::ParamsFile { path, error } => {
                write!(f, "cannot read {}: {error}", path.display())
            }
            SpsaError::Params { path, error } => write!(f, "{}: {error}", path.display()),
            SpsaError::State(e) => write!(f, "{e}"),
            SpsaError::Engine { cmd, error } => write!(f, "engine {cmd}: {error}"),
            SpsaError::NoOption { cmd, option } => write!(
                f,
                "engine {cmd} has no option {option} (the engine's tuning build has SearchTune: cargo build --release --features tune)"
            ),
            SpsaError::Refused { cmd, reply } => {
                write!(f, "engine {cmd} refuses the parameter list: {reply}")
            }
            SpsaError::Match(e) => write!(f, "{e}"),
            SpsaError::History { path, error } => write!(f, "{}: {error}", path.display()),
        }
    }
}

impl std::error::Error for SpsaError {}

impl From<StateError> for SpsaError {
    fn from(e: StateError) -> SpsaError {
        SpsaError::State(e)
    }
}

fn usage_error(msg: impl fmt::Display) -> SpsaError {
    SpsaError::Args(ArgError(msg.to_string()))
}

impl SpsaConfig {
    /// Parses the words after `spsa`; reads the parameter list.
    ///
    /// # Errors
    /// [`SpsaError::Args`], [`SpsaError::ParamsFile`] or
    /// [`SpsaError::Params`], with a message for the user.
    pub fn parse(args: &[String]) -> Result<SpsaConfig, SpsaError> {
        let mut rest: Vec<String> = Vec::new();
        let mut engine: Option<Vec<String>> = None;
        let (mut params, mut state, mut history) = (None, None, None);
        let mut iterations: Option<u64> = None;
        let mut pairs = 1usize;
        let mut option = "SearchTune".to_string();
        let mut i = 0;
        while i < args.len() {
            let a = args[i].as_str();
            let opt = a.trim_start_matches('-');
            let is_opt = a.starts_with('-')
                && !opt.is_empty()
                && !opt.starts_with(|c: char| c.is_ascii_digit());
            let value = || {
                args.get(i + 1)
                    .filter(|v| !v.starts_with("--"))
                    .cloned()
                    .ok_or_else(|| usage_error(format!("--{opt} needs a value")))
            };
            match (is_opt, opt) {
                (true, "params") => params = Some(value()?),
                (true, "state") => state = Some(value()?),
                (true, "history") => history = Some(value()?),
                (true, "option") => option = value()?,
                (true, "iterations") => {
                    iterations = Some(
                        value()?
                            .parse()
                            .map_err(|_| usage_error("--iterations needs a whole number"))?,
                    )
                }
                (true, "pairs") => {
                    pairs = value()?
                        .parse()
                        .map_err(|_| usage_error("--pairs needs a whole number"))?
                }
                (true, "games" | "rounds" | "tournament" | "sprt") => {
                    return Err(usage_error(format!(
                        "--{opt} is decided by SPSA (use --pairs and --iterations)"
                    )))
                }
                (true, "engine") => {
                    if engine.is_some() {
                        return Err(usage_error("spsa tunes one engine: give --engine once"));
                    }
                    let mut words = Vec::new();
                    while let Some(w) = args.get(i + 1).filter(|w| !w.starts_with('-')) {
                        words.push(w.clone());
                        i += 1;
                    }
                    engine = Some(words);
                    i += 1;
                    continue;
                }
                _ => {
                    rest.push(args[i].clone());
                    i += 1;
                    continue;
                }
            }
            i += 2;
        }
        let params_path =
            PathBuf::from(params.ok_or_else(|| usage_error("--params FILE is needed"))?);
        let state = PathBuf::from(state.ok_or_else(|| usage_error("--state FILE is needed"))?);
        let iterations = iterations.ok_or_else(|| usage_error("--iterations N is needed"))?;
        if iterations == 0 || pairs == 0 {
            return Err(usage_error("--iterations and --pairs must be at least 1"));
        }
        let engine = engine.ok_or_else(|| usage_error("--engine cmd=PROGRAM is needed"))?;
        let text =
            std::fs::read_to_string(&params_path).map_err(|error| SpsaError::ParamsFile {
                path: params_path.clone(),
                error,
            })?;
        let params = tuning::parse_params(&text).map_err(|error| SpsaError::Params {
            path: params_path.clone(),
            error,
        })?;
        let history = history.map_or_else(
            || {
                let mut h = state.as_os_str().to_owned();
                h.push(".history");
                PathBuf::from(h)
            },
            PathBuf::from,
        );
        // The runner parses the rest with two copies of the engine.
        let mut words = rest;
        for name in ["plus", "minus"] {
            words.push("--engine".to_string());
            words.extend(engine.iter().filter(|w| !w.starts_with("name=")).cloned());
            words.push(format!("name={name}"));
        }
        let mut base = MatchConfig::parse(&words).map_err(SpsaError::Args)?;
        let seed = *base.seed.get_or_insert(1);
        base.games = 2 * pairs;
        base.rounds = 1;
        base.sprt = None;
        Ok(SpsaConfig {
            params,
            state,
            history,
            iterations,
            pairs,
            option,
            seed,
            base,
        })
    }

    /// The match of iteration `k` between the two sides' values.
    pub fn iteration_match(&self, k: u64, plus: &[i64], minus: &[i64]) -> MatchConfig {
        let mut cfg = self.base.clone();
        for (engine, values) in cfg.engines.iter_mut().zip([plus, minus]) {
            let tuned = tuning::tune_value(&self.params, values);
            match engine
                .options
                .iter_mut()
                .find(|(k, _)| k.eq_ignore_ascii_case(&self.option))
            {
                // The engine's own fixed settings first, the tuned ones after.
                Some((_, v)) => *v = format!("{v},{tuned}"),
                None => engine.options.push((self.option.clone(), tuned)),
            }
        }
        let step = usize::try_from(k).unwrap_or(0).wrapping_mul(self.pairs);
        cfg.openings.start = self.base.openings.start.wrapping_add(step);
        cfg
    }
}

/// Checks, before any game, that the engine has the option the values go
/// to and takes the list's names and ranges (a build without the option,
/// or a misspelt name, would play every game with the defaults and tune
/// nothing): the extreme values of every parameter are set once, and an
/// `info string error` in reply stops the run.
fn check_option(cfg: &SpsaConfig, stop: &AtomicBool) -> Result<(), SpsaError> {
    let e = &cfg.base.engines[0];
    let timeout = Duration::from_millis(e.init_timeout_ms);
    let engine_err = |error| SpsaError::Engine {
        cmd: e.launch.cmd.clone(),
        error,
    };
    let mut p = EngineProcess::start(&e.launch, "spsa", cfg.base.debug, timeout, stop)
        .map_err(engine_err)?;
    let Some(name) = p.option(&cfg.option).map(str::to_string) else {
        return Err(SpsaError::NoOption {
            cmd: e.launch.cmd.clone(),
            option: cfg.option.clone(),
        });
    };
    for bound in [|q: &TunedParam| q.min, |q: &TunedParam| q.max] {
        let values: Vec<i64> = cfg.params.iter().map(|q| bound(q).round() as i64).collect();
        p.set_option(&name, &tuning::tune_value(&cfg.params, &values))
            .map_err(engine_err)?;
        let lines = p.sync_lines(timeout, stop).map_err(engine_err)?;
        if let Some(err) = lines.iter().find(|l| l.starts_with("info string error")) {
            return Err(SpsaError::Refused {
                cmd: e.launch.cmd.clone(),
                reply: err.clone(),
            });
        }
    }
    Ok(())
}

fn fmt_values(params: &[TunedParam], values: &[f64]) -> String {
    params
        .iter()
        .zip(values)
        .map(|(p, v)| format!("{} {v:.2}", p.name))
        .collect::<Vec<_>>()
        .join(", ")
}

fn join<T: ToString>(values: &[T]) -> String {
    values
        .iter()
        .map(T::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// Runs `janggi-match spsa ARGS…`; returns the exit code (0 when every
/// iteration is done, [`EXIT_INTERRUPTED`] after Ctrl-C, [`EXIT_USAGE`],
/// [`EXIT_FAILURE`]).
pub fn run_spsa(args: &[String], out: &mut dyn Write, stop: &AtomicBool) -> i32 {
    if args
        .iter()
        .any(|a| matches!(a.as_str(), "-h" | "--help" | "help"))
    {
        let _ = write!(out, "{SPSA_USAGE}");
        return 0;
    }
    let cfg = match SpsaConfig::parse(args) {
        Ok(c) => c,
        Err(e) => {
            let _ = writeln!(out, "error: {e}");
            let _ = write!(out, "{SPSA_USAGE}");
            return EXIT_USAGE;
        }
    };
    match spsa_loop(&cfg, out, stop) {
        Ok(code) => code,
        Err(e) => {
            let _ = writeln!(out, "error: {e}");
            EXIT_FAILURE
        }
    }
}

fn spsa_loop(cfg: &SpsaConfig, out: &mut dyn Write, stop: &AtomicBool) -> Result<i32, SpsaError> {
    let mut st = match SpsaState::load(&cfg.state)? {
        Some(st) => {
            st.check(&cfg.params, cfg.seed, cfg.iterations)?;
            if st.done < st.iterations {
                check_option(cfg, stop)?;
            }
            let _ = writeln!(
                out,
                "SPSA: going on from iteration {} of {} ({})",
                st.done + 1,
                st.iterations,
                cfg.state.display()
            );
            st
        }
        None => {
            check_option(cfg, stop)?;
            let st = SpsaState::new(&cfg.params, cfg.seed, cfg.iterations);
            st.save(&cfg.state)?;
            let _ = writeln!(
                out,
                "SPSA: {} iterations of {} pairs, seed {}, state {}",
                cfg.iterations,
                cfg.pairs,
                cfg.seed,
                cfg.state.display()
            );
            st
        }
    };
    let names: Vec<&str> = cfg.params.iter().map(|p| p.name.as_str()).collect();
    while st.done < st.iterations {
        let k = st.done;
        let g = tuning::gains(k, cfg.iterations);
        let delta = tuning::signs(cfg.seed, k, cfg.params.len());
        let theta = st.values();
        let pert = tuning::perturb(&cfg.params, &theta, &delta, g);
        let m = cfg.iteration_match(k, &pert.plus, &pert.minus);
        let stopped = || stop.load(Ordering::SeqCst) || janggi_interrupt::interrupted();
        let report = match run(&m, &mut std::io::sink(), stop) {
            // An engine start cut short by the stop is the stop, not a failure.
            Err(_) if stopped() => None,
            Err(e) => return Err(SpsaError::Match(e)),
            Ok(r) if r.end == MatchEnd::Interrupted => None,
            Ok(r) => Some(r),
        };
        let Some(report) = report else {
            let _ = writeln!(
                out,
                "SPSA: interrupted in iteration {}; it is not counted. Run the same command to go on.",
                k + 1
            );
            return Ok(EXIT_INTERRUPTED);
        };
        let t = report.pairs.get(&(0, 1)).copied().unwrap_or_default();
        let result = f64::from(t.wins) - f64::from(t.losses);
        let next = tuning::update(&cfg.params, &theta, &delta, g, result);
        st.done += 1;
        st.wins += u64::from(t.wins);
        st.losses += u64::from(t.losses);
        st.draws += u64::from(t.draws);
        for ((_, v), n) in st.theta.iter_mut().zip(&next) {
            *v = *n;
        }
        st.save(&cfg.state)?;
        let line = format!(
            "{}\t{:.4}\t{:.4}\t{}\t{}\t{}-{}-{}\t{}\n",
            st.done,
            g.c_scale,
            g.r_scale,
            join(&pert.plus),
            join(&pert.minus),
            t.wins,
            t.losses,
            t.draws,
            join(&next.iter().map(|v| format!("{v:.3}")).collect::<Vec<_>>())
        );
        append_history(cfg, &names, &line)?;
        let _ = writeln!(
            out,
            "Iteration {}/{}: plus {}-{}-{} against minus; {}",
            st.done,
            st.iterations,
            t.wins,
            t.losses,
            t.draws,
            fmt_values(&cfg.params, &next)
        );
        let _ = out.flush();
    }
    let values = st.values();
    let rounded = tuning::rounded(&cfg.params, &values);
    let _ = writeln!(
        out,
        "SPSA done: {} iterations, plus against minus {}-{}-{}",
        st.done, st.wins, st.losses, st.draws
    );
    for (p, v) in cfg.params.iter().zip(&values) {
        let _ = writeln!(out, "  {}: {} -> {v:.2}", p.name, p.start);
    }
    let _ = writeln!(
        out,
        "{} value: {}",
        cfg.option,
        tuning::tune_value(&cfg.params, &rounded)
    );
    Ok(0)
}

fn append_history(cfg: &SpsaConfig, names: &[&str], line: &str) -> Result<(), SpsaError> {
    let history_err = |error| SpsaError::History {
        path: cfg.history.clone(),
        error,
    };
    let fresh = !cfg.history.exists();
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&cfg.history)
        .map_err(history_err)?;
    let mut text = String::new();
    if fresh {
        text = format!(
            "# iteration\tc/c_end\tR/r_end\tplus ({n})\tminus\tplus W-L-D\ttheta after ({n})\n",
            n = names.join(",")
        );
    }
    text += line;
    f.write_all(text.as_bytes()).map_err(history_err)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    /// A parameter file of this test's own: tests run on parallel threads
    /// of one process, so the process id alone would let one test delete
    /// the file another is reading.
    fn params_file(test: &str) -> PathBuf {
        let p = std::env::temp_dir().join(format!("spsa-params-{}-{test}.txt", std::process::id()));
        std::fs::write(&p, "a, 10, 0, 20, 2, 0.01\nb, 5, 0, 9, 1, 0.01\n").unwrap();
        p
    }

    #[test]
    fn the_command_line_makes_two_engines_and_keeps_the_match_options() {
        let p = params_file("command-line");
        let cfg = SpsaConfig::parse(&words(&format!(
            "--params {} --state s.state --iterations 50 --pairs 3 \
             --engine cmd=eng name=x option.SearchTune=rfp_depth=7 --each nodes=100 \
             --concurrency 2 --openings setups start=5 --variant janggi",
            p.display()
        )))
        .unwrap();
        assert_eq!(cfg.iterations, 50);
        assert_eq!(cfg.base.games, 6);
        assert_eq!(cfg.seed, 1, "the default seed is written down");
        assert_eq!(cfg.history, PathBuf::from("s.state.history"));
        assert_eq!(cfg.base.engines[0].name, "plus");
        assert_eq!(cfg.base.engines[1].name, "minus");
        assert_eq!(cfg.base.concurrency, 2);
        let m = cfg.iteration_match(4, &[11, 4], &[9, 6]);
        assert_eq!(
            m.openings.start,
            4 + 4 * 3,
            "start=5 is the 5th opening (index 4)"
        );
        let opt = |i: usize| {
            m.engines[i]
                .options
                .iter()
                .find(|(k, _)| k == "SearchTune")
                .map(|(_, v)| v.clone())
        };
        assert_eq!(opt(0).as_deref(), Some("rfp_depth=7,a=11,b=4"));
        assert_eq!(opt(1).as_deref(), Some("rfp_depth=7,a=9,b=6"));
        std::fs::remove_file(p).unwrap();
    }

    #[test]
    fn what_spsa_decides_cannot_be_given() {
        let p = params_file("refusals");
        let base = format!(
            "--params {} --state s --iterations 5 --engine cmd=eng",
            p.display()
        );
        for (extra, what) in [
            ("--games 10", "decided by SPSA"),
            ("--sprt elo0=0 elo1=5", "decided by SPSA"),
            ("--engine cmd=other", "once"),
            ("--iterations 0", "at least 1"),
        ] {
            let e = SpsaConfig::parse(&words(&format!("{base} {extra}")))
                .unwrap_err()
                .to_string();
            assert!(e.contains(what), "{extra}: {e}");
        }
        for missing in ["--params", "--state", "--iterations", "--engine"] {
            let args: Vec<String> = words(&base);
            let pos = args.iter().position(|w| w == missing).unwrap();
            let mut cut = args.clone();
            cut.drain(pos..pos + 2);
            let e = SpsaConfig::parse(&cut).unwrap_err();
            assert!(matches!(e, SpsaError::Args(_)), "{missing}: {e}");
            assert!(e.to_string().contains("is needed"), "{missing}: {e}");
        }
        std::fs::remove_file(p).unwrap();
    }
}
