//! One engine as a child process: spawn, handshake, send lines, and read
//! replies with deadlines.
//!
//! A reader thread turns the engine's stdout into timestamped lines on a
//! channel, so waiting is `recv_timeout` and nothing ever blocks past a
//! deadline. Bad output (non-UTF-8, missing fields, garbage) never panics:
//! it is passed on as text for the referee to judge. The timestamp of the
//! `bestmove` line is taken when the reader thread reads it, so the time a
//! move took is measured from writing `go` to reading `bestmove`.

use janggi_core::board::Notation;
use std::fmt;
use std::io::{self, BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// How often waits look at the stop flag.
const POLL: Duration = Duration::from_millis(25);
/// How long `quit` may take before the process is killed.
const QUIT_WAIT: Duration = Duration::from_millis(300);
/// Mate scores are mapped to centipawns as ±(`MATE_CP` − plies).
pub const MATE_CP: i32 = 100_000;

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum EngineProtocol {
    /// UCI (Fairy-Stockfish's dialect for Janggi): squares `a1`–`i10`.
    #[default]
    Uci,
    /// USI: squares `9j`–`1a`, `usinewgame`, `bestmove resign`.
    Usi,
}

impl EngineProtocol {
    /// Parses `uci` / `usi`.
    pub fn parse(text: &str) -> Option<EngineProtocol> {
        match text.to_ascii_lowercase().as_str() {
            "uci" => Some(EngineProtocol::Uci),
            "usi" => Some(EngineProtocol::Usi),
            _ => None,
        }
    }

    /// Move notation of the protocol.
    pub const fn notation(self) -> Notation {
        match self {
            EngineProtocol::Uci => Notation::Uci,
            EngineProtocol::Usi => Notation::Usi,
        }
    }

    const fn hello(self) -> &'static str {
        match self {
            EngineProtocol::Uci => "uci",
            EngineProtocol::Usi => "usi",
        }
    }

    const fn hello_ok(self) -> &'static str {
        match self {
            EngineProtocol::Uci => "uciok",
            EngineProtocol::Usi => "usiok",
        }
    }

    const fn new_game(self) -> &'static str {
        match self {
            EngineProtocol::Uci => "ucinewgame",
            EngineProtocol::Usi => "usinewgame",
        }
    }
}

/// How to start an engine.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Launch {
    /// Program.
    pub cmd: String,
    /// Arguments.
    pub args: Vec<String>,
    /// Working directory.
    pub dir: Option<PathBuf>,
    /// Protocol.
    pub protocol: EngineProtocol,
}

/// Something went wrong talking to an engine's process.
#[derive(Debug)]
pub enum ProcessError {
    /// The process could not be started.
    Spawn(io::Error),
    /// The process closed its output (crashed or exited).
    Crashed(String),
    /// No answer in time.
    Timeout(&'static str),
    /// Writing to the engine failed.
    Write(io::Error),
    /// The runner is shutting down.
    Aborted,
}

impl fmt::Display for ProcessError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProcessError::Spawn(e) => write!(f, "could not start: {e}"),
            ProcessError::Crashed(s) => write!(f, "terminated ({s})"),
            ProcessError::Timeout(what) => write!(f, "no {what} in time"),
            ProcessError::Write(e) => write!(f, "cannot write to the engine: {e}"),
            ProcessError::Aborted => write!(f, "aborted"),
        }
    }
}

impl std::error::Error for ProcessError {}

enum Line {
    Text(String, Instant),
    Eof,
}

/// A score from an `info` line, from the engine's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineScore {
    /// Centipawns.
    Cp(i32),
    /// Mate in N moves (negative: being mated).
    Mate(i32),
}

impl EngineScore {
    /// As centipawns, mates mapped to ±(`MATE_CP` − N).
    pub fn to_cp(self) -> i32 {
        match self {
            EngineScore::Cp(c) => c,
            EngineScore::Mate(n) if n > 0 => MATE_CP - n,
            EngineScore::Mate(n) => -MATE_CP - n,
        }
    }
}

impl fmt::Display for EngineScore {
    /// `+0.35`, `-1.20`, `+M5`, `-M3` (PGN comment style).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            EngineScore::Cp(c) => {
                let sign = if c < 0 { '-' } else { '+' };
                let a = c.unsigned_abs();
                write!(f, "{sign}{}.{:02}", a / 100, a % 100)
            }
            EngineScore::Mate(n) => {
                write!(f, "{}M{}", if n < 0 { '-' } else { '+' }, n.unsigned_abs())
            }
        }
    }
}

/// What an engine said while thinking, up to `bestmove`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reply {
    /// The text after `bestmove` (empty if there was none).
    pub bestmove: String,
    /// Wall time from `go` to `bestmove`.
    pub elapsed: Duration,
    /// The last score reported.
    pub score: Option<EngineScore>,
    /// The last depth reported.
    pub depth: Option<u32>,
}

/// How a `go` ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Think {
    /// `bestmove` before the deadline.
    Move(Reply),
    /// `bestmove` only after the deadline (after `stop`).
    Late(Reply),
    /// Nothing, not even after `stop`.
    NoReply(Duration),
    /// The engine exited (with how and after how long).
    Crashed(String, Duration),
    /// The runner is shutting down.
    Aborted,
}

/// Parses an `info` line's `score` and `depth`.
pub fn parse_info(line: &str, reply: &mut Reply) {
    let mut it = line.split_whitespace().skip(1);
    while let Some(tok) = it.next() {
        match tok {
            "depth" => {
                if let Some(d) = it.next().and_then(|t| t.parse().ok()) {
                    reply.depth = Some(d);
                }
            }
            "score" => match (it.next(), it.next().and_then(|t| t.parse::<i32>().ok())) {
                (Some("cp"), Some(v)) => reply.score = Some(EngineScore::Cp(v)),
                (Some("mate"), Some(v)) => reply.score = Some(EngineScore::Mate(v)),
                _ => {}
            },
            // Everything after `string` or `pv` is free text / moves.
            "string" | "pv" => break,
            _ => {}
        }
    }
}

/// The option name of an `option name <Name> type …` line.
fn option_name(line: &str) -> Option<String> {
    let rest = line
        .strip_prefix("option")?
        .trim_start()
        .strip_prefix("name")?;
    let name = match rest.find(" type ") {
        Some(i) => &rest[..i],
        None => rest,
    };
    let name = name.trim();
    (!name.is_empty()).then(|| name.to_string())
}

/// A running engine.
pub struct EngineProcess {
    label: String,
    protocol: EngineProtocol,
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<Line>,
    options: Vec<String>,
    id_name: Option<String>,
    debug: bool,
}

impl fmt::Debug for EngineProcess {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EngineProcess")
            .field("label", &self.label)
            .field("pid", &self.child.id())
            .finish()
    }
}

impl EngineProcess {
    /// Starts the engine (without the handshake). `label` names it in logs.
    ///
    /// # Errors
    /// [`ProcessError::Spawn`].
    pub fn spawn(launch: &Launch, label: &str, debug: bool) -> Result<EngineProcess, ProcessError> {
        let mut cmd = Command::new(&launch.cmd);
        cmd.args(&launch.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if debug {
                Stdio::inherit()
            } else {
                Stdio::null()
            });
        if let Some(dir) = &launch.dir {
            cmd.current_dir(dir);
        }
        #[cfg(unix)]
        {
            // Own process group: a Ctrl-C in the terminal reaches only the
            // runner, which then shuts the engines down in order.
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        let mut child = cmd.spawn().map_err(ProcessError::Spawn)?;
        let (stdin, stdout) = match (child.stdin.take(), child.stdout.take()) {
            (Some(i), Some(o)) => (i, o),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(ProcessError::Spawn(io::Error::other("no pipes")));
            }
        };
        let (tx, rx) = mpsc::channel();
        let log = debug.then(|| label.to_string());
        thread::Builder::new()
            .name(format!("{label}-reader"))
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
                            let now = Instant::now();
                            let text = String::from_utf8_lossy(&buf).trim_end().to_string();
                            if let Some(l) = &log {
                                eprintln!("{l} > {text}");
                            }
                            if tx.send(Line::Text(text, now)).is_err() {
                                return;
                            }
                        }
                    }
                }
            })
            .map_err(ProcessError::Spawn)?;
        Ok(EngineProcess {
            label: label.to_string(),
            protocol: launch.protocol,
            child,
            stdin: Some(stdin),
            rx,
            options: Vec::new(),
            id_name: None,
            debug,
        })
    }

    /// Spawns and completes the handshake (`uci`…`uciok`).
    ///
    /// # Errors
    /// Any [`ProcessError`].
    pub fn start(
        launch: &Launch,
        label: &str,
        debug: bool,
        timeout: Duration,
        stop: &AtomicBool,
    ) -> Result<EngineProcess, ProcessError> {
        let mut e = EngineProcess::spawn(launch, label, debug)?;
        e.send(e.protocol.hello())?;
        let ok = e.protocol.hello_ok();
        let deadline = Instant::now() + timeout;
        loop {
            let line = e.next_line(deadline, stop, "handshake")?;
            if line == ok {
                return Ok(e);
            }
            if let Some(name) = option_name(&line) {
                e.options.push(name);
            } else if let Some(n) = line.strip_prefix("id name ") {
                e.id_name = Some(n.trim().to_string());
            }
        }
    }

    /// The protocol.
    pub fn protocol(&self) -> EngineProtocol {
        self.protocol
    }

    /// The name the engine gave in `id name`.
    pub fn id_name(&self) -> Option<&str> {
        self.id_name.as_deref()
    }

    /// The option name as the engine spelled it, if it has it (case-insensitive).
    pub fn option(&self, name: &str) -> Option<&str> {
        self.options
            .iter()
            .find(|o| o.eq_ignore_ascii_case(name))
            .map(String::as_str)
    }

    /// Sends one line.
    ///
    /// # Errors
    /// [`ProcessError::Write`] (the engine probably exited).
    pub fn send(&mut self, line: &str) -> Result<(), ProcessError> {
        if self.debug {
            eprintln!("{} < {line}", self.label);
        }
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| ProcessError::Write(io::Error::other("closed")))?;
        stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.write_all(b"\n"))
            .and_then(|()| stdin.flush())
            .map_err(ProcessError::Write)
    }

    /// `setoption name N value V`.
    ///
    /// # Errors
    /// [`ProcessError::Write`].
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), ProcessError> {
        self.send(&format!("setoption name {name} value {value}"))
    }

    fn exit_status(&mut self) -> String {
        let until = Instant::now() + Duration::from_millis(200);
        loop {
            match self.child.try_wait() {
                Ok(Some(st)) => return describe_status(st),
                Ok(None) if Instant::now() < until => thread::sleep(Duration::from_millis(5)),
                Ok(None) => return "output closed".to_string(),
                Err(e) => return format!("wait failed: {e}"),
            }
        }
    }

    /// The next line before `deadline`.
    fn next_line(
        &mut self,
        deadline: Instant,
        stop: &AtomicBool,
        what: &'static str,
    ) -> Result<String, ProcessError> {
        loop {
            if stop.load(Ordering::Relaxed) {
                return Err(ProcessError::Aborted);
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(ProcessError::Timeout(what));
            }
            match self.rx.recv_timeout((deadline - now).min(POLL)) {
                Ok(Line::Text(t, _)) => return Ok(t),
                Ok(Line::Eof) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(ProcessError::Crashed(self.exit_status()))
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    /// `isready` … `readyok`, discarding everything before it (stray
    /// `bestmove`s of an earlier search included).
    ///
    /// # Errors
    /// Any [`ProcessError`].
    pub fn sync(&mut self, timeout: Duration, stop: &AtomicBool) -> Result<(), ProcessError> {
        self.send("isready")?;
        let deadline = Instant::now() + timeout;
        while self.next_line(deadline, stop, "readyok")? != "readyok" {}
        Ok(())
    }

    /// `ucinewgame` / `usinewgame`, then [`EngineProcess::sync`].
    ///
    /// # Errors
    /// Any [`ProcessError`].
    pub fn new_game(&mut self, timeout: Duration, stop: &AtomicBool) -> Result<(), ProcessError> {
        self.send(self.protocol.new_game())?;
        self.sync(timeout, stop)
    }

    /// Sends `position` and `go`, then waits for `bestmove` until
    /// `deadline` after `go`; past it sends `stop` and waits `stop_wait`
    /// more for a (late) answer.
    pub fn think(
        &mut self,
        position: &str,
        go: &str,
        deadline: Duration,
        stop_wait: Duration,
        stop: &AtomicBool,
    ) -> Think {
        if self.send(position).is_err() {
            return Think::Crashed(self.exit_status(), Duration::ZERO);
        }
        if self.send(go).is_err() {
            return Think::Crashed(self.exit_status(), Duration::ZERO);
        }
        let sent = Instant::now();
        let due = sent + deadline;
        let mut reply = Reply::default();
        let mut stopped = false;
        loop {
            if stop.load(Ordering::Relaxed) {
                let _ = self.send("stop");
                return Think::Aborted;
            }
            let now = Instant::now();
            if now >= due && !stopped {
                stopped = true;
                let _ = self.send("stop");
            }
            let until = if stopped { due + stop_wait } else { due };
            if now >= until && stopped {
                return Think::NoReply(now - sent);
            }
            match self
                .rx
                .recv_timeout(until.saturating_duration_since(now).min(POLL))
            {
                Ok(Line::Text(t, at)) => {
                    if t.starts_with("info") {
                        parse_info(&t, &mut reply);
                    } else if t == "bestmove" || t.starts_with("bestmove ") {
                        reply.bestmove = t.split_whitespace().nth(1).unwrap_or("").to_string();
                        reply.elapsed = at - sent;
                        // Judge by the time of reading, not by when we looked.
                        return if at > due {
                            Think::Late(reply)
                        } else {
                            Think::Move(reply)
                        };
                    }
                }
                Ok(Line::Eof) | Err(RecvTimeoutError::Disconnected) => {
                    let elapsed = sent.elapsed();
                    return Think::Crashed(self.exit_status(), elapsed);
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    /// Whether the process is still running.
    pub fn is_alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Sends `quit`, waits briefly, kills it if it is still there.
    pub fn shutdown(&mut self) {
        if self.stdin.is_some() && self.is_alive() {
            let _ = self.send("quit");
        }
        self.stdin = None; // closes the pipe: EOF for well-behaved engines
        let until = Instant::now() + QUIT_WAIT;
        while Instant::now() < until {
            if !self.is_alive() {
                return;
            }
            thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.shutdown();
    }
}

fn describe_status(st: std::process::ExitStatus) -> String {
    if let Some(code) = st.code() {
        return format!("exit code {code}");
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = st.signal() {
            return format!("killed by signal {sig}");
        }
    }
    "exited".to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_parsing() {
        let mut r = Reply::default();
        parse_info(
            "info depth 7 seldepth 9 score cp -35 nodes 100 pv a1a2",
            &mut r,
        );
        assert_eq!((r.depth, r.score), (Some(7), Some(EngineScore::Cp(-35))));
        parse_info("info depth 8 score mate -3 pv b1c3", &mut r);
        assert_eq!(r.score, Some(EngineScore::Mate(-3)));
        assert_eq!(r.score.map(EngineScore::to_cp), Some(-MATE_CP + 3));
        parse_info("info string score cp 999", &mut r);
        assert_eq!(r.score, Some(EngineScore::Mate(-3)));
        parse_info("info score cp x depth", &mut r);
        assert_eq!(r.depth, Some(8));
        assert_eq!(EngineScore::Cp(-120).to_string(), "-1.20");
        assert_eq!(EngineScore::Cp(5).to_string(), "+0.05");
        assert_eq!(EngineScore::Mate(5).to_string(), "+M5");
    }

    #[test]
    fn option_names() {
        assert_eq!(
            option_name("option name UCI_Variant type combo default janggi").as_deref(),
            Some("UCI_Variant")
        );
        assert_eq!(
            option_name("option name Move Overhead type spin").as_deref(),
            Some("Move Overhead")
        );
        assert_eq!(option_name("option name").as_deref(), None);
        assert_eq!(option_name("id name x"), None);
    }
}
