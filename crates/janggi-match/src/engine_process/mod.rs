//! One engine as a child process: spawn, handshake, send lines, and read
//! replies with deadlines.
//!
//! A reader thread turns the engine's stdout into timestamped lines on a
//! channel, so waiting is `recv_timeout` and nothing ever blocks past a
//! deadline. Bad output (non-UTF-8, missing fields, garbage) never panics:
//! it is passed on as text for the referee to judge. The timestamp of the
//! `bestmove` line is taken when the reader thread reads it, so the time a
//! move took is measured from writing `go` to reading `bestmove`.
//!
//! The lines themselves (`go`, `info`, `bestmove`, `option`, `setoption`)
//! are janggi-uci's typed values; this module only moves them. The search
//! (`go` … `bestmove`) is in `think.rs`, telling the engine the rules in
//! `rules.rs`.

use janggi_uci::{OptionDecl, SetOption};
use std::fmt;
use std::io::{self, BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

mod rules;
mod think;

/// The protocol an engine speaks (janggi-uci's [`janggi_uci::Dialect`]).
pub use janggi_uci::Dialect as EngineProtocol;
/// A score from an `info` line (janggi-uci's [`janggi_uci::Score`]).
pub use janggi_uci::Score as EngineScore;
pub use janggi_uci::{Info, MATE_CP};
pub use rules::{rule_options, RulesSetup};
pub use think::{Reply, Think, Watch};

/// How often waits look at the stop flag.
const POLL: Duration = Duration::from_millis(25);
/// How long `quit` may take before the process is killed.
const QUIT_WAIT: Duration = Duration::from_millis(300);

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

/// A running engine.
pub struct EngineProcess {
    label: String,
    protocol: EngineProtocol,
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<Line>,
    /// The options the engine declared in its handshake.
    options: Vec<OptionDecl>,
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
            if line.starts_with("option ") {
                // A declaration that does not parse is left out: the
                // runner then never sets that option.
                match line.parse::<OptionDecl>() {
                    Ok(decl) => e.options.push(decl),
                    Err(err) if e.debug => eprintln!("{label}: ignored `{line}`: {err}"),
                    Err(_) => {}
                }
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
        self.declaration(name).map(|d| d.name.as_str())
    }

    /// The declaration of option `name` (case-insensitive), if the engine has it.
    pub fn declaration(&self, name: &str) -> Option<&OptionDecl> {
        self.options
            .iter()
            .find(|o| o.name.eq_ignore_ascii_case(name))
    }

    /// Every option the engine declared, in its order.
    pub fn options(&self) -> &[OptionDecl] {
        &self.options
    }

    /// Whether the engine has option `name` and it accepts `value`
    /// ([`OptionDecl::accepts`]: for a combo option, one of its `var`s,
    /// case-insensitive).
    pub fn offers(&self, name: &str, value: &str) -> bool {
        self.declaration(name).is_some_and(|d| d.accepts(value))
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
        self.send(&SetOption::new(name, value).to_string())
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
        self.sync_lines(timeout, stop).map(drop)
    }

    /// [`EngineProcess::sync`], returning the lines that came before
    /// `readyok` (an engine's `info string error: …` after a `setoption`).
    ///
    /// # Errors
    /// Any [`ProcessError`].
    pub fn sync_lines(
        &mut self,
        timeout: Duration,
        stop: &AtomicBool,
    ) -> Result<Vec<String>, ProcessError> {
        self.send("isready")?;
        let deadline = Instant::now() + timeout;
        let mut lines = Vec::new();
        loop {
            let line = self.next_line(deadline, stop, "readyok")?;
            if line == "readyok" {
                return Ok(lines);
            }
            lines.push(line);
        }
    }

    /// `ucinewgame` / `usinewgame`, then [`EngineProcess::sync`].
    ///
    /// # Errors
    /// Any [`ProcessError`].
    pub fn new_game(&mut self, timeout: Duration, stop: &AtomicBool) -> Result<(), ProcessError> {
        self.send(self.protocol.new_game())?;
        self.sync(timeout, stop)
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
    use janggi_core::Rules;

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
            &janggi_uci::Go::nodes(90),
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
            &"go nodes 90",
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
            &janggi_uci::Go {
                infinite: true,
                ..janggi_uci::Go::default()
            },
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
            &janggi_uci::Go {
                infinite: true,
                ..janggi_uci::Go::default()
            },
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

    /// The handshake keeps each declaration typed, skips one that does not
    /// parse, and reads `id name`.
    #[test]
    fn the_handshake_reads_the_declarations() {
        let (e, _) = scripted(
            "handshake",
            "uci: id name Scripted 1.0\n\
             uci: option name Move Overhead type spin default 10 min 0 max 5000\n\
             uci: option name Broken type spin default x\n\
             uci: option name UCI_ShowWDL type check default false\n",
        );
        assert_eq!(e.id_name(), Some("Scripted 1.0"));
        assert_eq!(e.option("move overhead"), Some("Move Overhead"));
        assert_eq!(e.declaration("Broken"), None);
        assert_eq!(e.options().len(), 2);
        assert!(e.offers("Move Overhead", "50"));
        assert!(!e.offers("Move Overhead", "6000"));
        assert!(e.offers("UCI_ShowWDL", "true"));
        assert!(!e.offers("Threads", "1"));
    }
}
