//! A protocol session driven line by line into an in-memory sink, shared
//! by the protocol, CECP and analysis tests; and the real binary over
//! pipes ([`spawn_engine`]).

use janggi::protocol::{Flow, MemorySink, Session};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

/// Generous upper bound for anything that should be prompt: a test that
/// would otherwise hang fails after it.
pub const LONG: Duration = Duration::from_secs(20);

/// A session and everything it has printed.
pub struct Harness {
    sink: MemorySink,
    session: Session,
}

impl Default for Harness {
    fn default() -> Harness {
        Harness::new()
    }
}

impl Harness {
    /// A fresh session (no dialect chosen yet).
    pub fn new() -> Harness {
        let sink = MemorySink::default();
        let session = Session::new(sink.clone());
        Harness { sink, session }
    }

    /// The session itself.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// Feeds one input line.
    pub fn send(&mut self, line: &str) -> Flow {
        self.session.handle_line(line)
    }

    /// Every line printed so far.
    pub fn lines(&self) -> Vec<String> {
        self.sink.lines()
    }

    /// Lines written after the first `skip` lines.
    pub fn since(&self, skip: usize) -> Vec<String> {
        self.lines().into_iter().skip(skip).collect()
    }

    /// How many printed lines start with `prefix`.
    pub fn count(&self, prefix: &str) -> usize {
        self.lines()
            .iter()
            .filter(|l| l.starts_with(prefix))
            .count()
    }

    /// Waits until at least `n` lines start with `prefix`; returns all lines.
    pub fn wait_count(&self, prefix: &str, n: usize) -> Vec<String> {
        let start = Instant::now();
        loop {
            let lines = self.lines();
            if lines.iter().filter(|l| l.starts_with(prefix)).count() >= n {
                return lines;
            }
            assert!(
                start.elapsed() < LONG,
                "no {n}x '{prefix}' within {LONG:?}; output:\n{}",
                lines.join("\n")
            );
            thread::sleep(Duration::from_millis(2));
        }
    }

    /// Waits for a line satisfying `pred` among those printed from line
    /// `from` on; returns the lines from `from` up to and with it.
    pub fn wait_from(&self, from: usize, pred: impl Fn(&str) -> bool) -> Vec<String> {
        let start = Instant::now();
        loop {
            let lines = self.since(from);
            if let Some(i) = lines.iter().position(|l| pred(l)) {
                return lines[..=i].to_vec();
            }
            assert!(
                start.elapsed() < LONG,
                "timed out; output:\n{}",
                self.lines().join("\n")
            );
            thread::sleep(Duration::from_millis(2));
        }
    }

    /// Sends a command and returns the lines it printed (synchronous
    /// commands only).
    pub fn ask(&mut self, line: &str) -> Vec<String> {
        let before = self.lines().len();
        self.send(line);
        self.since(before)
    }

    /// Sends `go …` (or any command ending in `bestmove`) and returns its
    /// output up to `bestmove`.
    pub fn go(&mut self, go: &str) -> Vec<String> {
        let before = self.lines().len();
        self.send(go);
        self.wait_from(before, |l| l.starts_with("bestmove"))
    }

    /// The FEN that `d` prints.
    pub fn fen(&mut self) -> String {
        let out = self.ask("d");
        let fen = out.iter().find_map(|l| l.strip_prefix("Fen: "));
        fen.unwrap_or_else(|| panic!("no Fen line in {out:?}"))
            .to_string()
    }

    /// The `info string error:` lines printed so far.
    pub fn errors(&self) -> Vec<String> {
        self.lines()
            .into_iter()
            .filter(|l| l.starts_with("info string error:"))
            .collect()
    }
}

/// Spawns the `janggi-engine` binary with `args` and piped stdin/stdout;
/// its stdout lines arrive on the channel (stderr is dropped).
pub fn spawn_engine(args: &[&str]) -> (Child, mpsc::Receiver<String>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_janggi-engine"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn janggi-engine");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    (child, rx)
}
