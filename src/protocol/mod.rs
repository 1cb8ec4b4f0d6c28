//! The text protocol: UCI (Fairy-Stockfish's Janggi dialect), USI, UCCI
//! and CECP (XBoard/WinBoard, [`cecp`]) on a line-based input and a
//! [`Write`] sink. The engine options are declared once, in [`options`].
//!
//! [`run`] reads lines on a reader thread and feeds them to a [`Session`],
//! which parses each into a [`Command`] and dispatches it to the [`Engine`].
//! The search runs on the engine's thread, so the input side stays
//! responsive: `isready` is answered at once and `stop` is acted on at once,
//! even mid-search. `position`/`setoption`/`ucinewgame` during a search that
//! ends by itself wait for it (still acting on `stop`, `ponderhit`,
//! `isready` and `quit` meanwhile, keeping other lines for later); during an
//! `infinite` or ponder search they are refused with an error. Every
//! bad input gives one `info string error: …` line and changes nothing (or,
//! for a bad move list, keeps the valid prefix); nothing panics.
//!
//! ```
//! use janggi::protocol::{MemorySink, Session};
//! let sink = MemorySink::default();
//! let mut s = Session::new(sink.clone());
//! s.handle_line("uci");
//! s.handle_line("position startpos moves b1c3");
//! s.handle_line("legal");
//! assert!(sink.lines().iter().any(|l| l == "uciok"));
//! assert!(sink.lines().iter().any(|l| l.starts_with("legal ")));
//! ```

pub mod cecp;
pub mod command;
mod error;
mod events;
mod io;
pub mod notation;
pub mod options;
pub mod uci;
pub mod wdl;

pub use command::{Command, CommandError, StartPos};
pub use error::{MoveError, ProtocolError};
pub use io::{run, Input, MemorySink, Output, MAX_LINE};
pub use options::{
    CecpAccess, CecpNative, OptionError, OptionSpec, OptionType, OptionValue, OPTIONS,
};

use crate::engine::{Engine, Report, Reporter};
use crate::search::{Clock, Limits};
use command::echo;
use error::busy;
use events::{final_outcome, last_move_events, refused_repetitions, rule_event_lines};
use janggi_core::{Color, Game, Position, Rules, Square};
use janggi_uci::LenientGo;
use notation::{move_text, parse_move, sfen_to_fen, square_text};
use std::collections::VecDeque;
use std::io::Write;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::Duration;

/// Engine name in `id name` (and CECP's `myname`).
pub const ENGINE_NAME: &str = concat!("janggi-engine ", env!("CARGO_PKG_VERSION"));
/// Author line in `id author`.
pub const ENGINE_AUTHOR: &str = "the janggi-engine developers";

/// How long `quit` waits for the search thread before exiting anyway.
pub const QUIT_GRACE: Duration = Duration::from_secs(2);
/// How often the input side looks at a search it waits for.
const WAIT_POLL: Duration = Duration::from_millis(2);

/// The protocol dialect, chosen by the first command.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ProtocolDialect {
    /// UCI as Fairy-Stockfish speaks it for Janggi (`a1`–`i10`).
    #[default]
    Uci,
    /// USI (`9j`–`1a`, `USI_` option names, `bestmove resign`).
    Usi,
    /// UCCI (ranks `0`–`9`).
    Ucci,
    /// CECP v2, the XBoard/WinBoard protocol (ranks `0`–`9`, pass `@@@@`;
    /// see [`cecp`]).
    Cecp,
}

/// What the loop does after a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next line.
    Continue,
    /// `quit` was received.
    Quit,
}

/// One protocol session: dialect, option values, the engine.
#[derive(Debug)]
pub struct Session {
    engine: Engine,
    out: Output,
    dialect: ProtocolDialect,
    rules: Rules,
    /// The start, moves (the valid prefix) and final key of the game last
    /// set by `position`, so that a `position` extending it plays only the
    /// new moves.
    last_position: Option<(StartPos, Vec<String>, u64)>,
    /// The XBoard protocol's state (once `xboard` chose it).
    cecp: cecp::CecpState,
    /// Lines from the reader thread (when run by [`run`]).
    input: Option<Receiver<Input>>,
    /// Lines read while waiting for a search, to be handled in order.
    pending: VecDeque<Input>,
    /// The reader thread has hung up.
    eof: bool,
}

impl Session {
    /// A session writing to `w`.
    pub fn new<W: Write + Send + 'static>(w: W) -> Session {
        Session::with_output(Output::new(w))
    }

    /// A session writing to `out`.
    pub fn with_output(out: Output) -> Session {
        Session {
            engine: Engine::new(),
            out,
            dialect: ProtocolDialect::Uci,
            rules: Rules::default(),
            last_position: None,
            cecp: cecp::CecpState::default(),
            input: None,
            pending: VecDeque::new(),
            eof: false,
        }
    }

    /// Reads input from `rx` (lines of a reader thread). While a command
    /// waits for a finite search to end, `stop`, `ponderhit`, `isready` and
    /// `quit` arriving meanwhile are acted on at once; other lines are
    /// kept and handled afterwards, in order.
    pub fn attach_input(&mut self, rx: Receiver<Input>) {
        self.input = Some(rx);
    }

    /// The next input to handle: kept lines first, then the reader's;
    /// `None` at end of input. Without attached input, always `None`.
    pub fn next_input(&mut self) -> Option<Input> {
        if let Some(i) = self.pending.pop_front() {
            return Some(i);
        }
        if self.eof {
            return None;
        }
        let got = self.input.as_ref().and_then(|rx| rx.recv().ok());
        if got.is_none() {
            self.eof = true;
        }
        got
    }

    /// Before a command that changes state: lets a running finite search
    /// end while still acting on `stop`/`ponderhit`/`isready`/`quit` (see
    /// [`Session::attach_input`]). Without attached input the engine simply
    /// waits for the search.
    fn await_search(&mut self) {
        let Some(rx) = self.input.take() else {
            return;
        };
        while !self.eof && self.engine.is_searching() && !self.engine.waits_for_stop() {
            if self.engine.answered() {
                // The `bestmove` is out: nothing is left to answer out of
                // turn. Let the thread wind down; every line read from now
                // on is handled strictly in order (an `isready` after this
                // command gets its `readyok` after this command's output).
                self.engine.wait();
                break;
            }
            match rx.recv_timeout(WAIT_POLL) {
                Ok(Input::Line(line)) if self.engine.answered() => {
                    self.pending.push_back(Input::Line(line));
                }
                Ok(Input::Line(line)) => match Command::parse(&line) {
                    Ok(Command::Stop) => self.engine.stop(),
                    Ok(Command::PonderHit) => self.engine.ponderhit(),
                    Ok(Command::IsReady) => self.say("readyok"),
                    Ok(Command::Quit) => {
                        // Quit comes next, before anything else kept.
                        self.engine.stop();
                        self.pending.push_front(Input::Line(line));
                        break;
                    }
                    _ => self.pending.push_back(Input::Line(line)),
                },
                Ok(other) => self.pending.push_back(other),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => self.eof = true,
            }
        }
        self.input = Some(rx);
    }

    /// The dialect in use.
    pub fn dialect(&self) -> ProtocolDialect {
        self.dialect
    }

    /// The engine (for inspection).
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// Prints one `info string error: …` line.
    pub fn error(&self, e: &ProtocolError) {
        self.out.line(&format!("info string error: {e}"));
    }

    fn say(&self, text: &str) {
        self.out.line(text);
    }

    /// Handles one input line (without or with its line ending).
    pub fn handle_line(&mut self, line: &str) -> Flow {
        if self.dialect == ProtocolDialect::Cecp {
            return self.cecp_line(line);
        }
        let cmd = match Command::parse(line) {
            Ok(c) => c,
            Err(CommandError::Empty) => return Flow::Continue,
            Err(e) => {
                self.error(&e.into());
                return Flow::Continue;
            }
        };
        match self.execute(cmd) {
            Ok(flow) => flow,
            Err(e) => {
                self.error(&e);
                Flow::Continue
            }
        }
    }

    /// Called at the end of input: a search that waits for `stop` is
    /// stopped; a finite one is allowed to finish and print its move.
    pub fn end_of_input(&mut self) {
        self.engine.wait();
    }

    /// Stops any search and waits briefly for it (what `quit` does).
    pub fn shutdown(&mut self) {
        self.engine.quit(QUIT_GRACE);
    }

    fn execute(&mut self, cmd: Command) -> Result<Flow, ProtocolError> {
        if matches!(
            cmd,
            Command::SetOption { .. } | Command::NewGame | Command::Position { .. }
        ) {
            self.await_search();
        }
        match cmd {
            Command::Uci => self.handshake(ProtocolDialect::Uci),
            Command::Usi => self.handshake(ProtocolDialect::Usi),
            Command::Ucci => self.handshake(ProtocolDialect::Ucci),
            // CECP: nothing to answer until `protover`.
            Command::Xboard => self.dialect = ProtocolDialect::Cecp,
            Command::Debug(_) => {}
            Command::IsReady => self.say("readyok"),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref())?,
            Command::NewGame => self.engine.clear_hash().map_err(busy("ucinewgame"))?,
            Command::Position { start, moves } => {
                self.position(start, &moves)?;
                // What the last move caused that a GUI does not see on its
                // board (told once: the next `position` has one more move).
                for line in
                    rule_event_lines(self.engine.game(), &last_move_events(self.engine.game()))
                {
                    self.say(&line);
                }
            }
            Command::Go(g) => self.go(*g)?,
            Command::Stop => self.engine.stop(),
            Command::PonderHit => self.engine.ponderhit(),
            Command::Quit => {
                self.shutdown();
                if self.dialect == ProtocolDialect::Ucci {
                    self.say("bye");
                }
                return Ok(Flow::Quit);
            }
            // USI: accepted silently; a running (ponder) search is dropped
            // without a bestmove, since the game it was for is over.
            Command::GameOver(_) => self.engine.cancel(),
            Command::Display => self.display(),
            Command::Legal => self.legal(),
            Command::Result => self.result(),
            Command::Eval => self.eval()?,
            Command::Bench { depth } => self.bench(depth)?,
        }
        Ok(Flow::Continue)
    }

    fn handshake(&mut self, dialect: ProtocolDialect) {
        self.dialect = dialect;
        for line in uci::handshake(dialect) {
            self.say(&line);
        }
    }

    /// Switches the rule set, re-playing the current game's moves under it
    /// (the valid prefix is kept if a move is no longer legal).
    fn set_rules(&mut self, rules: Rules) -> Result<(), ProtocolError> {
        let current = self.engine.game();
        let moves = current.moves();
        let mut start = current.clone();
        while start.undo() {}
        let mut game = Game::new(start.position().clone(), rules);
        let mut failure = None;
        for (i, &mv) in moves.iter().enumerate() {
            let text = move_text(game.position(), mv, self.dialect);
            if let Err(e) = game.play(mv) {
                failure = Some(ProtocolError::Move {
                    index: i + 1,
                    text,
                    error: MoveError::Illegal(e),
                    replay: true,
                });
                break;
            }
        }
        self.engine.set_game(game).map_err(busy("setoption"))?;
        self.rules = rules;
        failure.map_or(Ok(()), Err)
    }

    /// `position`: a GUI sends the whole game before every move, so a
    /// command that repeats the previous one's start and moves and adds
    /// some plays only the new moves on the current game (the work per
    /// command does not grow with the length of the game); anything else
    /// builds the game from its start.
    fn position(&mut self, start: StartPos, moves: &[String]) -> Result<(), ProtocolError> {
        let current = self.engine.game();
        // Still the game `position` set: same length, rules and position
        // (whatever else may have replaced the engine's game since).
        let extends = self.last_position.as_ref().is_some_and(|(s, known, key)| {
            *s == start
                && moves.starts_with(known)
                && current.ply() as usize == known.len()
                && current.position().key() == *key
                && *current.rules() == self.rules
        });
        let (mut game, done) = if extends {
            let known = self.last_position.as_ref().map_or(0, |(_, m, _)| m.len());
            (current.clone(), known)
        } else {
            self.last_position = None;
            (Game::new(self.start_position(&start)?, self.rules), 0)
        };
        let mut failure = None;
        let mut played = done;
        for (i, text) in moves.iter().enumerate().skip(done) {
            let result = parse_move(game.position(), text, self.dialect)
                .map_err(MoveError::Syntax)
                .and_then(|mv| game.play(mv).map_err(MoveError::Illegal));
            if let Err(error) = result {
                failure = Some(ProtocolError::Move {
                    index: i + 1,
                    text: echo(text),
                    error,
                    replay: false,
                });
                break;
            }
            played = i + 1;
        }
        let key = game.position().key();
        self.engine.set_game(game).map_err(busy("position"))?;
        match self.last_position.as_mut() {
            Some((_, known, k)) => {
                known.extend_from_slice(&moves[known.len()..played]);
                *k = key;
            }
            None => self.last_position = Some((start, moves[..played].to_vec(), key)),
        }
        failure.map_or(Ok(()), Err)
    }

    /// The position a `position` command starts from.
    fn start_position(&self, start: &StartPos) -> Result<Position, ProtocolError> {
        Ok(match start {
            StartPos::Startpos => Position::startpos(),
            StartPos::Fen(f) => Position::from_fen(f).map_err(|error| ProtocolError::Fen {
                fen: echo(f),
                error,
            })?,
            StartPos::Sfen(s) => {
                let f = sfen_to_fen(s);
                Position::from_fen(&f).map_err(|error| ProtocolError::Fen {
                    fen: echo(s),
                    error,
                })?
            }
        })
    }

    fn limits(&self, g: &LenientGo) -> Limits {
        let ms = |v: Option<u64>| Duration::from_millis(v.unwrap_or(0));
        let stm = self.engine.game().side_to_move();
        // UCI: Cho is "white" (wtime); USI: Cho is sente, "black" (btime).
        // UCCI's `time`/`increment`, when given, are the side to move's.
        let wire = match self.dialect {
            ProtocolDialect::Usi => janggi_uci::Dialect::Usi,
            _ => janggi_uci::Dialect::Uci,
        };
        let clock = g.has_clock().then(|| {
            let byoyomi = ms(g.go.byoyomi);
            Clock {
                time: ms(g.own_time(wire, stm)),
                inc: ms(g.own_inc(wire, stm)),
                movestogo: g.go.movestogo.filter(|&n| n > 0),
                byoyomi,
                periods: g.go.periods.unwrap_or(u32::from(!byoyomi.is_zero())),
            }
        });
        Limits {
            depth: g.go.depth,
            nodes: g.go.nodes,
            mate: g.go.mate,
            movetime: g.go.movetime.map(Duration::from_millis),
            clock,
            infinite: g.go.infinite,
            move_overhead: Duration::from_millis(self.engine.config().move_overhead_ms),
            multipv: self.engine.config().multipv,
            searchmoves: Vec::new(),
        }
    }

    /// The legal moves among `go searchmoves …`; an unparsable or illegal
    /// one gets an error line and is left out.
    fn searchmoves(&self, texts: &[String]) -> Vec<janggi_core::Move> {
        let game = self.engine.game();
        let mut moves = Vec::new();
        for (i, text) in texts.iter().enumerate() {
            let mv = parse_move(game.position(), text, self.dialect)
                .map_err(MoveError::Syntax)
                .and_then(|mv| {
                    if game.is_legal(mv) {
                        Ok(mv)
                    } else {
                        let why = game.clone().play(mv).err();
                        Err(MoveError::Illegal(why.unwrap_or(
                            janggi_core::IllegalMove::NotLegal("not legal here"),
                        )))
                    }
                });
            match mv {
                Ok(mv) if !moves.contains(&mv) => moves.push(mv),
                Ok(_) => {}
                Err(error) => self.say(&format!(
                    "info string error: go searchmoves: move {} '{}' {}; left out",
                    i + 1,
                    echo(text),
                    match error {
                        MoveError::Syntax(_) => "is not move text".to_string(),
                        MoveError::Illegal(e) => format!("is not legal ({e})"),
                    }
                )),
            }
        }
        moves
    }

    fn go(&mut self, g: LenientGo) -> Result<(), ProtocolError> {
        for u in &g.unknown {
            self.error(&ProtocolError::Command(CommandError::Unexpected {
                command: "go",
                token: echo(u),
            }));
        }
        if let Some(depth) = g.perft {
            self.perft(depth);
            return Ok(());
        }
        let mut limits = self.limits(&g);
        if !g.go.searchmoves.is_empty() {
            limits.searchmoves = self.searchmoves(&g.go.searchmoves);
            if limits.searchmoves.is_empty() {
                self.say("info string go searchmoves: no legal move given; searching all moves");
            }
        }
        for line in refused_repetitions(self.engine.game(), self.dialect) {
            self.say(&line);
        }
        let out = self.out.clone();
        let dialect = self.dialect;
        let show_wdl = self.engine.config().show_wdl;
        let reporter: Reporter = Arc::new(move |game: &Game, r: Report<'_>| match r {
            Report::Info(info) => out.line(&uci::info_line(game, info, dialect, show_wdl)),
            Report::CurrMove(c) => out.line(&uci::currmove_line(game, &c, dialect)),
            Report::NoMove { score } => out.line(&uci::no_move_line(score)),
            Report::Message(m) => out.line(&format!("info string {m}")),
            Report::BestMove { best, ponder } => {
                out.line(&uci::bestmove_line(game, best, ponder, dialect))
            }
        });
        self.engine.go(limits, g.go.ponder, reporter);
        Ok(())
    }

    fn perft(&mut self, depth: u32) {
        let rows = self.engine.perft(depth);
        let pos = self.engine.game().position();
        let mut total: u64 = 0;
        if depth == 0 {
            total = 1;
        } else {
            for (mv, n) in &rows {
                self.say(&format!("{}: {}", move_text(pos, *mv, self.dialect), n));
                total += n;
            }
        }
        self.say("");
        self.say(&format!("Nodes searched: {total}"));
    }

    fn display(&self) {
        let game = self.engine.game();
        let pos = game.position();
        let sep = format!(" +{}", "---+".repeat(9));
        self.say(&sep);
        for rank in (0..10u8).rev() {
            let mut row = String::from(" |");
            for file in 0..9u8 {
                let c = Square::new(file, rank)
                    .and_then(|s| pos.piece_at(s))
                    .map_or(' ', |p| p.letter());
                row.push_str(&format!(" {c} |"));
            }
            let label = match self.dialect {
                ProtocolDialect::Uci => (rank + 1).to_string(),
                ProtocolDialect::Ucci | ProtocolDialect::Cecp => rank.to_string(),
                ProtocolDialect::Usi => char::from(b'a' + (9 - rank)).to_string(),
            };
            self.say(&format!("{row} {label}"));
            self.say(&sep);
        }
        let files: Vec<String> = (0..9u8)
            .map(|f| match self.dialect {
                ProtocolDialect::Usi => (9 - f).to_string(),
                _ => char::from(b'a' + f).to_string(),
            })
            .collect();
        self.say(&format!("   {}", files.join("   ")));
        self.say("");
        self.say(&format!("Fen: {}", pos.fen()));
        self.say(&format!("Key: {:016X}", pos.key()));
        let checkers: Vec<String> = pos
            .checkers()
            .iter()
            .map(|s| square_text(s, self.dialect))
            .collect();
        let line = format!("Checkers: {}", checkers.join(" "));
        self.say(line.trim_end());
    }

    fn legal(&self) {
        let game = self.engine.game();
        let mut line = String::from("legal");
        for &mv in game.legal_moves().iter() {
            line.push(' ');
            line.push_str(&move_text(game.position(), mv, self.dialect));
        }
        self.say(&line);
    }

    fn result(&self) {
        let Some(outcome) = final_outcome(self.engine.game()) else {
            self.say("result ongoing");
            return;
        };
        let winner = outcome.winner.map_or("draw", Color::name);
        self.say(&format!(
            "result {winner} {} cho {} han {}",
            outcome.reason.name(),
            outcome.cho_points,
            outcome.han_points
        ));
        self.say(&format!("info string {}", outcome.summary_ko()));
    }

    /// `eval`: one line per term (each side from its own point of view),
    /// then the final score from the side to move's point of view.
    fn eval(&self) -> Result<(), ProtocolError> {
        let e = self.engine.evaluation();
        let stm = self.engine.game().position().side_to_move();
        self.say(&format!(
            "{:<10} {:>7} {:>7} {:>8}",
            "term", "cho", "han", "cho-han"
        ));
        for t in &e.terms {
            self.say(&format!(
                "{:<10} {:>7} {:>7} {:>8}",
                t.name,
                t.cho,
                t.han,
                t.cho - t.han
            ));
        }
        self.say(&format!(
            "Final evaluation: {} cp ({} to move, side to move's view, tempo {} included)",
            e.handcrafted,
            stm.name(),
            crate::eval::TEMPO
        ));
        self.say(&format!(
            "NNUE evaluation: {} cp ({} to move, side to move's view; {:?})",
            e.nnue,
            stm.name(),
            e.network
        ));
        self.say(&format!(
            "Search uses: {}",
            if e.search_uses_nnue {
                "NNUE (Use NNUE true)"
            } else {
                "handcrafted evaluation (Use NNUE false)"
            }
        ));
        Ok(())
    }

    /// `bench [depth]`: the search benchmark, on this thread (it uses its
    /// own searcher, so a running search is not disturbed). Ends with
    /// `Nodes searched: N` and `Nodes/second: N`; the node count is the
    /// deterministic signature.
    fn bench(&mut self, depth: Option<u32>) -> Result<(), ProtocolError> {
        let total = crate::bench::FENS.len();
        let out = self.out.clone();
        let report = self.engine.bench(depth, &mut |i, fen, nodes| {
            out.line(&format!("Position {}/{total}: {nodes} nodes  {fen}", i + 1));
        });
        self.say(&format!("Bench: {}", report.nodes));
        self.say(&format!("Total time (ms): {}", report.elapsed.as_millis()));
        self.say(&format!("Nodes searched: {}", report.nodes));
        self.say(&format!("Nodes/second: {}", report.nps));
        Ok(())
    }
}
