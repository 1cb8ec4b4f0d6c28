//! The engine behind the board: a UCI child process over pipes.
//!
//! A reader thread turns the child's stdout into lines on a channel, so
//! every wait has a deadline and a cancel check; `info` lines are handed
//! to the caller as they come (for the evaluation bar and the PV).

use std::fmt;
use std::io::{self, BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// How long the handshake and `isready` may take.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// How long past its move time the engine may take before `stop`, and
/// again after `stop` before it is taken for hung (the default of
/// [`crate::Config::grace`]).
pub const GRACE: Duration = Duration::from_secs(5);
const POLL: Duration = Duration::from_millis(20);

/// The engine command line, fixed when the server starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineCommand {
    /// Program.
    pub program: PathBuf,
    /// Arguments.
    pub args: Vec<String>,
}

impl EngineCommand {
    /// Splits `CMD ARGS…` on white space (no shell).
    pub fn parse(text: &str) -> Option<EngineCommand> {
        let mut it = text.split_whitespace();
        let program = PathBuf::from(it.next()?);
        Some(EngineCommand {
            program,
            args: it.map(str::to_string).collect(),
        })
    }

    /// This same binary's protocol loop (`janggi-engine uci`).
    pub fn this_binary() -> io::Result<EngineCommand> {
        Ok(EngineCommand {
            program: std::env::current_exe()?,
            args: vec!["uci".to_string()],
        })
    }
}

/// What went wrong with the engine.
#[derive(Debug)]
pub enum EngineError {
    /// It could not be started.
    Spawn(io::Error),
    /// It exited or closed its output.
    Crashed(String),
    /// No answer in time.
    Timeout(&'static str),
    /// The search was no longer wanted.
    Cancelled,
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Spawn(e) => write!(f, "could not start the engine: {e}"),
            EngineError::Crashed(s) => write!(f, "the engine stopped ({s})"),
            EngineError::Timeout(w) => write!(f, "the engine sent no {w} in time"),
            EngineError::Cancelled => write!(f, "cancelled"),
        }
    }
}

impl std::error::Error for EngineError {}

/// One `info` line's search report.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    /// Depth.
    pub depth: Option<u32>,
    /// Centipawns from the side to move's view.
    pub cp: Option<i32>,
    /// Mate in N (negative: being mated).
    pub mate: Option<i32>,
    /// Win/draw/loss in permille (UCI_ShowWDL).
    pub wdl: Option<[u32; 3]>,
    /// Nodes.
    pub nodes: Option<u64>,
    /// Which line of a MultiPV search (1 = the best; engines at a low
    /// Skill Level search several and report them all).
    pub multipv: Option<u32>,
    /// The principal variation.
    pub pv: Vec<String>,
}

/// Parses an `info` line; `None` for lines without a score or a PV.
pub fn parse_info(line: &str) -> Option<Info> {
    let mut it = line.split_whitespace();
    if it.next() != Some("info") {
        return None;
    }
    let mut info = Info::default();
    while let Some(tok) = it.next() {
        match tok {
            "depth" => info.depth = it.next().and_then(|t| t.parse().ok()),
            "nodes" => info.nodes = it.next().and_then(|t| t.parse().ok()),
            "multipv" => info.multipv = it.next().and_then(|t| t.parse().ok()),
            "score" => match it.next() {
                Some("cp") => info.cp = it.next().and_then(|t| t.parse().ok()),
                Some("mate") => info.mate = it.next().and_then(|t| t.parse().ok()),
                _ => {}
            },
            "wdl" => {
                let w: Vec<u32> = it.by_ref().take(3).filter_map(|t| t.parse().ok()).collect();
                if let [a, b, c] = w[..] {
                    info.wdl = Some([a, b, c]);
                }
            }
            "pv" => {
                info.pv = it.by_ref().take(32).map(str::to_string).collect();
                break;
            }
            "string" => return None,
            _ => {}
        }
    }
    (info.cp.is_some() || info.mate.is_some() || !info.pv.is_empty()).then_some(info)
}

enum Line {
    Text(String),
    Eof,
}

/// One `go`: the line sent, how long the engine may take by the clock
/// (its whole remaining time, or its move time), and the level's cap
/// after which the board sends `stop` itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Go {
    /// `go movetime 1000` or `go wtime … btime … byoyomi … periods …`.
    pub line: String,
    /// The time the engine has for this move by the clock.
    pub budget: Duration,
    /// The level's cap on thinking (`stop` after it), if any.
    pub cap: Option<Duration>,
}

impl Go {
    /// `go movetime MS`.
    pub fn movetime(ms: u32) -> Go {
        Go {
            line: format!("go movetime {ms}"),
            budget: Duration::from_millis(u64::from(ms)),
            cap: None,
        }
    }
}

/// A running UCI engine.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<Line>,
    /// `id name`.
    pub name: Option<String>,
    /// Option names from the handshake.
    pub options: Vec<String>,
    /// Which settings it was configured for (the session generation).
    pub configured: Option<u64>,
}

impl fmt::Debug for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Engine")
            .field("pid", &self.child.id())
            .field("name", &self.name)
            .finish()
    }
}

fn option_name(line: &str) -> Option<String> {
    let rest = line
        .strip_prefix("option")?
        .trim_start()
        .strip_prefix("name")?;
    let name = rest.find(" type ").map_or(rest, |i| &rest[..i]).trim();
    (!name.is_empty()).then(|| name.to_string())
}

impl Engine {
    /// Starts the engine and completes `uci` … `uciok`.
    ///
    /// # Errors
    /// [`EngineError`].
    pub fn start(cmd: &EngineCommand) -> Result<Engine, EngineError> {
        let mut child = Command::new(&cmd.program)
            .args(&cmd.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(EngineError::Spawn)?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(EngineError::Spawn(io::Error::other("no pipes")));
        };
        let (tx, rx) = mpsc::channel();
        thread::Builder::new()
            .name("engine-reader".into())
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match reader.read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => {
                            let _ = tx.send(Line::Eof);
                            return;
                        }
                        Ok(_) => {
                            let text = String::from_utf8_lossy(&buf).trim().to_string();
                            if tx.send(Line::Text(text)).is_err() {
                                return;
                            }
                        }
                    }
                }
            })
            .map_err(EngineError::Spawn)?;
        let mut e = Engine {
            child,
            stdin: Some(stdin),
            rx,
            name: None,
            options: Vec::new(),
            configured: None,
        };
        e.send("uci")?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        loop {
            let line = e.next_line(deadline, "uciok")?;
            if line == "uciok" {
                return Ok(e);
            }
            if let Some(n) = option_name(&line) {
                e.options.push(n);
            } else if let Some(n) = line.strip_prefix("id name ") {
                e.name = Some(n.trim().to_string());
            }
        }
    }

    /// Whether the engine offered option `name` (as spelled by it).
    pub fn option(&self, name: &str) -> Option<String> {
        self.options
            .iter()
            .find(|o| o.eq_ignore_ascii_case(name))
            .cloned()
    }

    /// Sends one line.
    ///
    /// # Errors
    /// [`EngineError::Crashed`] when the pipe is closed.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(EngineError::Crashed("input closed".into()));
        };
        stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.write_all(b"\n"))
            .and_then(|()| stdin.flush())
            .map_err(|e| EngineError::Crashed(format!("cannot write: {e}")))
    }

    fn status(&mut self) -> String {
        let until = Instant::now() + Duration::from_millis(200);
        loop {
            match self.child.try_wait() {
                Ok(Some(st)) => return st.to_string(),
                Ok(None) if Instant::now() < until => thread::sleep(Duration::from_millis(5)),
                Ok(None) => return "output closed".into(),
                Err(e) => return format!("wait failed: {e}"),
            }
        }
    }

    fn next_line(&mut self, deadline: Instant, what: &'static str) -> Result<String, EngineError> {
        loop {
            let now = Instant::now();
            if now >= deadline {
                return Err(EngineError::Timeout(what));
            }
            match self.rx.recv_timeout((deadline - now).min(POLL)) {
                Ok(Line::Text(t)) => return Ok(t),
                Ok(Line::Eof) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(EngineError::Crashed(self.status()))
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    /// `isready` … `readyok`.
    ///
    /// # Errors
    /// [`EngineError`].
    pub fn sync(&mut self) -> Result<(), EngineError> {
        self.send("isready")?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        while self.next_line(deadline, "readyok")? != "readyok" {}
        Ok(())
    }

    /// Sends `position` and `go` (see [`Go`]), hands every `info` report
    /// to `on_info`, and returns the `bestmove` text. The search is
    /// stopped (`stop`) when [`Go::cap`] has passed, or when its
    /// [`Go::budget`] plus `grace` has passed without an answer; after
    /// `stop` it has `grace` more to answer before it is taken for hung.
    /// `cancelled` is asked while waiting; once it says yes the search is
    /// stopped and [`EngineError::Cancelled`] returned.
    ///
    /// # Errors
    /// [`EngineError`]: crashed, hung (no answer even after `stop`), cancelled.
    pub fn think(
        &mut self,
        position: &str,
        go: &Go,
        grace: Duration,
        cancelled: &dyn Fn() -> bool,
        on_info: &mut dyn FnMut(Info),
    ) -> Result<String, EngineError> {
        self.send(position)?;
        self.send(&go.line)?;
        let start = Instant::now();
        let mut due = start + go.budget + grace;
        if let Some(cap) = go.cap {
            due = due.min(start + cap);
        }
        let mut stopped = false;
        let mut cancel = false;
        loop {
            if !cancel && cancelled() {
                cancel = true;
                if !stopped {
                    stopped = true;
                    self.send("stop")?;
                    due = Instant::now() + grace;
                }
            }
            let now = Instant::now();
            if now >= due {
                if stopped {
                    return Err(EngineError::Timeout("bestmove"));
                }
                stopped = true;
                self.send("stop")?;
                due = now + grace;
            }
            match self
                .rx
                .recv_timeout(due.saturating_duration_since(now).min(POLL))
            {
                Ok(Line::Text(t)) => {
                    if let Some(rest) = t.strip_prefix("bestmove") {
                        if cancel {
                            return Err(EngineError::Cancelled);
                        }
                        return Ok(rest.split_whitespace().next().unwrap_or("").to_string());
                    }
                    if let Some(info) = parse_info(&t) {
                        on_info(info);
                    }
                }
                Ok(Line::Eof) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(EngineError::Crashed(self.status()))
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    /// Sends `quit`, then kills the process if it is still there.
    pub fn shutdown(&mut self) {
        let _ = self.send("quit");
        self.stdin = None;
        let until = Instant::now() + Duration::from_millis(300);
        while Instant::now() < until {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.shutdown();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines() {
        let i = parse_info(
            "info depth 7 seldepth 9 score cp -35 wdl 100 200 700 nodes 1234 pv b1c3 a7a6",
        )
        .unwrap();
        assert_eq!(i.depth, Some(7));
        assert_eq!(i.cp, Some(-35));
        assert_eq!(i.wdl, Some([100, 200, 700]));
        assert_eq!(i.nodes, Some(1234));
        assert_eq!(i.pv, vec!["b1c3", "a7a6"]);
        assert_eq!(parse_info("info string hello"), None);
        assert_eq!(
            parse_info("info depth x score mate -3").unwrap().mate,
            Some(-3)
        );
        assert_eq!(parse_info("bestmove a1a2"), None);
        let second = parse_info("info depth 1 multipv 2 score cp -214 pv e9e8").unwrap();
        assert_eq!((second.multipv, second.cp), (Some(2), Some(-214)));
        assert_eq!(i.multipv, None);
        assert_eq!(parse_info("info depth"), None);
    }

    #[test]
    fn command_split() {
        let c = EngineCommand::parse("  /usr/bin/fsf  --x y ").unwrap();
        assert_eq!(c.program, PathBuf::from("/usr/bin/fsf"));
        assert_eq!(c.args, vec!["--x", "y"]);
        assert_eq!(EngineCommand::parse("   "), None);
    }
}
