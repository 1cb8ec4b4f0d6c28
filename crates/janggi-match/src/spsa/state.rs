//! The SPSA run's state file: what a resumed run needs, written (to a
//! temporary file, then renamed over the old one) after every completed
//! iteration, so that an interruption at any moment loses at most the
//! iteration being played, and never leaves a half-written file.
//!
//! ```text
//! # janggi-match spsa state (written after each iteration)
//! seed 5
//! iterations 1000
//! done 12
//! wins 20
//! losses 18
//! draws 10
//! param rfp_margin 203.4150000000
//! param lmr_div 220.1000000000
//! ```
//!
//! `wins`, `losses` and `draws` are θ+'s games against θ− over all the
//! iterations done.

use super::tuning::TunedParam;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// Where a run stands.
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaState {
    /// The seed of the signs and of the openings.
    pub seed: u64,
    /// Iterations planned.
    pub iterations: u64,
    /// Iterations completed.
    pub done: u64,
    /// θ+'s wins over all the iterations done.
    pub wins: u64,
    /// θ+'s losses.
    pub losses: u64,
    /// Draws.
    pub draws: u64,
    /// The parameters' current values, in the list's order.
    pub theta: Vec<(String, f64)>,
}

/// A state file that cannot be used.
#[derive(Debug)]
pub enum StateError {
    /// It could not be read or written.
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        error: io::Error,
    },
    /// A line does not parse.
    Syntax {
        /// 1-based line.
        line: usize,
        /// The line.
        text: String,
    },
    /// It belongs to another run (other parameters, seed or length).
    Mismatch(String),
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StateError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            StateError::Syntax { line, text } => {
                write!(f, "state file, line {line}: cannot read '{text}'")
            }
            StateError::Mismatch(m) => write!(f, "state file is for another run: {m}"),
        }
    }
}

impl std::error::Error for StateError {}

impl SpsaState {
    /// A run about to start: θ at the list's start values.
    pub fn new(params: &[TunedParam], seed: u64, iterations: u64) -> SpsaState {
        SpsaState {
            seed,
            iterations,
            done: 0,
            wins: 0,
            losses: 0,
            draws: 0,
            theta: params.iter().map(|p| (p.name.clone(), p.start)).collect(),
        }
    }

    /// θ's values alone.
    pub fn values(&self) -> Vec<f64> {
        self.theta.iter().map(|(_, v)| *v).collect()
    }

    /// The file's text.
    pub fn to_text(&self) -> String {
        let mut s = String::from("# janggi-match spsa state (written after each iteration)\n");
        s += &format!(
            "seed {}\niterations {}\ndone {}\nwins {}\nlosses {}\ndraws {}\n",
            self.seed, self.iterations, self.done, self.wins, self.losses, self.draws
        );
        for (name, v) in &self.theta {
            s += &format!("param {name} {v:.10}\n");
        }
        s
    }

    /// Reads the file's text.
    ///
    /// # Errors
    /// [`StateError::Syntax`] for a line that does not parse or a missing
    /// field.
    pub fn from_text(text: &str) -> Result<SpsaState, StateError> {
        let mut st = SpsaState {
            seed: 0,
            iterations: 0,
            done: 0,
            wins: 0,
            losses: 0,
            draws: 0,
            theta: Vec::new(),
        };
        let mut seen = [false; 6];
        let mut lines = 0;
        for (i, raw) in text.lines().enumerate() {
            lines = i + 1;
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let bad = || StateError::Syntax {
                line: i + 1,
                text: line.to_string(),
            };
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                ["param", name, v] => {
                    let v: f64 = v
                        .parse()
                        .ok()
                        .filter(|v: &f64| v.is_finite())
                        .ok_or_else(bad)?;
                    st.theta.push(((*name).to_string(), v));
                }
                [key, v] => {
                    let v: u64 = v.parse().map_err(|_| bad())?;
                    let slot = match *key {
                        "seed" => 0,
                        "iterations" => 1,
                        "done" => 2,
                        "wins" => 3,
                        "losses" => 4,
                        "draws" => 5,
                        _ => return Err(bad()),
                    };
                    seen[slot] = true;
                    *[
                        &mut st.seed,
                        &mut st.iterations,
                        &mut st.done,
                        &mut st.wins,
                        &mut st.losses,
                        &mut st.draws,
                    ][slot] = v;
                }
                _ => return Err(bad()),
            }
        }
        if seen.contains(&false) || st.theta.is_empty() || st.done > st.iterations {
            return Err(StateError::Syntax {
                line: lines,
                text: "(incomplete state)".to_string(),
            });
        }
        Ok(st)
    }

    /// Checks that this state continues the run described.
    ///
    /// # Errors
    /// [`StateError::Mismatch`] saying what differs.
    pub fn check(
        &self,
        params: &[TunedParam],
        seed: u64,
        iterations: u64,
    ) -> Result<(), StateError> {
        let names: Vec<&str> = params.iter().map(|p| p.name.as_str()).collect();
        let ours: Vec<&str> = self.theta.iter().map(|(n, _)| n.as_str()).collect();
        if names != ours {
            return Err(StateError::Mismatch(format!(
                "it tunes {} and the list {}",
                ours.join(","),
                names.join(",")
            )));
        }
        if self.seed != seed || self.iterations != iterations {
            return Err(StateError::Mismatch(format!(
                "it has seed {} and {} iterations, the command seed {seed} and {iterations}",
                self.seed, self.iterations
            )));
        }
        Ok(())
    }

    /// Reads the state at `path`; `Ok(None)` when there is none yet.
    ///
    /// # Errors
    /// [`StateError`] when the file exists but cannot be read or parsed.
    pub fn load(path: &Path) -> Result<Option<SpsaState>, StateError> {
        match std::fs::read_to_string(path) {
            Ok(text) => SpsaState::from_text(&text).map(Some),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(error) => Err(StateError::Io {
                path: path.to_path_buf(),
                error,
            }),
        }
    }

    /// Writes the state to `path` whole: a temporary file beside it,
    /// flushed to disk, then renamed over it.
    ///
    /// # Errors
    /// [`StateError::Io`].
    pub fn save(&self, path: &Path) -> Result<(), StateError> {
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        let tmp = PathBuf::from(tmp);
        let io_err = |p: &Path, error| StateError::Io {
            path: p.to_path_buf(),
            error,
        };
        {
            use std::io::Write;
            let mut f = std::fs::File::create(&tmp).map_err(|e| io_err(&tmp, e))?;
            f.write_all(self.to_text().as_bytes())
                .and_then(|()| f.sync_all())
                .map_err(|e| io_err(&tmp, e))?;
        }
        std::fs::rename(&tmp, path).map_err(|e| io_err(path, e))
    }
}

#[cfg(test)]
mod tests {
    use super::super::tuning::parse_params;
    use super::*;

    fn params() -> Vec<TunedParam> {
        parse_params("a, 10, 0, 20, 2, 0.01\nb, 5, 0, 9, 1, 0.01\n").unwrap()
    }

    #[test]
    fn the_text_round_trips() {
        let mut st = SpsaState::new(&params(), 9, 100);
        st.done = 7;
        st.wins = 5;
        st.losses = 6;
        st.draws = 3;
        st.theta[0].1 = 11.123_456_789;
        let back = SpsaState::from_text(&st.to_text()).unwrap();
        assert_eq!(back, st);
        back.check(&params(), 9, 100).unwrap();
    }

    #[test]
    fn another_runs_state_is_refused() {
        let st = SpsaState::new(&params(), 9, 100);
        assert!(matches!(
            st.check(&params(), 8, 100),
            Err(StateError::Mismatch(_))
        ));
        assert!(matches!(
            st.check(&params(), 9, 50),
            Err(StateError::Mismatch(_))
        ));
        let other = parse_params("a, 10, 0, 20, 2, 0.01\n").unwrap();
        let e = st.check(&other, 9, 100).unwrap_err();
        assert!(e.to_string().contains("it tunes a,b"), "{e}");
    }

    #[test]
    fn broken_files_are_errors_not_fresh_starts() {
        let good = SpsaState::new(&params(), 1, 10).to_text();
        for broken in [
            good.replace("done 0", "done x"),
            good.replace("done 0\n", ""),
            good.replace("param b 5.0000000000", "param b"),
            good.replace("seed 1", "colour 1"),
            good.replace("done 0", "done 11"),
            String::new(),
        ] {
            assert!(
                matches!(
                    SpsaState::from_text(&broken),
                    Err(StateError::Syntax { .. })
                ),
                "{broken}"
            );
        }
    }

    #[test]
    fn save_replaces_the_file_whole_and_load_reads_it() {
        let dir = std::env::temp_dir().join(format!("spsa-state-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("run.state");
        let _ = std::fs::remove_file(&path);
        assert_eq!(SpsaState::load(&path).unwrap(), None);
        let mut st = SpsaState::new(&params(), 3, 10);
        st.save(&path).unwrap();
        st.done = 1;
        st.theta[1].1 = 6.5;
        st.save(&path).unwrap();
        assert_eq!(SpsaState::load(&path).unwrap(), Some(st));
        assert!(!dir.join("run.state.tmp").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
