//! The engine behind the board: a UCI child process driven by the match
//! runner's [`EngineProcess`] (spawn, handshake, options, `go` with
//! deadlines, `stop`, the `info` lines as they come). This module holds
//! only what the board adds: the command line, the `go` of a turn with its
//! cap, and the per-game options; [`turns`] plays the engine's turns on a
//! worker thread and [`analysis`] runs the game analysis with a second
//! process.

pub(crate) mod analysis;
pub(crate) mod turns;

use crate::session::{Session, Settings};
use janggi_match::engine_process::{
    EngineProcess, EngineProtocol, Info, Launch, ProcessError, RulesSetup, Think, Watch,
};
use janggi_uci::{Dialect, Go};
use std::io;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// How long the handshake and `isready` may take.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// How long past its move time the engine may take before `stop`, and
/// again after `stop` before it is taken for hung (the default of
/// [`crate::Config::grace`]).
pub const GRACE: Duration = Duration::from_secs(5);

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

    /// As the match runner's [`Launch`] (UCI).
    pub fn launch(&self) -> Launch {
        Launch {
            cmd: self.program.to_string_lossy().into_owned(),
            args: self.args.clone(),
            dir: None,
            protocol: EngineProtocol::Uci,
        }
    }
}

/// One engine turn: the `go` sent (janggi-uci's typed [`Go`]), how
/// long the engine may take by the clock (its whole remaining time, or
/// its move time), and the level's cap after which the board sends
/// `stop` itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turn {
    /// `go movetime 1000` or `go wtime … btime … byoyomi … [periods …]`.
    pub go: Go,
    /// The time the engine has for this move by the clock.
    pub budget: Duration,
    /// The level's cap on thinking (`stop` after it), if any.
    pub cap: Option<Duration>,
}

impl Turn {
    /// `go movetime MS`.
    pub fn movetime(ms: u32) -> Turn {
        Turn {
            go: Go::movetime(u64::from(ms)),
            budget: Duration::from_millis(u64::from(ms)),
            cap: None,
        }
    }

    /// The engine's turn in `session` at `now`: with a clock, the `go`
    /// janggi-uci's clock writes for the side to move once its turn so
    /// far is charged (`wtime` Cho's, `btime` Han's main time left,
    /// `byoyomi` the period, `periods` the mover's periods left when the
    /// control has more than one), the budget being the mover's whole
    /// time left and the cap the level's; without one `go movetime` at
    /// the level's move time.
    pub fn for_session(session: &Session, now: Instant) -> Turn {
        let Some(c) = session.clock else {
            return Turn::movetime(session.settings.movetime_ms);
        };
        let side = session.game.side_to_move();
        let mut left = c;
        if left.charge(side, now).is_err() {
            left.times.flag(side);
        }
        let budget = c
            .deadline(side)
            .map_or(Duration::ZERO, |d| d.saturating_duration_since(now));
        Turn {
            go: left.times.go(side, Dialect::Uci),
            budget,
            cap: session
                .settings
                .clock_cap_ms
                .map(|ms| Duration::from_millis(u64::from(ms))),
        }
    }

    /// When the board sends `stop`: at the cap, or at the budget plus
    /// `grace` when that comes first.
    pub fn deadline(&self, grace: Duration) -> Duration {
        let due = self.budget + grace;
        self.cap.map_or(due, |c| c.min(due))
    }
}

/// The board's engine: the process and the game it was set up for.
pub struct Player {
    /// The process.
    pub process: EngineProcess,
    /// Which game it was configured for (the server's game id).
    pub configured: Option<u64>,
}

impl std::fmt::Debug for Player {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Player")
            .field("process", &self.process)
            .field("configured", &self.configured)
            .finish()
    }
}

impl Player {
    /// Starts the engine and completes `uci` … `uciok`.
    ///
    /// # Errors
    /// [`ProcessError`].
    pub fn start(cmd: &EngineCommand, stop: &AtomicBool) -> Result<Player, ProcessError> {
        let process =
            EngineProcess::start(&cmd.launch(), "engine", false, HANDSHAKE_TIMEOUT, stop)?;
        Ok(Player {
            process,
            configured: None,
        })
    }

    /// `id name`.
    pub fn name(&self) -> Option<String> {
        self.process.id_name().map(str::to_string)
    }

    /// Sends the game's options: the rules (`UCI_Variant` for a preset the
    /// engine lists, else its rule options, else `UCI_Variant janggi`; see
    /// [`EngineProcess::set_rules`]), the skill level and WDL, then
    /// `ucinewgame` and `isready`. Returns a note for the page when the
    /// engine cannot play the chosen rules exactly.
    ///
    /// # Errors
    /// [`ProcessError`].
    pub fn configure(
        &mut self,
        settings: &Settings,
        stop: &AtomicBool,
    ) -> Result<Option<String>, ProcessError> {
        let p = &mut self.process;
        let note = match p.set_rules(&settings.rules)? {
            RulesSetup::Nearest(_) => Some(
                "엔진은 Fairy-Stockfish의 janggi 규칙으로 둡니다 (판정은 고른 규칙으로) / the engine plays Fairy-Stockfish's janggi rules; the board referees with the chosen ones"
                    .to_string(),
            ),
            _ => None,
        };
        if let Some(opt) = p.option("Skill Level").map(str::to_string) {
            p.set_option(&opt, &settings.skill.to_string())?;
        }
        if let Some(opt) = p.option("UCI_ShowWDL").map(str::to_string) {
            p.set_option(&opt, "true")?;
        }
        p.new_game(HANDSHAKE_TIMEOUT, stop)?;
        Ok(note)
    }

    /// Sends `position` and the turn's `go` (see [`Turn`]) and hands every `info`
    /// report to `on_info` until `bestmove`. The search is stopped
    /// (`stop`) at [`Turn::deadline`]; after `stop` it has `grace` more to
    /// answer before it is taken for hung ([`Think::NoReply`]). Once
    /// `cancelled` says yes the search is stopped and its answer read
    /// ([`Think::Cancelled`]); `stop` (the server stops) aborts at once.
    pub fn think(
        &mut self,
        position: &str,
        turn: &Turn,
        grace: Duration,
        stop: &AtomicBool,
        cancelled: &dyn Fn() -> bool,
        on_info: &mut dyn FnMut(&Info),
    ) -> Think {
        self.process.think_with(
            position,
            &turn.go,
            (turn.deadline(grace), grace),
            stop,
            Watch {
                cancel: cancelled,
                on_info,
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::Level;

    #[test]
    fn command_split() {
        let c = EngineCommand::parse("  /usr/bin/fsf  --x y ").unwrap();
        assert_eq!(c.program, PathBuf::from("/usr/bin/fsf"));
        assert_eq!(c.args, vec!["--x", "y"]);
        assert_eq!(EngineCommand::parse("   "), None);
    }

    #[test]
    fn the_deadline_is_the_cap_or_the_budget_and_grace() {
        let g = Duration::from_secs(5);
        assert_eq!(Turn::movetime(300).deadline(g), Duration::from_millis(5300));
        let capped = Turn {
            cap: Some(Duration::from_secs(1)),
            ..Turn::movetime(60_000)
        };
        assert_eq!(capped.deadline(g), Duration::from_secs(1));
    }

    #[test]
    fn go_gives_the_clock_or_the_move_time() {
        let mut settings = Settings::default();
        settings.set_level(Level::Easy);
        let s = Session::new(settings);
        assert_eq!(Turn::for_session(&s, Instant::now()), Turn::movetime(300));
        assert_eq!(Turn::movetime(300).go.to_string(), "go movetime 300");
        let s = Session::on_a_byoyomi_clock(Level::Normal);
        let turn = Turn::for_session(&s, Instant::now());
        let line = turn.go.to_string();
        assert!(line.starts_with("go wtime "), "{line}");
        assert!(
            line.ends_with(" btime 60000 byoyomi 20000 periods 2"),
            "{line}"
        );
        assert!(turn.budget <= Duration::from_secs(100) && turn.budget > Duration::from_secs(99));
        assert_eq!(turn.cap, Some(Duration::from_secs(5)));
    }
}
