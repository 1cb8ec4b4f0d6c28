//! Long-game timing (issue 17): does anything grow with the length of a
//! game?
//!
//! Builds one deterministic game under `janggikjf` that never captures:
//! the generals and guards shuffle in their palaces at random (the longest
//! capture-free stretch possible, the worst case for anything that looks
//! back to the last capture, in a full-board position the search treats
//! as usual), then at each checkpoint (20, 2,000 and 15,000 plies by
//! default) measures
//!
//! * **the runner's own work per move**: what the match runner's referee
//!   does for every move apart from waiting for the engine (building the
//!   `position` line, the `go` line and the FEN for the log, parsing the
//!   reply, playing it under the rules: [`Scoresheet`]), median over the
//!   `--reps` moves before the checkpoint;
//! * **`position` handling** by this build's protocol layer, in process
//!   (no pipe): a line one move longer than the last one (what a GUI
//!   sends; only the new move is played) and the whole game from a start
//!   it cannot extend (`position fen <start> moves …`: what every
//!   `position` cost before issue 17), medians;
//! * **the engine's answer time** for each `--engine`, as the runner sees
//!   it: `position startpos moves …` (one move longer than the last) then
//!   `go movetime N`, timed from writing `go` to reading `bestmove`;
//!   median and maximum over `--reps` answers, and the median of the nodes
//!   per second it reported.
//!
//! ```sh
//! cargo build --release
//! cargo run --release --example long_games -- --engine target/release/janggi-engine
//! cargo run --release --example long_games -- --engine OLD --engine NEW --reps 10 --movetime 100
//! ```
//!
//! `--dump FILE` writes each checkpoint's `position` line to FILE, to feed
//! an engine by hand.

use janggi::protocol::{MemorySink, Session};
use janggi::rng::SplitMix64;
use janggi::{Game, Rules};
use janggi::{IllegalMove, Move, MoveParseError, Notation, PieceKind, Position};
use janggi_match::clock::{game_clock, go_command, ThinkingLimits};
use janggi_match::engine_process::EngineProtocol;
use janggi_match::scoresheet::Scoresheet;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

/// Default checkpoints (plies).
const CHECKPOINTS: [usize; 3] = [20, 2_000, 15_000];
/// Default answers measured per checkpoint.
const REPS: usize = 10;
/// Default `go movetime`.
const MOVETIME_MS: u64 = 100;
/// Seed of the game.
const SEED: u64 = 17;

struct Options {
    engines: Vec<String>,
    checkpoints: Vec<usize>,
    reps: usize,
    movetime: u64,
    /// Write each checkpoint's `position` line here.
    dump: Option<String>,
}

/// The command line's usage, named when an argument is unknown.
const USAGE: &str = "--engine PATH [--engine PATH] [--plies 20,2000,15000] [--reps N] [--movetime MS] [--dump FILE]";

/// What went wrong: with the arguments, building the game, or talking to
/// an engine. `main` prints it after `error: ` (and the engine's path or
/// "building the game").
#[derive(Debug)]
enum LongGamesError {
    /// An option without its value (the option).
    NeedsValue(String),
    /// A `--plies` entry that is not a number.
    BadPlies(String),
    /// `--reps` is not a number.
    BadReps,
    /// `--movetime` is not a number.
    BadMovetime,
    /// An argument that is no option.
    UnknownArgument(String),
    /// A checkpoint earlier than `--reps` plies.
    CheckpointBeforeReps,
    /// The game has no move to play at this ply.
    NoMove(usize),
    /// The game ended at this ply.
    GameEnded(usize),
    /// The move picked at `ply` did not read back from its text.
    MoveText { ply: usize, error: MoveParseError },
    /// The referee refused the move picked at `ply`.
    Illegal { ply: usize, error: IllegalMove },
    /// A capture happened after all.
    Captured,
    /// The engine program could not be started.
    Start { path: String, error: std::io::Error },
    /// The child has no pipe on this side (`"stdin"` or `"stdout"`).
    NoPipe(&'static str),
    /// Writing to the engine failed.
    Write(std::io::Error),
    /// Reading from the engine failed.
    Read(std::io::Error),
    /// The engine closed its output before the awaited word.
    Closed { waiting_for: String },
}

impl std::fmt::Display for LongGamesError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use LongGamesError as E;
        match self {
            E::NeedsValue(option) => write!(f, "{option} needs a value"),
            E::BadPlies(p) => write!(f, "bad ply count '{p}'"),
            E::BadReps => f.write_str("bad --reps"),
            E::BadMovetime => f.write_str("bad --movetime"),
            E::UnknownArgument(a) => write!(f, "unknown argument '{a}' ({USAGE})"),
            E::CheckpointBeforeReps => {
                f.write_str("every checkpoint must be at least --reps plies")
            }
            E::NoMove(ply) => write!(f, "no move at ply {ply}"),
            E::GameEnded(ply) => write!(f, "the game ended at ply {ply}"),
            E::MoveText { ply, error } => write!(f, "ply {ply}: {error}"),
            E::Illegal { ply, error } => write!(f, "ply {ply}: {error}"),
            E::Captured => f.write_str("the game captured"),
            E::Start { path, error } => write!(f, "cannot start {path}: {error}"),
            E::NoPipe(which) => write!(f, "no {which}"),
            E::Write(e) => write!(f, "write: {e}"),
            E::Read(e) => e.fmt(f),
            E::Closed { waiting_for } => {
                write!(f, "engine closed its output waiting for {waiting_for}")
            }
        }
    }
}

impl std::error::Error for LongGamesError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LongGamesError::MoveText { error, .. } => Some(error),
            LongGamesError::Illegal { error, .. } => Some(error),
            LongGamesError::Start { error, .. }
            | LongGamesError::Write(error)
            | LongGamesError::Read(error) => Some(error),
            _ => None,
        }
    }
}

fn parse_args() -> Result<Options, LongGamesError> {
    let mut o = Options {
        engines: Vec::new(),
        checkpoints: CHECKPOINTS.to_vec(),
        reps: REPS,
        movetime: MOVETIME_MS,
        dump: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || {
            args.next()
                .ok_or_else(|| LongGamesError::NeedsValue(a.clone()))
        };
        match a.as_str() {
            "--engine" => o.engines.push(value()?),
            "--plies" => {
                o.checkpoints = value()?
                    .split(',')
                    .map(|p| {
                        p.trim()
                            .parse()
                            .map_err(|_| LongGamesError::BadPlies(p.to_string()))
                    })
                    .collect::<Result<_, _>>()?
            }
            "--dump" => o.dump = Some(value()?),
            "--reps" => o.reps = value()?.parse().map_err(|_| LongGamesError::BadReps)?,
            "--movetime" => {
                o.movetime = value()?.parse().map_err(|_| LongGamesError::BadMovetime)?
            }
            _ => return Err(LongGamesError::UnknownArgument(a)),
        }
    }
    o.reps = o.reps.max(1);
    if o.checkpoints.iter().any(|&c| c < o.reps) {
        return Err(LongGamesError::CheckpointBeforeReps);
    }
    Ok(o)
}

/// A move of a general or guard inside its palace (nothing else moves, so
/// the game is the start position with the palaces shuffled: no capture,
/// no check, no bikjang behind the centre soldiers, nothing for the search
/// to cut short), else any quiet move, else any legal move but the pass.
fn pick(game: &Game, work: &Position, rng: &mut SplitMix64) -> Option<Move> {
    let legal = game.legal_moves();
    let quiet = |m: &&Move| !m.is_pass() && work.piece_at(m.to()).is_none();
    let palace: Vec<Move> = legal
        .iter()
        .filter(quiet)
        .filter(|m| {
            work.piece_at(m.from())
                .is_some_and(|p| matches!(p.kind, PieceKind::General | PieceKind::Guard))
        })
        .copied()
        .collect();
    let any: Vec<Move> = legal.iter().filter(quiet).copied().collect();
    let any = if any.is_empty() {
        legal.iter().copied().filter(|m| !m.is_pass()).collect()
    } else {
        any
    };
    let pool = if palace.is_empty() { any } else { palace };
    (!pool.is_empty()).then(|| pool[rng.below(pool.len())])
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// The game's moves in UCI text and the runner's median work per move
/// (µs) over the `reps` moves before each checkpoint.
fn build_game(o: &Options) -> Result<(Vec<String>, Vec<f64>), LongGamesError> {
    let last = o.checkpoints.iter().copied().max().unwrap_or(0);
    let start = Position::startpos();
    let mut sheet = Scoresheet::new(&start.fen(), Game::new(start.clone(), Rules::default()));
    let mut work = start;
    let mut rng = SplitMix64::new(SEED);
    let limits = ThinkingLimits {
        movetime_ms: Some(o.movetime),
        ..ThinkingLimits::default()
    };
    let mut texts = Vec::with_capacity(last);
    let mut samples: Vec<f64> = Vec::new();
    let mut overhead = Vec::new();
    for ply in 1..=last {
        let Some(mv) = pick(&sheet.game, &work, &mut rng) else {
            return Err(LongGamesError::NoMove(ply));
        };
        let text = sheet.game.position().move_text(mv, Notation::Uci);
        // What the referee does for a move besides waiting for the engine.
        let t = Instant::now();
        let side = sheet.game.side_to_move();
        // The line itself is written to the engine's pipe (that write is
        // the engine's I/O, proportional to the line as UCI requires).
        let position = sheet.position_command(EngineProtocol::Uci).len();
        let go = go_command(
            EngineProtocol::Uci,
            &limits,
            side,
            &game_clock([&limits, &limits]),
        )
        .to_string();
        let fen = sheet.game.position().fen();
        let parsed = sheet.game.position().parse_move(&text, Notation::Uci);
        let played = parsed
            .map_err(|error| LongGamesError::MoveText { ply, error })
            .and_then(|m| {
                sheet
                    .push_move(m, None)
                    .map(|()| sheet.game.is_over())
                    .map_err(|error| LongGamesError::Illegal { ply, error })
            });
        let spent = t.elapsed();
        std::hint::black_box((position, go.len(), fen.len()));
        match played {
            Ok(false) => {}
            Ok(true) => return Err(LongGamesError::GameEnded(ply)),
            Err(e) => return Err(e),
        }
        work.make(mv);
        texts.push(text);
        if o.checkpoints.iter().any(|&c| ply > c - o.reps && ply <= c) {
            samples.push(spent.as_secs_f64() * 1e6);
        }
        if o.checkpoints.contains(&ply) {
            overhead.push(median(&mut samples));
            samples.clear();
        }
    }
    if sheet.game.position().halfmove_clock() as usize != last {
        return Err(LongGamesError::Captured);
    }
    Ok((texts, overhead))
}

struct Engine {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Engine {
    fn start(path: &str) -> Result<Engine, LongGamesError> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|error| LongGamesError::Start {
                path: path.to_string(),
                error,
            })?;
        let stdin = child.stdin.take().ok_or(LongGamesError::NoPipe("stdin"))?;
        let stdout = BufReader::new(
            child
                .stdout
                .take()
                .ok_or(LongGamesError::NoPipe("stdout"))?,
        );
        let mut e = Engine {
            child,
            stdin,
            stdout,
        };
        e.send("uci")?;
        e.wait_for("uciok")?;
        e.send("isready")?;
        e.wait_for("readyok")?;
        Ok(e)
    }

    fn send(&mut self, line: &str) -> Result<(), LongGamesError> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(LongGamesError::Write)
    }

    /// Reads up to a line starting with `word`; returns the last `info`
    /// line with a node count before it (empty if none).
    fn wait_for(&mut self, word: &str) -> Result<String, LongGamesError> {
        let mut line = String::new();
        let mut info = String::new();
        loop {
            line.clear();
            if self
                .stdout
                .read_line(&mut line)
                .map_err(LongGamesError::Read)?
                == 0
            {
                return Err(LongGamesError::Closed {
                    waiting_for: word.to_string(),
                });
            }
            if line.starts_with(word) {
                return Ok(info);
            }
            if line.starts_with("info") && line.contains(" nodes ") {
                info = line.trim_end().to_string();
            }
        }
    }

    /// Time from writing `after` to reading a line starting with `word`,
    /// and the last `info` line with a node count.
    fn timed(&mut self, after: &str, word: &str) -> Result<(Duration, String), LongGamesError> {
        self.send(after)?;
        let t = Instant::now();
        let info = self.wait_for(word)?;
        Ok((t.elapsed(), info))
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let _ = self.child.wait();
    }
}

/// One engine at one checkpoint (all ms).
struct Row {
    answer_median: f64,
    answer_max: f64,
    /// Median nodes per second the engine reported.
    nps_median: f64,
}

/// The number after `key` in an `info` line.
fn info_value(info: &str, key: &str) -> Option<f64> {
    let mut words = info.split_whitespace();
    words.find(|&w| w == key)?;
    words.next()?.parse().ok()
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn measure(path: &str, texts: &[String], o: &Options) -> Result<Vec<Row>, LongGamesError> {
    let mut e = Engine::start(path)?;
    let mut rows = Vec::new();
    for &n in &o.checkpoints {
        let line = |k: usize| format!("position startpos moves {}", texts[..k].join(" "));
        let (mut answers, mut nps) = (Vec::new(), Vec::new());
        for r in 0..o.reps {
            let k = n - o.reps + r + 1;
            // As the runner plays a move: the line grows by a move, then
            // `go`; the clock runs from writing `go`.
            e.send(&line(k - 1))?;
            e.timed("isready", "readyok")?;
            e.send(&line(k))?;
            let (answer, info) = e.timed(&format!("go movetime {}", o.movetime), "bestmove")?;
            answers.push(ms(answer));
            nps.push(info_value(&info, "nps").unwrap_or(0.0));
            e.timed("isready", "readyok")?;
        }
        let answer_max = answers.iter().copied().fold(0.0, f64::max);
        rows.push(Row {
            answer_median: median(&mut answers),
            answer_max,
            nps_median: median(&mut nps),
        });
    }
    Ok(rows)
}

/// This build's `position` handling, in process (no pipe, no other
/// thread): a line one move longer than the last one, and the whole game
/// from a start it cannot extend; medians in ms per checkpoint.
fn session_costs(texts: &[String], o: &Options) -> Vec<(f64, f64)> {
    let mut s = Session::new(MemorySink::default());
    s.handle_line("uci");
    let fen = Position::startpos().fen();
    let line = |head: &str, k: usize| format!("{head} moves {}", texts[..k].join(" "));
    let mut out = Vec::new();
    for &n in &o.checkpoints {
        let (mut extend, mut full) = (Vec::new(), Vec::new());
        for r in 0..o.reps {
            let k = n - o.reps + r + 1;
            s.handle_line(&line("position startpos", k - 1));
            let t = Instant::now();
            s.handle_line(&line("position startpos", k));
            extend.push(ms(t.elapsed()));
            let full_line = line(&format!("position fen {fen}"), k);
            let t = Instant::now();
            s.handle_line(&full_line);
            full.push(ms(t.elapsed()));
        }
        out.push((median(&mut extend), median(&mut full)));
    }
    out
}

fn main() {
    let o = match parse_args() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    let (texts, overhead) = match build_game(&o) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("error: building the game: {e}");
            std::process::exit(1);
        }
    };
    if let Some(path) = &o.dump {
        let lines: String = o
            .checkpoints
            .iter()
            .map(|&n| format!("position startpos moves {}\n", texts[..n].join(" ")))
            .collect();
        if let Err(e) = std::fs::write(path, lines) {
            eprintln!("error: {path}: {e}");
            std::process::exit(1);
        }
    }
    let session = session_costs(&texts, &o);
    let mut results = Vec::new();
    for path in &o.engines {
        match measure(path, &texts, &o) {
            Ok(rows) => results.push((path, rows)),
            Err(e) => {
                eprintln!("error: {path}: {e}");
                std::process::exit(1);
            }
        }
    }
    println!(
        "game: {} plies under janggikjf without a capture (seed {SEED}); {} samples per checkpoint, go movetime {}",
        texts.len(),
        o.reps,
        o.movetime
    );
    println!();
    println!("| plies | runner work per move (µs) | `position` +1 move (ms) | `position` whole game (ms) | engine | answer median (ms) | answer max (ms) | nps median |");
    println!("|---:|---:|---:|---:|---|---:|---:|---:|");
    for (i, &n) in o.checkpoints.iter().enumerate() {
        let (extend, full) = session[i];
        let head = format!("| {n} | {:.1} | {extend:.2} | {full:.2} |", overhead[i]);
        if results.is_empty() {
            println!("{head} – | | | |");
        }
        for (path, rows) in &results {
            let r = &rows[i];
            println!(
                "{head} {path} | {:.1} | {:.1} | {:.0} |",
                r.answer_median, r.answer_max, r.nps_median
            );
        }
    }
}
