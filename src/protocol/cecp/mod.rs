//! CECP v2, the XBoard/WinBoard protocol, chosen by `xboard` as the first
//! command.
//!
//! The dialect is Fairy-Stockfish's for Janggi: squares with ranks `0`–`9`
//! (Cho's back rank is `0`, so UCI `a4b4` is `a3b3`), the pass `@@@@`,
//! Cho moves first and is "white". `protover 2` is answered with the
//! [`features`]; on `variant NAME` (any of our rule sets) the engine sends
//! the [`setup_line`] so that XBoard draws the 9×10 board and the pieces.
//!
//! The engine keeps the game itself: `usermove` plays the opponent's move
//! (`Illegal move: X` and nothing changes when it is not legal), and when
//! the engine is on move and not in `force` mode it thinks on the search
//! thread, printing thinking lines (`ply score time nodes pv`, after
//! `post`) and then `move X`, which the session plays on its game before
//! it handles the next line. A finished game is claimed with
//! `1-0 {…}`, `0-1 {…}` or `1/2-1/2 {…}` (reason, Korean summary, count).
//! `analyze` runs an endless search of the current position, restarted
//! after every move, `undo` and `setboard`, until `exit`. A `draw` offer
//! is answered `offer draw` when the engine's offer rule
//! ([`crate::search::offer`]) agrees, else ignored.
//!
//! Pondering (`hard`) is accepted but not done: the engine uses no time on
//! the opponent's move. XBoard's `piece` command (Betza notation) is not
//! sent: Betza cannot express the palace diagonals (only inside the palace),
//! the cannon's screen that may not be a cannon, nor confine general and
//! guards to the palace, so XBoard must run with legality testing off
//! (`-testLegality false`), as with Fairy-Stockfish; the engine checks
//! every move itself.
//!
//! ```
//! use janggi::protocol::{MemorySink, Session};
//! let sink = MemorySink::default();
//! let mut s = Session::new(sink.clone());
//! for line in ["xboard", "protover 2", "new", "variant janggi", "force", "usermove b0c2", "ping 1"] {
//!     s.handle_line(line);
//! }
//! let lines = sink.lines();
//! assert!(lines.iter().any(|l| l == "feature done=1"));
//! assert!(lines.iter().any(|l| l.starts_with("setup (.H.R.AE..KPC..h.r.ae..kpc.) 9x10+0_janggi ")));
//! assert_eq!(lines.last().map(String::as_str), Some("pong 1"));
//! ```

mod command;
mod text;

pub use command::{looks_like_move, CecpCommand, CecpError, CecpLevel};
pub use text::{
    features, option_feature, result_line, score, setup_line, thinking_line, xboard_fen,
    MATE_SCORE, PIECE_TABLE,
};

use super::events::{final_outcome, rule_event_lines};
use super::notation::{move_text, parse_move};
use super::options::{CecpNative, OptionSpec, OptionType};
use super::{Flow, ProtocolDialect, Session};
use crate::engine::{Report, Reporter};
use crate::search::offer::Offer;
use crate::search::{Clock, Info, Limits, ReportScore};
use janggi_core::{Color, Game, Move, Position, Rules};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

/// Nodes of the quick search that judges a draw offer when no search runs.
pub const DRAW_SEARCH_NODES: u64 = 200_000;

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// What the input side and the search thread share.
#[derive(Debug, Default)]
struct Shared {
    /// A move the engine printed (`move X`) that the session's game has
    /// not played yet.
    played: Mutex<Option<Move>>,
    /// The key of the position last searched and the search's latest
    /// score there (side to move's view).
    score: Mutex<Option<(u64, ReportScore)>>,
    /// The latest line of the current search (for `.`).
    last: Mutex<Option<Info>>,
    /// `post`: print thinking lines while playing.
    post: AtomicBool,
}

/// The CECP session state: the side the engine plays, the modes and the
/// time control XBoard set.
#[derive(Debug)]
pub struct CecpState {
    /// The side the engine plays; `None` in force mode.
    engine_color: Option<Color>,
    /// In analysis mode.
    analyzing: bool,
    /// `level`.
    tc: CecpLevel,
    /// `st`: fixed time per move.
    st: Option<Duration>,
    /// `sd`: depth limit.
    sd: Option<u32>,
    /// `time`: the engine's clock in centiseconds.
    own_cs: Option<i64>,
    /// `hard`/`easy` (accepted; the engine does not ponder).
    hard: bool,
    shared: Arc<Shared>,
}

impl Default for CecpState {
    fn default() -> Self {
        CecpState {
            engine_color: Some(Color::Han),
            analyzing: false,
            tc: CecpLevel::default(),
            st: None,
            sd: None,
            own_cs: None,
            hard: false,
            shared: Arc::new(Shared::default()),
        }
    }
}

/// `score` seen from the other side.
fn flip(score: ReportScore) -> ReportScore {
    match score {
        ReportScore::Cp(cp) => ReportScore::Cp(-cp),
        ReportScore::Mate(n) => ReportScore::Mate(-n),
    }
}

impl Session {
    /// Handles one line in the CECP dialect.
    pub(crate) fn cecp_line(&mut self, line: &str) -> Flow {
        let cmd = match CecpCommand::parse(line) {
            Ok(c) => c,
            Err(CecpError::Empty) => return Flow::Continue,
            Err(e) => {
                self.say(&e.to_string());
                return Flow::Continue;
            }
        };
        // A move the engine printed is part of the game from now on.
        self.cecp_sync();
        self.cecp_execute(cmd)
    }

    /// Plays the move the engine printed, if any, on the session's game.
    fn cecp_sync(&mut self) {
        let printed = lock(&self.cecp.shared.played).take();
        if let Some(mv) = printed {
            let mut game = self.engine.game().clone();
            if game.play(mv).is_ok() && self.engine.set_game(game).is_err() {
                self.say("# error: could not record the engine's move");
            }
        }
    }

    /// Stops any search without a move (its id becomes stale), then plays
    /// a move it printed before that.
    fn cecp_halt(&mut self) {
        self.engine.cancel();
        self.engine.wait();
        self.cecp_sync();
    }

    fn cecp_execute(&mut self, cmd: CecpCommand) -> Flow {
        match cmd {
            CecpCommand::Xboard | CecpCommand::FeatureReply | CecpCommand::Ignored => {}
            CecpCommand::Protover(_) => {
                for line in features() {
                    self.say(&line);
                }
            }
            CecpCommand::New => {
                self.cecp_halt();
                if self.engine.clear_hash().is_err() {
                    self.say("# error: could not clear the hash");
                }
                self.cecp_set_game(Game::new(Position::startpos(), self.rules));
                let c = &mut self.cecp;
                c.engine_color = Some(Color::Han);
                c.sd = None;
                c.own_cs = None;
                self.cecp_resume();
            }
            CecpCommand::Variant(name) => {
                self.cecp_halt();
                match Rules::from_variant(&name) {
                    Ok(rules) => {
                        self.rules = rules;
                        let start = Position::startpos();
                        self.say(&setup_line(&start));
                        self.cecp_set_game(Game::new(start, rules));
                    }
                    Err(_) => self.say(&format!(
                        "Error (unsupported variant): {}",
                        super::command::echo(&name)
                    )),
                }
                self.cecp_resume();
            }
            CecpCommand::Force => {
                self.cecp_halt();
                self.cecp.engine_color = None;
                self.cecp_resume();
            }
            CecpCommand::Go => {
                self.cecp_halt();
                self.cecp.analyzing = false;
                self.cecp.engine_color = Some(self.engine.game().side_to_move());
                self.cecp_think();
            }
            CecpCommand::PlayOther => {
                self.cecp_halt();
                self.cecp.engine_color = Some(!self.engine.game().side_to_move());
                self.cecp_resume();
            }
            CecpCommand::UserMove(text) => self.cecp_usermove(&text),
            CecpCommand::SetBoard(fen) => self.cecp_setboard(&fen),
            CecpCommand::Level(tc) => {
                self.cecp.tc = tc;
                self.cecp.st = None;
            }
            CecpCommand::St(t) => self.cecp.st = Some(t),
            CecpCommand::Sd(d) => self.cecp.sd = Some(d.max(1)),
            CecpCommand::Time(cs) => self.cecp.own_cs = Some(cs),
            // The opponent's clock does not change our budget.
            CecpCommand::Otim(_) => {}
            CecpCommand::Ping(n) => self.say(format!("pong {n}").trim_end()),
            CecpCommand::Undo | CecpCommand::Remove => {
                self.cecp_halt();
                let n = if cmd == CecpCommand::Undo { 1 } else { 2 };
                let mut game = self.engine.game().clone();
                if game.undo_plies(n) < n {
                    self.say("Error (no move to undo): undo");
                }
                self.cecp_set_game(game);
                self.cecp_resume();
            }
            CecpCommand::Result(_) => {
                self.cecp_halt();
                self.cecp.engine_color = None;
            }
            CecpCommand::Post(p) => self.cecp.shared.post.store(p, Ordering::SeqCst),
            CecpCommand::Hard(h) => self.cecp.hard = h,
            CecpCommand::Analyze => {
                self.cecp_halt();
                self.cecp.analyzing = true;
                self.cecp_resume();
            }
            // Only an analysis is ended: a search for the engine's move
            // must still end in a move.
            CecpCommand::Exit if self.cecp.analyzing => {
                self.cecp_halt();
                self.cecp.analyzing = false;
            }
            CecpCommand::Exit => {}
            CecpCommand::Status => self.cecp_status(),
            CecpCommand::MoveNow => {
                if !self.cecp.analyzing {
                    self.engine.stop();
                }
            }
            CecpCommand::Memory(mb) => self.cecp_native(CecpNative::Memory, mb),
            CecpCommand::Cores(n) => self.cecp_native(CecpNative::Cores, n),
            CecpCommand::Option { name, value } => {
                self.cecp_halt();
                self.cecp_option(&name, value.as_deref());
                self.cecp_resume();
            }
            CecpCommand::Draw => self.cecp_draw(),
            CecpCommand::Quit => {
                self.shutdown();
                return Flow::Quit;
            }
            CecpCommand::Display => self.display(),
            CecpCommand::Legal => self.legal(),
            CecpCommand::Eval => {
                if let Err(e) = self.eval() {
                    self.say(&format!("Error (eval): {e}"));
                }
            }
        }
        Flow::Continue
    }

    /// Replaces the game (no search runs: the caller halted it).
    fn cecp_set_game(&mut self, game: Game) {
        if self.engine.set_game(game).is_err() {
            self.say("# error: the engine is busy");
        }
    }

    /// After a change of the game: analyse again in analysis mode, think
    /// when the engine is on move, claim the result of a finished game.
    fn cecp_resume(&mut self) {
        if self.cecp.analyzing {
            self.cecp_analyze();
        } else if self.cecp.engine_color == Some(self.engine.game().side_to_move()) {
            self.cecp_think();
        }
    }

    fn cecp_usermove(&mut self, text: &str) {
        self.cecp_halt();
        let mut game = self.engine.game().clone();
        let played = parse_move(game.position(), text, ProtocolDialect::Cecp)
            .ok()
            .map(|mv| game.play(mv));
        match played {
            Some(Ok(events)) => {
                self.cecp_set_game(game);
                for line in rule_event_lines(self.engine.game(), &events) {
                    // `info string …` becomes a comment XBoard shows in its
                    // debug log only.
                    self.say(&line.replacen("info string ", "# ", 1));
                }
                if let Some(o) = final_outcome(self.engine.game()) {
                    // Claimed by a playing engine (not in force mode, where
                    // XBoard may be loading a game, nor in analysis).
                    if !self.cecp.analyzing && self.cecp.engine_color.is_some() {
                        self.say(&result_line(&o));
                    }
                    return;
                }
            }
            Some(Err(e)) => {
                self.say(&format!("Illegal move: {}", super::command::echo(text)));
                self.say(&format!("# {e}"));
            }
            None => self.say(&format!("Illegal move: {}", super::command::echo(text))),
        }
        self.cecp_resume();
    }

    fn cecp_setboard(&mut self, fen: &str) {
        self.cecp_halt();
        match Position::from_fen(fen) {
            Ok(pos) => {
                // XBoard may send the position after a pass as a setboard:
                // play the pass, which keeps the game's history.
                let mut passed = self.engine.game().clone();
                // Board and side to move decide; XBoard's move counters
                // may differ from ours.
                let board_and_side = |p: &Position| {
                    let fen = p.fen();
                    fen.split(' ').take(2).collect::<Vec<_>>().join(" ")
                };
                let same_after_pass = passed.play(Move::PASS).is_ok()
                    && board_and_side(passed.position()) == board_and_side(&pos);
                if same_after_pass {
                    self.cecp_set_game(passed);
                } else {
                    self.cecp_set_game(Game::new(pos, self.rules));
                }
                self.cecp_resume();
            }
            Err(e) => self.say(&format!("tellusererror Illegal position: {e}")),
        }
    }

    /// The limits of a search for the engine's move.
    fn cecp_limits(&self) -> Limits {
        let c = &self.cecp;
        let mut limits = Limits {
            depth: c.sd,
            move_overhead: Duration::from_millis(self.engine.config().move_overhead_ms),
            multipv: 1,
            ..Limits::default()
        };
        if let Some(st) = c.st {
            limits.movetime = Some(st);
        } else {
            let time = c.own_cs.map_or(c.tc.base, |cs| {
                Duration::from_millis(cs.max(0).unsigned_abs().saturating_mul(10))
            });
            let movestogo = (c.tc.moves > 0).then(|| {
                let done = self.engine.game().ply() / 2;
                c.tc.moves - done % c.tc.moves
            });
            limits.clock = Some(Clock {
                time,
                inc: c.tc.inc,
                movestogo,
                byoyomi: Duration::ZERO,
                periods: 0,
            });
        }
        limits
    }

    /// Starts thinking on the engine's move, or claims the result of a
    /// finished game.
    fn cecp_think(&mut self) {
        if let Some(o) = final_outcome(self.engine.game()) {
            self.say(&result_line(&o));
            return;
        }
        let limits = self.cecp_limits();
        let reporter = self.cecp_reporter(true);
        self.engine.go(limits, false, reporter);
    }

    /// Starts an endless analysis of the current position.
    fn cecp_analyze(&mut self) {
        *lock(&self.cecp.shared.last) = None;
        if self.engine.game().is_over() {
            return;
        }
        let limits = Limits {
            infinite: true,
            move_overhead: Duration::from_millis(self.engine.config().move_overhead_ms),
            multipv: self.engine.config().multipv,
            ..Limits::default()
        };
        let reporter = self.cecp_reporter(false);
        self.engine.go(limits, false, reporter);
    }

    /// The search reporter: thinking lines, and for a search for the
    /// engine's move (`play`) the move and a claim if it ends the game.
    fn cecp_reporter(&self, play: bool) -> Reporter {
        let out = self.out.clone();
        let shared = Arc::clone(&self.cecp.shared);
        Arc::new(move |game: &Game, r: Report<'_>| match r {
            Report::Info(info) => {
                if info.multipv <= 1 {
                    *lock(&shared.score) = Some((game.position().key(), info.score));
                    *lock(&shared.last) = Some(info.clone());
                }
                if !play || shared.post.load(Ordering::SeqCst) {
                    out.line(&thinking_line(game, info));
                }
            }
            Report::CurrMove(_) | Report::NoMove { .. } => {}
            Report::Message(m) => out.line(&format!("# {m}")),
            Report::BestMove { best, .. } if play => match best {
                Some(mv) => {
                    // Recorded before it is printed: the GUI's next
                    // command comes after it has seen the move.
                    *lock(&shared.played) = Some(mv);
                    out.line(&format!(
                        "move {}",
                        move_text(game.position(), mv, ProtocolDialect::Cecp)
                    ));
                    let mut after = game.clone();
                    if after.play(mv).is_ok() {
                        if let Some(o) = final_outcome(&after) {
                            out.line(&result_line(&o));
                        }
                    }
                }
                None => match final_outcome(game) {
                    Some(o) => out.line(&result_line(&o)),
                    None => out.line("resign"),
                },
            },
            Report::BestMove { .. } => {}
        })
    }

    /// `.`: `stat01: time nodes ply mvleft mvtot` of the running analysis.
    fn cecp_status(&self) {
        if !self.cecp.analyzing {
            return;
        }
        if let Some(info) = lock(&self.cecp.shared.last).as_ref() {
            let total = self.engine.game().legal_moves().len();
            self.say(&format!(
                "stat01: {} {} {} 0 {total}",
                info.time_ms / 10,
                info.nodes,
                info.depth
            ));
        }
    }

    /// `memory MB` / `cores N`: the setter of the option the table marks
    /// with `which` (`Hash` / `Threads`), the value clamped to its range.
    fn cecp_native(&mut self, which: CecpNative, n: usize) {
        self.cecp_halt();
        if let Some(o) = OptionSpec::for_cecp(which) {
            let n = o.clamp(i64::try_from(n).unwrap_or(i64::MAX));
            let set = match (o.kind, n) {
                (OptionType::Spin { set, .. }, Some(n)) => set(self, n),
                _ => Ok(()),
            };
            if set.is_err() {
                self.say(&format!("Error (busy): {}", which.word()));
            }
        }
        self.cecp_resume();
    }

    /// `option NAME[=VALUE]`: a check box's `0`/`1` is `false`/`true`.
    fn cecp_option(&mut self, name: &str, value: Option<&str>) {
        let checked = |v: &str| match v {
            "1" => "true".to_string(),
            "0" => "false".to_string(),
            v => v.to_string(),
        };
        let value = match (OptionSpec::find(name).map(|o| o.kind), value) {
            (Some(OptionType::Check { .. }), Some(v)) => Some(checked(v)),
            (_, v) => v.map(str::to_string),
        };
        if let Err(e) = self.set_option(name, value.as_deref()) {
            self.say(&format!("Error (bad option): {e}"));
        }
    }

    /// `draw`: answers `offer draw` when [`crate::search::offer`] agrees,
    /// judged by the running search's latest score for this position or,
    /// when no search runs, by a quick search of [`DRAW_SEARCH_NODES`]
    /// nodes; otherwise the offer is ignored (a `#` comment says why).
    fn cecp_draw(&mut self) {
        let game = self.engine.game();
        let stm = game.side_to_move();
        let key = game.position().key();
        let engine = self.cecp.engine_color.unwrap_or(stm);
        let score = if self.engine.is_searching() {
            lock(&self.cecp.shared.score)
                .filter(|(k, _)| *k == key)
                .map(|(_, s)| s)
        } else {
            self.quick_score()
        };
        let score = score.map(|s| if engine == stm { s } else { flip(s) });
        let answer = self.engine.answer_offer(engine, Offer::Draw, score);
        if answer.accept {
            self.say("offer draw");
            self.say(&format!("# draw accepted: {}", answer.reason.text()));
        } else {
            self.say(&format!("# draw declined: {}", answer.reason.text()));
        }
    }

    /// A short search's score of the current position (side to move's
    /// view); no output.
    fn quick_score(&mut self) -> Option<ReportScore> {
        if self.engine.game().is_over() {
            return None;
        }
        let slot: Arc<Mutex<Option<ReportScore>>> = Arc::default();
        let inner = Arc::clone(&slot);
        let reporter: Reporter = Arc::new(move |_: &Game, r: Report<'_>| {
            if let Report::Info(info) = r {
                if info.multipv <= 1 {
                    *lock(&inner) = Some(info.score);
                }
            }
        });
        let limits = Limits {
            nodes: Some(DRAW_SEARCH_NODES),
            multipv: 1,
            ..Limits::default()
        };
        self.engine.go(limits, false, reporter);
        self.engine.wait();
        let s = *lock(&slot);
        s
    }
}
