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
use janggi_core::game::Rules;
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

/// One `info` line, parsed. Fields the line does not have are `None`
/// (or empty); unknown tokens are skipped; nothing here panics on bad
/// input.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    /// `depth`.
    pub depth: Option<u32>,
    /// `seldepth`.
    pub seldepth: Option<u32>,
    /// `multipv` (1 = the best line; `None` when the engine sent none,
    /// which means the best line too).
    pub multipv: Option<u32>,
    /// `score cp N` / `score mate N`, from the engine's (side to move's)
    /// point of view.
    pub score: Option<EngineScore>,
    /// `wdl W D L` in permille (`UCI_ShowWDL`), side to move's view.
    pub wdl: Option<[u32; 3]>,
    /// `nodes`.
    pub nodes: Option<u64>,
    /// `nps`.
    pub nps: Option<u64>,
    /// `time` in milliseconds.
    pub time_ms: Option<u64>,
    /// `pv`: the moves as the engine wrote them.
    pub pv: Vec<String>,
    /// The text of an `info string …` line.
    pub string: Option<String>,
}

impl Info {
    /// Parses an `info` line; `None` for any other line.
    pub fn parse(line: &str) -> Option<Info> {
        let mut it = line.split_whitespace();
        if it.next() != Some("info") {
            return None;
        }
        let mut info = Info::default();
        while let Some(tok) = it.next() {
            match tok {
                "depth" => info.depth = it.next().and_then(|t| t.parse().ok()),
                "seldepth" => info.seldepth = it.next().and_then(|t| t.parse().ok()),
                "multipv" => info.multipv = it.next().and_then(|t| t.parse().ok()),
                "nodes" => info.nodes = it.next().and_then(|t| t.parse().ok()),
                "nps" => info.nps = it.next().and_then(|t| t.parse().ok()),
                "time" => info.time_ms = it.next().and_then(|t| t.parse().ok()),
                "score" => {
                    let kind = it.next();
                    let v = it.next().and_then(|t| t.parse::<i32>().ok());
                    info.score = match (kind, v) {
                        (Some("cp"), Some(v)) => Some(EngineScore::Cp(v)),
                        (Some("mate"), Some(v)) => Some(EngineScore::Mate(v)),
                        _ => info.score,
                    };
                }
                "wdl" => {
                    let w: Vec<u32> = it.by_ref().take(3).filter_map(|t| t.parse().ok()).collect();
                    if let [a, b, c] = w[..] {
                        info.wdl = Some([a, b, c]);
                    }
                }
                // Everything after `pv` is moves, after `string` free text.
                "pv" => {
                    info.pv = it.by_ref().map(str::to_string).collect();
                    break;
                }
                "string" => {
                    info.string = Some(it.by_ref().collect::<Vec<_>>().join(" "));
                    break;
                }
                _ => {}
            }
        }
        Some(info)
    }

    /// Whether this line is about the best line: `multipv 1` or no
    /// `multipv` at all. With `MultiPV` > 1 (Fairy-Stockfish at a low
    /// Skill Level, or set by hand) the other lines are worse moves, not
    /// the engine's view of the position.
    pub fn is_main_line(&self) -> bool {
        self.multipv.is_none_or(|m| m <= 1)
    }
}

/// What an engine said while thinking, up to `bestmove`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reply {
    /// The text after `bestmove` (empty if there was none).
    pub bestmove: String,
    /// Wall time from `go` to `bestmove`.
    pub elapsed: Duration,
    /// The last score of the best line (`multipv 1` or none).
    pub score: Option<EngineScore>,
    /// The last depth of the best line.
    pub depth: Option<u32>,
    /// The last principal variation of the best line.
    pub pv: Vec<String>,
    /// The last win/draw/loss (permille) of the best line, if the engine
    /// reports it (`UCI_ShowWDL`).
    pub wdl: Option<[u32; 3]>,
}

impl Reply {
    /// Takes in one `info` report: only the best line's (see
    /// [`Info::is_main_line`]) counts; a field the line does not have
    /// keeps its earlier value.
    pub fn absorb(&mut self, info: &Info) {
        if !info.is_main_line() || info.string.is_some() {
            return;
        }
        if info.depth.is_some() {
            self.depth = info.depth;
        }
        if info.score.is_some() {
            self.score = info.score;
        }
        if !info.pv.is_empty() {
            self.pv.clone_from(&info.pv);
        }
        if info.wdl.is_some() {
            self.wdl = info.wdl;
        }
    }
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
    /// The runner is shutting down (`stop` was sent, the answer not
    /// awaited).
    Aborted,
    /// [`Watch::cancel`] said so: `stop` was sent and the engine's answer
    /// read (and dropped by the caller), so the engine is idle again and
    /// the next `go` gets a fresh answer.
    Cancelled(Reply),
}

/// What [`EngineProcess::think_with`] is told while the engine thinks.
pub struct Watch<'a> {
    /// Asked while waiting (every few milliseconds); once it says yes the
    /// search is stopped (`stop`) and its answer awaited (`stop_wait`), so
    /// that no stale `bestmove` reaches the next search.
    pub cancel: &'a dyn Fn() -> bool,
    /// Every `info` line, parsed, as it comes (all of them: the caller
    /// looks at [`Info::is_main_line`] if it wants the best line only).
    pub on_info: &'a mut dyn FnMut(&Info),
}

/// Parses an `info` line's best-line fields into `reply` (see
/// [`Info::parse`] and [`Reply::absorb`]).
pub fn parse_info(line: &str, reply: &mut Reply) {
    if let Some(info) = Info::parse(line) {
        reply.absorb(&info);
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

/// The `var` values of an `option … type combo … var A var B` line.
fn option_vars(line: &str) -> Vec<String> {
    let mut vars = Vec::new();
    let mut words = line.split_whitespace().peekable();
    while let Some(w) = words.next() {
        if w == "var" {
            // A value may have spaces: up to the next keyword.
            let mut v = Vec::new();
            while let Some(&n) = words.peek() {
                if matches!(n, "var" | "default" | "min" | "max" | "type") {
                    break;
                }
                v.push(n);
                words.next();
            }
            if !v.is_empty() {
                vars.push(v.join(" "));
            }
        }
    }
    vars
}

/// How [`EngineProcess::set_rules`] told the engine the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RulesSetup {
    /// `UCI_Variant` with the preset the rules are (which the engine offers).
    Variant(String),
    /// This engine's rule options (`Bikjang`, `Repetition`, …), one each.
    Options,
    /// The rules are no preset the engine has and it has no rule options:
    /// `UCI_Variant` with the nearest one it has (`janggi`), so it plays
    /// Janggi, though not exactly these rules.
    Nearest(String),
    /// The engine has neither `UCI_Variant` with a Janggi variant nor rule
    /// options: nothing was sent.
    Unsupported,
}

impl RulesSetup {
    /// Why an engine told the rules this way does not judge positions by
    /// exactly `rules` (`None` when it does: a preset or its rule options).
    /// One sentence, for a warning or a record's comment.
    pub fn caveat(&self, rules: &Rules) -> Option<String> {
        match self {
            RulesSetup::Variant(_) | RulesSetup::Options => None,
            RulesSetup::Nearest(v) => Some(format!(
                "the engine has neither these rules ({rules}) as a variant nor rule options, \
                 so it searched under its nearest variant `{v}`: scores near bikjang, \
                 repetition, counting or move-limit endings may not be these rules'"
            )),
            RulesSetup::Unsupported => Some(format!(
                "the engine was told no rules ({rules}): it offers neither a Janggi \
                 `UCI_Variant` nor rule options, so it searched under its own defaults"
            )),
        }
    }
}

/// The engine option of each rule in [`Rules`]'s text
/// (`bikjang=kjf repetition=forbid …`), with its value.
pub fn rule_options(rules: &Rules) -> Vec<(&'static str, String)> {
    let map = |k: &str| match k {
        "bikjang" => Some("Bikjang"),
        "repetition" => Some("Repetition"),
        "scoring" => Some("Scoring"),
        "allowPass" => Some("AllowPass"),
        "moveLimit" => Some("MoveLimit"),
        "noCaptureLimit" => Some("NoCaptureLimit"),
        _ => None,
    };
    rules
        .to_string()
        .split_whitespace()
        .filter_map(|kv| {
            let (k, v) = kv.split_once('=')?;
            Some((map(k)?, v.to_string()))
        })
        .collect()
}

/// A running engine.
pub struct EngineProcess {
    label: String,
    protocol: EngineProtocol,
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<Line>,
    options: Vec<String>,
    /// The `var` values of combo options, by option (same index as `options`).
    option_vars: Vec<Vec<String>>,
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
            option_vars: Vec::new(),
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
                e.option_vars.push(option_vars(&line));
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

    /// Whether the engine has option `name` and it accepts `value`: for a
    /// combo option, one of its `var`s (case-insensitive); any other type
    /// is taken to accept it.
    pub fn offers(&self, name: &str, value: &str) -> bool {
        self.options
            .iter()
            .position(|o| o.eq_ignore_ascii_case(name))
            .is_some_and(|i| {
                let vars = &self.option_vars[i];
                vars.is_empty() || vars.iter().any(|v| v.eq_ignore_ascii_case(value))
            })
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

    /// Tells the engine the rules, with only what it offers:
    /// `UCI_Variant` with the preset `rules` are (`janggi`,
    /// `janggicasual`, `janggimodern`, `janggitraditional`, and this
    /// engine's `janggikjf`) when it lists it; else this engine's rule
    /// options when it has them (`Bikjang` and `Repetition` at least);
    /// else `UCI_Variant janggi` when it lists that (Fairy-Stockfish);
    /// else nothing.
    ///
    /// # Errors
    /// [`ProcessError::Write`].
    pub fn set_rules(&mut self, rules: &Rules) -> Result<RulesSetup, ProcessError> {
        let variant = self.option("UCI_Variant").map(str::to_string);
        if let Some(opt) = &variant {
            let preset = Rules::VARIANTS.iter().find(|n| {
                Rules::from_variant(n).ok().as_ref() == Some(rules) && self.offers(opt, n)
            });
            if let Some(v) = preset {
                self.set_option(opt, v)?;
                return Ok(RulesSetup::Variant((*v).to_string()));
            }
        }
        if self.option("Bikjang").is_some() && self.option("Repetition").is_some() {
            for (k, v) in rule_options(rules) {
                if let Some(name) = self.option(k).map(str::to_string) {
                    self.set_option(&name, &v)?;
                }
            }
            return Ok(RulesSetup::Options);
        }
        match variant {
            Some(opt) if self.offers(&opt, "janggi") => {
                self.set_option(&opt, "janggi")?;
                Ok(RulesSetup::Nearest("janggi".into()))
            }
            _ => Ok(RulesSetup::Unsupported),
        }
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
    /// more for a (late) answer. ([`EngineProcess::think_with`] without
    /// watching.)
    pub fn think(
        &mut self,
        position: &str,
        go: &str,
        deadline: Duration,
        stop_wait: Duration,
        stop: &AtomicBool,
    ) -> Think {
        let watch = Watch {
            cancel: &|| false,
            on_info: &mut |_| {},
        };
        self.think_with(position, go, (deadline, stop_wait), stop, watch)
    }

    /// [`EngineProcess::think`], watched: every `info` line goes to
    /// [`Watch::on_info`] as it is read, and [`Watch::cancel`] can stop the
    /// search early ([`Think::Cancelled`]). `limits` is (`deadline`,
    /// `stop_wait`) as for `think`; `stop` aborts at once
    /// ([`Think::Aborted`], the answer not awaited).
    pub fn think_with(
        &mut self,
        position: &str,
        go: &str,
        limits: (Duration, Duration),
        stop: &AtomicBool,
        watch: Watch<'_>,
    ) -> Think {
        let (deadline, stop_wait) = limits;
        if self.send(position).is_err() {
            return Think::Crashed(self.exit_status(), Duration::ZERO);
        }
        if self.send(go).is_err() {
            return Think::Crashed(self.exit_status(), Duration::ZERO);
        }
        let sent = Instant::now();
        let due = sent + deadline;
        let mut reply = Reply::default();
        // When `stop` was sent (by the deadline or a cancel), and whether
        // it was a cancel.
        let mut stopped: Option<Instant> = None;
        let mut cancelled = false;
        loop {
            if stop.load(Ordering::Relaxed) {
                let _ = self.send("stop");
                return Think::Aborted;
            }
            let now = Instant::now();
            if !cancelled && (watch.cancel)() {
                cancelled = true;
                if stopped.is_none() {
                    stopped = Some(now);
                    let _ = self.send("stop");
                }
            }
            if now >= due && stopped.is_none() {
                stopped = Some(now);
                let _ = self.send("stop");
            }
            // After `stop` (by the deadline or a cancel) the engine has
            // `stop_wait` more to answer.
            let until = match stopped {
                Some(at) => at + stop_wait,
                None => due,
            };
            if stopped.is_some() && now >= until {
                return Think::NoReply(now - sent);
            }
            match self
                .rx
                .recv_timeout(until.saturating_duration_since(now).min(POLL))
            {
                Ok(Line::Text(t, at)) => {
                    if let Some(info) = Info::parse(&t) {
                        reply.absorb(&info);
                        (watch.on_info)(&info);
                    } else if t == "bestmove" || t.starts_with("bestmove ") {
                        reply.bestmove = t.split_whitespace().nth(1).unwrap_or("").to_string();
                        reply.elapsed = at - sent;
                        // Judge by the time of reading, not by when we looked.
                        return if cancelled {
                            Think::Cancelled(reply)
                        } else if at > due {
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
        assert_eq!(r.pv, vec!["a1a2"]);
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
        let i = Info::parse(
            "info depth 12 seldepth 17 multipv 1 score cp 31 wdl 412 350 238 nodes 123456 nps 98765 hashfull 3 time 1250 pv h1h2 a7a6 b1c3",
        )
        .unwrap();
        assert_eq!(
            i,
            Info {
                depth: Some(12),
                seldepth: Some(17),
                multipv: Some(1),
                score: Some(EngineScore::Cp(31)),
                wdl: Some([412, 350, 238]),
                nodes: Some(123_456),
                nps: Some(98_765),
                time_ms: Some(1250),
                pv: vec!["h1h2".into(), "a7a6".into(), "b1c3".into()],
                string: None,
            }
        );
        assert_eq!(
            Info::parse("info string hello there")
                .unwrap()
                .string
                .as_deref(),
            Some("hello there")
        );
        assert_eq!(Info::parse("bestmove a1a2"), None);
        assert_eq!(Info::parse("info wdl 1 2"), Some(Info::default()));
    }

    #[test]
    fn only_the_best_line_of_a_multipv_search_is_the_score() {
        let mut r = Reply::default();
        for line in [
            "info depth 5 multipv 1 score cp 40 pv a1a2",
            "info depth 5 multipv 2 score cp -300 wdl 0 0 1000 pv b1b2",
            "info depth 6 multipv 2 score mate -2 pv c1c2",
            "info depth 6 multipv 1 score cp 35 wdl 300 500 200 pv d1d2 e1e2",
            "info depth 6 multipv 3 score cp -900 pv f1f2",
        ] {
            parse_info(line, &mut r);
        }
        assert_eq!(r.score, Some(EngineScore::Cp(35)));
        assert_eq!(r.depth, Some(6));
        assert_eq!(r.pv, vec!["d1d2", "e1e2"]);
        assert_eq!(r.wdl, Some([300, 500, 200]));
    }

    /// Every test binary of this crate is also the scripted engine.
    #[test]
    fn scripted_engine_entry() {
        crate::scripted::entry();
    }

    fn scripted(name: &str, script: &str) -> (EngineProcess, PathBuf) {
        let dir =
            std::env::temp_dir().join(format!("janggi-match-ep-{}-{name}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let file = dir.join("script.txt");
        let log = dir.join("log.txt");
        let _ = std::fs::remove_file(&log);
        std::fs::write(&file, script).unwrap();
        let (cmd, args) = crate::scripted::command(
            "engine_process::tests::scripted_engine_entry",
            &[
                format!("script={}", file.display()),
                format!("log={}", log.display()),
            ],
        );
        let launch = Launch {
            cmd,
            args,
            dir: None,
            protocol: EngineProtocol::Uci,
        };
        let stop = AtomicBool::new(false);
        let e = EngineProcess::start(&launch, name, false, Duration::from_secs(20), &stop)
            .expect("the scripted engine starts");
        (e, log)
    }

    /// A MultiPV transcript (Fairy-Stockfish at a low Skill Level sends
    /// one line per candidate): the reply's score is the best line's, and
    /// the watcher sees every line as it comes.
    #[test]
    fn a_multipv_transcript_reports_the_best_lines_score_pv_and_wdl() {
        let (mut e, _) = scripted(
            "multipv",
            "uci: option name MultiPV type spin default 1 min 1 max 500\n\
             uci: option name UCI_Variant type combo default chess var chess var janggi var janggimodern\n\
             go: info depth 1 seldepth 1 multipv 1 score cp 12 nodes 20 nps 2000 time 10 pv h1h2\n\
             go: info depth 1 seldepth 1 multipv 2 score cp -40 nodes 20 pv a1a2\n\
             go: info depth 2 seldepth 3 multipv 1 score cp 31 wdl 412 350 238 nodes 90 pv c1c2 a7a6\n\
             go: info depth 2 seldepth 3 multipv 2 score cp -288 wdl 20 80 900 nodes 90 pv e1e2\n\
             go: info string done\n\
             go: bestmove c1c2 ponder a7a6\n",
        );
        assert!(e.offers("UCI_Variant", "JANGGImodern"));
        assert!(!e.offers("UCI_Variant", "janggikjf"));
        assert!(e.offers("MultiPV", "3"));
        assert!(!e.offers("Bikjang", "kjf"));
        let stop = AtomicBool::new(false);
        let mut seen = Vec::new();
        let think = e.think_with(
            "position startpos",
            "go nodes 90",
            (Duration::from_secs(20), Duration::from_secs(5)),
            &stop,
            Watch {
                cancel: &|| false,
                on_info: &mut |i: &Info| seen.push(i.clone()),
            },
        );
        let Think::Move(r) = think else {
            panic!("{think:?}")
        };
        assert_eq!(r.bestmove, "c1c2");
        assert_eq!(r.score, Some(EngineScore::Cp(31)));
        assert_eq!(r.depth, Some(2));
        assert_eq!(r.pv, vec!["c1c2", "a7a6"]);
        assert_eq!(r.wdl, Some([412, 350, 238]));
        assert_eq!(seen.len(), 5);
        assert_eq!(seen[1].multipv, Some(2));
        assert!(!seen[1].is_main_line() && seen[2].is_main_line());
        assert_eq!(
            (seen[0].nps, seen[0].time_ms, seen[2].seldepth),
            (Some(2000), Some(10), Some(3))
        );
        // The plain `think` gives the same reply (the runner's view).
        let think = e.think(
            "position startpos",
            "go nodes 90",
            Duration::from_secs(20),
            Duration::from_secs(5),
            &stop,
        );
        assert!(
            matches!(think, Think::Move(ref r2) if r2.score == r.score && r2.pv == r.pv),
            "{think:?}"
        );
    }

    /// A cancel stops the search and reads its answer, so the next `go`
    /// is answered by its own `bestmove`, not a stale one.
    #[test]
    fn a_cancelled_search_is_stopped_and_its_answer_read() {
        let (mut e, log) = scripted(
            "cancel",
            "go: info depth 1 score cp 5 pv a1a2\n\
             stop: bestmove a1a2\n",
        );
        let stop = AtomicBool::new(false);
        let infos = std::cell::Cell::new(0);
        let think = e.think_with(
            "position startpos",
            "go infinite",
            (Duration::from_secs(20), Duration::from_secs(5)),
            &stop,
            Watch {
                cancel: &|| infos.get() > 0,
                on_info: &mut |_| infos.set(infos.get() + 1),
            },
        );
        let Think::Cancelled(r) = think else {
            panic!("{think:?}")
        };
        assert_eq!(
            (r.bestmove.as_str(), r.score),
            ("a1a2", Some(EngineScore::Cp(5)))
        );
        // Past the deadline: `stop`, then the answer counts as late.
        let think = e.think(
            "position startpos",
            "go infinite",
            Duration::from_millis(100),
            Duration::from_secs(5),
            &stop,
        );
        assert!(
            matches!(think, Think::Late(ref r) if r.bestmove == "a1a2"),
            "{think:?}"
        );
        e.shutdown();
        let sent = std::fs::read_to_string(log).unwrap();
        assert_eq!(sent.matches("stop").count(), 2, "{sent}");
    }

    #[test]
    fn the_rules_are_set_with_what_the_engine_offers() {
        let fsf = "uci: option name UCI_Variant type combo default chess var chess var janggi var janggicasual var janggimodern var janggitraditional\n";
        let ours = "uci: option name UCI_Variant type combo default janggikjf var janggikjf var janggi var janggitraditional var janggimodern var janggicasual\n\
                    uci: option name Bikjang type combo default kjf var off var kjf var kja30 var fsf\n\
                    uci: option name Repetition type combo default forbid var forbid var lose var scoreEnd var fsf var fsfModern\n\
                    uci: option name Scoring type check default true\n";
        let modern = Rules::from_variant("janggimodern").unwrap();
        let mut custom = Rules::default();
        custom.set_option("Bikjang", "kja30").unwrap();
        let cases: [(&str, &str, Rules, RulesSetup, &[&str]); 7] = [
            (
                "fsf-modern",
                fsf,
                modern,
                RulesSetup::Variant("janggimodern".into()),
                &["setoption name UCI_Variant value janggimodern"],
            ),
            (
                "fsf-kjf",
                fsf,
                Rules::default(),
                RulesSetup::Nearest("janggi".into()),
                &["setoption name UCI_Variant value janggi"],
            ),
            (
                "fsf-custom",
                fsf,
                custom,
                RulesSetup::Nearest("janggi".into()),
                &["setoption name UCI_Variant value janggi"],
            ),
            (
                "ours-kjf",
                ours,
                Rules::default(),
                RulesSetup::Variant("janggikjf".into()),
                &["setoption name UCI_Variant value janggikjf"],
            ),
            (
                "ours-custom",
                ours,
                custom,
                RulesSetup::Options,
                &[
                    "setoption name Bikjang value kja30",
                    "setoption name Repetition value forbid",
                    "setoption name Scoring value true",
                ],
            ),
            (
                "ours-modern",
                ours,
                modern,
                RulesSetup::Variant("janggimodern".into()),
                &["setoption name UCI_Variant value janggimodern"],
            ),
            ("none", "", modern, RulesSetup::Unsupported, &[]),
        ];
        for (name, script, rules, setup, sent) in cases {
            let (mut e, log) = scripted(name, script);
            assert_eq!(e.set_rules(&rules).unwrap(), setup, "{name}");
            e.shutdown();
            let log = std::fs::read_to_string(log).unwrap_or_default();
            let options: Vec<&str> = log.lines().filter(|l| l.starts_with("setoption")).collect();
            assert_eq!(options, sent, "{name}");
        }
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
