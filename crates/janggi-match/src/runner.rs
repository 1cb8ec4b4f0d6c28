//! Runs a match: schedules the games, keeps engine processes per worker
//! thread, collects results, prints progress and statistics, writes PGN,
//! and stops early on SPRT or Ctrl-C.
//!
//! Game `g` of a pairing (A, B) uses opening `g / 2`; in even games A is
//! Cho, in odd games B is Cho, so each pair plays one opening with colours
//! swapped. Each worker thread owns one process per engine, started on
//! first use and reused between games (`ucinewgame` + `isready`); a process
//! that crashed or stopped answering is replaced before its next game.
//!
//! With `--resume` the games that the `--pgnout` file holds finished are
//! counted first and not played again ([`super::resume`]).

use super::config::{EngineConfig, MatchConfig, Tournament};
use super::engine_process::{EngineProcess, ProcessError};
use super::openings::{Opening, OpeningError};
use super::pgn::{self, PgnGame};
use super::referee::{
    play_game, Adjudication, GameRecord, GameResult, GameSpec, Player, Termination,
};
use super::resume::{self, PlayedGame, ResumeError, Resumed};
use super::scoresheet::Scoresheet;
use super::stats::{GameScore, SprtDecision, Tally};
use janggi_core::{Color, Game, Position};
use std::collections::BTreeMap;
use std::fmt;
use std::io;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::thread;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// How the match ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchEnd {
    /// Every scheduled game was played.
    Completed,
    /// The SPRT reached a bound.
    Sprt(SprtDecision),
    /// Stopped from outside (Ctrl-C).
    Interrupted,
}

/// A scheduled game.
#[derive(Clone, Debug)]
struct Scheduled {
    number: usize,
    /// Engine indices (Cho, Han).
    sides: [usize; 2],
    opening: Arc<Opening>,
}

/// Per-pairing results, from the first engine's point of view.
#[derive(Clone, Debug, Default)]
pub struct PairStats {
    /// First engine's tally against the second.
    pub tally: Tally,
}

/// The outcome of a match, for callers and tests.
#[derive(Clone, Debug)]
pub struct MatchReport {
    /// How it ended.
    pub end: MatchEnd,
    /// Every game record received (finished and aborted), in arrival order.
    pub games: Vec<GameRecord>,
    /// The finished games a resumed match (`--resume`) found in its PGN
    /// file and counted without playing them.
    pub earlier: Vec<PlayedGame>,
    /// Tallies per pairing (i < j), from engine i's point of view.
    pub pairs: BTreeMap<(usize, usize), Tally>,
    /// Tally per engine against the field.
    pub engines: Vec<Tally>,
}

/// Why a match could not start.
#[derive(Debug)]
pub enum MatchError {
    /// The openings could not be built (a bad book, too few positions).
    Openings(OpeningError),
    /// An engine did not start or did not take its options in the
    /// pre-flight.
    Engine {
        /// The engine's name.
        name: String,
        /// Its command.
        cmd: String,
        /// What went wrong.
        error: ProcessError,
    },
    /// The PGN file cannot be opened for appending.
    PgnFile {
        /// The file.
        path: PathBuf,
        /// Why.
        error: io::Error,
    },
    /// `--resume`: the PGN file holds another match's games, or damage.
    Resume {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        error: ResumeError,
    },
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::Openings(e) => write!(f, "{e}"),
            MatchError::Engine { name, cmd, error } => write!(f, "engine {name} ({cmd}): {error}"),
            MatchError::PgnFile { path, error } => {
                write!(f, "cannot open {}: {error}", path.display())
            }
            MatchError::Resume { path, error } => {
                write!(f, "cannot resume from {}: {error}", path.display())
            }
        }
    }
}

impl std::error::Error for MatchError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            MatchError::Openings(e) => Some(e),
            MatchError::Engine { error, .. } => Some(error),
            MatchError::PgnFile { error, .. } => Some(error),
            MatchError::Resume { error, .. } => Some(error),
        }
    }
}

impl From<OpeningError> for MatchError {
    fn from(e: OpeningError) -> MatchError {
        MatchError::Openings(e)
    }
}

fn schedule(cfg: &MatchConfig, seed: u64) -> Result<Vec<Scheduled>, MatchError> {
    let n = cfg.engines.len();
    let pairings: Vec<(usize, usize)> = match cfg.tournament {
        Tournament::RoundRobin => (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .collect(),
        Tournament::Gauntlet => (1..n).map(|j| (0, j)).collect(),
    };
    let per_pairing = cfg.games * cfg.rounds;
    let openings = cfg
        .openings
        .build(per_pairing.div_ceil(2), seed, &cfg.rules)?;
    let openings: Vec<Arc<Opening>> = openings.into_iter().map(Arc::new).collect();
    let mut list = Vec::new();
    for g in 0..per_pairing {
        for &(i, j) in &pairings {
            let sides = if g % 2 == 0 { [i, j] } else { [j, i] };
            list.push(Scheduled {
                number: list.len() + 1,
                sides,
                opening: Arc::clone(&openings[g / 2]),
            });
        }
    }
    Ok(list)
}

/// Starts an engine and configures it for the match.
fn start_engine(
    cfg: &MatchConfig,
    e: &EngineConfig,
    label: &str,
    stop: &AtomicBool,
    warnings: Option<&mut Vec<String>>,
) -> Result<EngineProcess, ProcessError> {
    let timeout = Duration::from_millis(e.init_timeout_ms);
    let mut p = EngineProcess::start(&e.launch, label, cfg.debug, timeout, stop)?;
    let mut warn = Vec::new();
    let variant_opt = p
        .option("UCI_Variant")
        .or_else(|| p.option("USI_Variant"))
        .unwrap_or("UCI_Variant")
        .to_string();
    p.set_option(&variant_opt, &cfg.variant)?;
    for (k, v) in &cfg.rule_overrides {
        match p.option(k).map(str::to_string) {
            Some(name) => p.set_option(&name, v)?,
            None => warn.push(format!(
                "warning: {} has no option {k}; it may not play by the rule {k}={v}",
                e.name
            )),
        }
    }
    for (k, v) in &e.options {
        let name = p.option(k).unwrap_or(k).to_string();
        p.set_option(&name, v)?;
    }
    p.sync(timeout, stop)?;
    if let Some(w) = warnings {
        w.extend(warn);
    }
    Ok(p)
}

/// A record for a game that could not start because an engine failed.
fn start_failure(cfg: &MatchConfig, s: &Scheduled, side: Color, err: &ProcessError) -> GameRecord {
    let plies = s.opening.moves.len() as u32;
    let result = GameResult::forfeit(
        side,
        Termination::Crash,
        plies,
        "엔진 시작 실패",
        format!(
            "{} engine {} {err}",
            side.name(),
            cfg.engines[s.sides[side.index()]].name
        ),
    );
    GameRecord {
        number: s.number,
        players: s.sides.map(|i| cfg.engines[i].name.clone()),
        opening: s.opening.name.clone(),
        start_fen: s.opening.fen.clone(),
        variant: cfg.variant.clone(),
        rules: cfg.rules,
        moves: Vec::new(),
        result,
        final_fen: s.opening.fen.clone(),
        time_controls: s.sides.map(|i| cfg.engines[i].limits.describe()),
        restart: [false; 2],
    }
}

fn worker(
    cfg: &MatchConfig,
    games: &[Scheduled],
    next: &AtomicUsize,
    stop: &AtomicBool,
    id: usize,
    tx: &mpsc::Sender<GameRecord>,
) {
    let mut procs: Vec<Option<EngineProcess>> = (0..cfg.engines.len()).map(|_| None).collect();
    loop {
        if stop.load(Ordering::SeqCst) {
            break;
        }
        let k = next.fetch_add(1, Ordering::SeqCst);
        let Some(s) = games.get(k) else { break };
        let mut failed = None;
        for side in Color::BOTH {
            let e = s.sides[side.index()];
            if procs[e].is_none() {
                let label = format!("{}#{id}", cfg.engines[e].name);
                match start_engine(cfg, &cfg.engines[e], &label, stop, None) {
                    Ok(p) => procs[e] = Some(p),
                    Err(err) => {
                        failed = Some((side, err));
                        break;
                    }
                }
            }
        }
        let record = if let Some((side, err)) = failed {
            if matches!(err, ProcessError::Aborted) {
                break;
            }
            start_failure(cfg, s, side, &err)
        } else {
            let (a, b) = (s.sides[0], s.sides[1]);
            // Two distinct indices: split the vector to borrow both.
            let (lo, hi) = procs.split_at_mut(a.max(b));
            let (pa, pb) = if a < b {
                (&mut lo[a], &mut hi[0])
            } else {
                (&mut hi[0], &mut lo[b])
            };
            let (Some(ea), Some(eb)) = (pa.as_mut(), pb.as_mut()) else {
                break;
            };
            let spec = GameSpec {
                number: s.number,
                opening: &s.opening,
                variant: &cfg.variant,
                rules: &cfg.rules,
                adjudication: cfg.adjudication,
                init_timeout: Duration::from_millis(
                    cfg.engines[a]
                        .init_timeout_ms
                        .max(cfg.engines[b].init_timeout_ms),
                ),
                stop,
            };
            play_game(
                &spec,
                [
                    Player {
                        name: &cfg.engines[a].name,
                        engine: ea,
                        limits: &cfg.engines[a].limits,
                    },
                    Player {
                        name: &cfg.engines[b].name,
                        engine: eb,
                        limits: &cfg.engines[b].limits,
                    },
                ],
            )
        };
        for side in Color::BOTH {
            let e = s.sides[side.index()];
            if record.restart[side.index()] || cfg.engines[e].restart {
                procs[e] = None; // dropped: quit, then killed if need be
            }
        }
        let aborted = record.result.termination == Termination::Aborted;
        if tx.send(record).is_err() || aborted {
            break;
        }
    }
}

fn score_for(rec: &GameRecord, color: Color) -> Option<GameScore> {
    if rec.result.termination == Termination::Aborted {
        return None;
    }
    Some(score_of(rec.result.winner, color))
}

fn score_of(winner: Option<Color>, color: Color) -> GameScore {
    match winner {
        None => GameScore::Draw,
        Some(w) if w == color => GameScore::Win,
        Some(_) => GameScore::Loss,
    }
}

/// Counts a finished game of `s` won by `winner` (`None`: drawn); returns
/// the pairing (i < j).
fn count_result(report: &mut MatchReport, s: &Scheduled, winner: Option<Color>) -> (usize, usize) {
    let (cho, han) = (s.sides[0], s.sides[1]);
    let (sc, sh) = (score_of(winner, Color::Cho), score_of(winner, Color::Han));
    report.engines[cho].add(sc);
    report.engines[han].add(sh);
    let (i, j) = (cho.min(han), cho.max(han));
    report
        .pairs
        .entry((i, j))
        .or_default()
        .add(if i == cho { sc } else { sh });
    (i, j)
}

/// Game `s` as the PGN file shows it before its first engine move (its
/// identity tags and book moves), for `--resume`'s check.
fn expected_game(cfg: &MatchConfig, s: &Scheduled) -> Option<PgnGame> {
    let mut rec = start_failure(cfg, s, Color::Cho, &ProcessError::Aborted);
    let pos = Position::from_fen(&s.opening.fen).ok()?;
    let mut sheet = Scoresheet::new(&s.opening.fen, Game::new(pos, cfg.rules));
    for &mv in &s.opening.moves {
        sheet.push_move(mv, None).ok()?;
    }
    rec.moves = sheet.moves;
    let text = pgn::write_game(&rec, &cfg.event, "?");
    pgn::read_pgn(&text).ok()?.into_iter().next()
}

/// What `--resume` found in the PGN file and how the file is to be mended
/// before games are appended.
struct ResumeFile {
    resumed: Resumed,
    /// Cut the file back to this length (a game cut off in its write).
    truncate: Option<u64>,
    /// Line ends to append so that the next game starts on a line of its own.
    pad: &'static str,
}

/// `--resume`: reads the PGN file against the schedule (a missing file is
/// an empty match).
fn read_resume(cfg: &MatchConfig, games: &[Scheduled]) -> Result<ResumeFile, MatchError> {
    let nothing = ResumeFile {
        resumed: Resumed::default(),
        truncate: None,
        pad: "",
    };
    let Some(path) = &cfg.pgnout else {
        return Ok(nothing);
    };
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(nothing),
        Err(error) => {
            return Err(MatchError::PgnFile {
                path: path.clone(),
                error,
            })
        }
    };
    // A write cut off in the middle of a character leaves an incomplete
    // one at the end: the text before it is read, the cut game found.
    let text = match std::str::from_utf8(&bytes) {
        Ok(t) => t,
        Err(e) if e.error_len().is_none() => {
            std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or_default()
        }
        Err(e) => {
            return Err(MatchError::Resume {
                path: path.clone(),
                error: ResumeError {
                    game: 0,
                    why: format!("not UTF-8 text (byte {})", e.valid_up_to()),
                },
            })
        }
    };
    let mut resumed = resume::scan(text, &|n| {
        games
            .get(n.checked_sub(1)?)
            .and_then(|s| expected_game(cfg, s))
    })
    .map_err(|error| MatchError::Resume {
        path: path.clone(),
        error,
    })?;
    if resumed.cut.is_none() && text.len() < bytes.len() {
        // Bytes after the last complete game that are not text: cut.
        resumed.cut = Some((text.len(), None));
    }
    let kept = &text[..resumed.cut.map_or(text.len(), |(at, _)| at)];
    let pad = if kept.is_empty() || kept.ends_with("\n\n") {
        ""
    } else if kept.ends_with('\n') {
        "\n"
    } else {
        "\n\n"
    };
    Ok(ResumeFile {
        truncate: (kept.len() < bytes.len()).then_some(kept.len() as u64),
        resumed,
        pad,
    })
}

/// Cuts the PGN file back to `len` (a game cut off while being written).
fn truncate(path: &std::path::Path, len: u64) -> Result<(), MatchError> {
    std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .and_then(|f| f.set_len(len))
        .map_err(|error| MatchError::PgnFile {
            path: path.to_path_buf(),
            error,
        })
}

/// Plays the match described by `cfg`, writing progress to `out`; `stop`
/// (or Ctrl-C through `janggi_interrupt`) ends it early.
///
/// # Errors
/// [`MatchError`] when the match cannot start (bad openings, an engine
/// that does not start, an unwritable PGN file).
pub fn run(
    cfg: &MatchConfig,
    out: &mut dyn Write,
    stop: &AtomicBool,
) -> Result<MatchReport, MatchError> {
    let seed = cfg.seed.unwrap_or_else(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64 % 1_000_000_007)
    });
    let games = schedule(cfg, seed)?;
    let names: Vec<&str> = cfg.engines.iter().map(|e| e.name.as_str()).collect();
    let _ = writeln!(
        out,
        "Match: {} | {} games | variant {} ({}) | seed {seed} | concurrency {}",
        names.join(" vs "),
        games.len(),
        cfg.variant,
        cfg.rules,
        cfg.concurrency
    );
    let _ = writeln!(out, "{}", adjudication_line(cfg));
    // Read before any engine starts: a file of another match is refused
    // at once and left as it is.
    let resume_file = if cfg.resume {
        Some(read_resume(cfg, &games)?)
    } else {
        None
    };
    // Pre-flight: every engine must start and accept its options.
    let mut warnings = Vec::new();
    for e in &cfg.engines {
        start_engine(cfg, e, &e.name, stop, Some(&mut warnings)).map_err(|error| {
            MatchError::Engine {
                name: e.name.clone(),
                cmd: e.launch.cmd.clone(),
                error,
            }
        })?;
    }
    if cfg.sprt.is_some() && cfg.engines.len() != 2 {
        warnings.push("warning: --sprt needs exactly two engines; it is ignored".to_string());
    }
    for w in &warnings {
        let _ = writeln!(out, "{w}");
    }
    if let (Some(rf), Some(path)) = (&resume_file, &cfg.pgnout) {
        if let Some(len) = rf.truncate {
            truncate(path, len)?;
            let which = rf
                .resumed
                .cut
                .and_then(|c| c.1)
                .map_or_else(String::new, |n| format!(" (game {n})"));
            let _ = writeln!(
                out,
                "The last game in {}{which} was cut off while being written: removed, to be played again",
                path.display()
            );
        }
    }
    let mut pgn_file = match &cfg.pgnout {
        Some(path) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .and_then(|mut f| {
                    let pad = resume_file.as_ref().map_or("", |rf| rf.pad);
                    f.write_all(pad.as_bytes()).map(|()| f)
                })
                .map_err(|error| MatchError::PgnFile {
                    path: path.clone(),
                    error,
                })?,
        ),
        None => None,
    };
    let date = pgn::today();
    let n_engines = cfg.engines.len();
    let mut report = MatchReport {
        end: MatchEnd::Completed,
        games: Vec::new(),
        earlier: Vec::new(),
        pairs: BTreeMap::new(),
        engines: vec![Tally::default(); n_engines],
    };
    let mut finished = 0usize;
    let mut todo = games.clone();
    if let (Some(rf), Some(path)) = (resume_file, &cfg.pgnout) {
        for p in &rf.resumed.played {
            count_result(&mut report, &games[p.number - 1], p.winner);
            finished += 1;
        }
        let done = rf.resumed.numbers();
        todo.retain(|s| !done.contains(&s.number));
        let _ = writeln!(
            out,
            "Resuming from {}: {} of {} games finished there{}; {} to play",
            path.display(),
            rf.resumed.played.len(),
            games.len(),
            if rf.resumed.aborted > 0 {
                format!(", {} aborted (played again)", rf.resumed.aborted)
            } else {
                String::new()
            },
            todo.len()
        );
        report.earlier = rf.resumed.played;
        for (&(i, j), t) in &report.pairs {
            let _ = writeln!(
                out,
                "Score of {} vs {}: {t}",
                cfg.engines[i].name, cfg.engines[j].name
            );
        }
        // The file's games may already decide the test.
        if let (Some(sprt), 2, Some(t)) = (cfg.sprt, n_engines, report.pairs.get(&(0, 1))) {
            let d = sprt.decide(t);
            if d != SprtDecision::Continue {
                let _ = writeln!(out, "{}", sprt.line(t));
                report.end = MatchEnd::Sprt(d);
                todo.clear();
            }
        }
    }
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel();
    let threads = cfg.concurrency.min(todo.len()).max(1);
    thread::scope(|scope| {
        for id in 0..threads {
            let tx = tx.clone();
            let (games, next) = (&todo, &next);
            scope.spawn(move || worker(cfg, games, next, stop, id + 1, &tx));
        }
        drop(tx);
        loop {
            if janggi_interrupt::interrupted() && !stop.load(Ordering::SeqCst) {
                let _ = writeln!(
                    out,
                    "Interrupted: stopping the match, writing the games played"
                );
                stop.store(true, Ordering::SeqCst);
                report.end = MatchEnd::Interrupted;
            }
            let rec = match rx.recv_timeout(Duration::from_millis(100)) {
                Ok(r) => r,
                Err(mpsc::RecvTimeoutError::Timeout) => continue,
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            };
            if matches!(report.end, MatchEnd::Sprt(_)) {
                // A game that a worker had already started when the test
                // decided, and that ended before it saw the stop: the
                // decision stands on the games before it, so it is not
                // counted (counting it would change the tally the SPRT
                // line reported).
                let _ = writeln!(
                    out,
                    "Game {} ended after the SPRT decision; not counted",
                    rec.number
                );
                continue;
            }
            if let Some(f) = pgn_file.as_mut() {
                let text = pgn::write_game(&rec, &cfg.event, &date);
                if f.write_all(text.as_bytes())
                    .and_then(|()| f.flush())
                    .is_err()
                {
                    let _ = writeln!(
                        out,
                        "warning: could not write game {} to the PGN file",
                        rec.number
                    );
                }
            }
            let s = &games[rec.number - 1];
            let (cho, han) = (s.sides[0], s.sides[1]);
            let res = &rec.result;
            if score_for(&rec, Color::Cho).is_some() {
                let (i, j) = count_result(&mut report, s, res.winner);
                finished += 1;
                let _ = writeln!(
                    out,
                    "Finished game {} ({} vs {}): {} {{{}}}",
                    rec.number,
                    cfg.engines[cho].name,
                    cfg.engines[han].name,
                    res.pgn_result(),
                    res.summary_en
                );
                if let Some(d) = &res.detail {
                    let _ = writeln!(out, "  {}: {d}", res.termination.name());
                }
                let t = report.pairs[&(i, j)];
                let _ = writeln!(
                    out,
                    "Score of {} vs {}: {t}",
                    cfg.engines[i].name, cfg.engines[j].name
                );
                if n_engines == 2
                    && cfg.rating_interval > 0
                    && finished.is_multiple_of(cfg.rating_interval)
                {
                    let _ = writeln!(out, "{}", t.elo_line());
                }
                if let (Some(sprt), 2) = (cfg.sprt, n_engines) {
                    let d = sprt.decide(&t);
                    if d != SprtDecision::Continue && !stop.load(Ordering::SeqCst) {
                        let _ = writeln!(out, "{}", sprt.line(&t));
                        report.end = MatchEnd::Sprt(d);
                        stop.store(true, Ordering::SeqCst);
                    }
                }
            } else {
                let _ = writeln!(
                    out,
                    "Aborted game {} ({} vs {}) after {} plies",
                    rec.number,
                    cfg.engines[cho].name,
                    cfg.engines[han].name,
                    rec.moves.len()
                );
            }
            let _ = out.flush();
            report.games.push(rec);
        }
    });
    if stop.load(Ordering::SeqCst) && report.end == MatchEnd::Completed {
        report.end = MatchEnd::Interrupted;
    }
    print_summary(cfg, &report, out);
    Ok(report)
}

/// `Adjudication: after 200 plies without a capture or at 1000 plies, by
/// counting (default for rule sets without a move limit)`.
fn adjudication_line(cfg: &MatchConfig) -> String {
    let adj = cfg.adjudication;
    let mut parts = Vec::new();
    if let Some(n) = adj.no_capture {
        parts.push(format!("after {n} plies without a capture"));
    }
    if let Some(n) = adj.max_plies {
        parts.push(format!("at {n} plies"));
    }
    if parts.is_empty() {
        return "Adjudication: no length limit beyond the rules".to_string();
    }
    let how = if cfg.rules.scoring {
        "by counting"
    } else {
        "as a draw (no scoring)"
    };
    let default = Adjudication::endless_default(&cfg.rules);
    let note = if (adj.no_capture, adj.max_plies) == default {
        " (default for rule sets without a move limit or n-move rule; --nocapture/--maxmoves N change it, 0 turns it off)"
    } else {
        ""
    };
    format!("Adjudication: {} {how}{note}", parts.join(" or "))
}

/// `Adjudicated: 7 of 100 games (maxMoves 1, noCapture 6)`, over the
/// games' terminations.
fn adjudicated_line(terminations: &[Termination]) -> String {
    let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
    for &t in terminations {
        if Adjudication::adjudicated(t) {
            *kinds.entry(t.name()).or_default() += 1;
        }
    }
    let total: usize = kinds.values().sum();
    let list: Vec<String> = kinds.iter().map(|(k, v)| format!("{k} {v}")).collect();
    let detail = if list.is_empty() {
        String::new()
    } else {
        format!(" ({})", list.join(", "))
    };
    format!(
        "Adjudicated: {total} of {} games{detail}",
        terminations.len()
    )
}

fn print_summary(cfg: &MatchConfig, report: &MatchReport, out: &mut dyn Write) {
    let _ = writeln!(out);
    for (&(i, j), t) in &report.pairs {
        let _ = writeln!(
            out,
            "Score of {} vs {}: {t}",
            cfg.engines[i].name, cfg.engines[j].name
        );
        let _ = writeln!(out, "{}", t.elo_line());
        if let (Some(sprt), 2) = (cfg.sprt, cfg.engines.len()) {
            let _ = writeln!(out, "{}", sprt.line(t));
        }
    }
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "{:<4} {:<20} {:>7} {:>7} {:>6} {:>5} {:>5} {:>5} {:>7} {:>6}",
        "Rank", "Name", "Elo", "+/-", "Games", "W", "L", "D", "Score", "Draw"
    );
    let mut order: Vec<usize> = (0..cfg.engines.len()).collect();
    order.sort_by(|&a, &b| {
        let s = |i: usize| report.engines[i].score().unwrap_or(0.0);
        s(b).total_cmp(&s(a))
    });
    for (rank, &i) in order.iter().enumerate() {
        let t = report.engines[i];
        let num = |v: Option<f64>| v.map_or_else(|| "-".to_string(), |x| format!("{x:.1}"));
        let _ = writeln!(
            out,
            "{:<4} {:<20} {:>7} {:>7} {:>6} {:>5} {:>5} {:>5} {:>6.1}% {:>5.1}%",
            rank + 1,
            cfg.engines[i].name,
            num(t.elo()),
            num(t.elo_error()),
            t.games(),
            t.wins,
            t.losses,
            t.draws,
            t.score().unwrap_or(0.0) * 100.0,
            t.draw_ratio().unwrap_or(0.0) * 100.0
        );
    }
    // The games of this run and, resumed, those of the file before it.
    let all: Vec<Termination> = report
        .earlier
        .iter()
        .map(|g| g.termination)
        .chain(report.games.iter().map(|g| g.result.termination))
        .collect();
    let mut terms: BTreeMap<&str, usize> = BTreeMap::new();
    for t in &all {
        *terms.entry(t.name()).or_default() += 1;
    }
    let list: Vec<String> = terms.iter().map(|(k, v)| format!("{k} {v}")).collect();
    let _ = writeln!(out, "Terminations: {}", list.join(", "));
    let _ = writeln!(out, "{}", adjudicated_line(&all));
    let end = match report.end {
        MatchEnd::Completed => "Finished match".to_string(),
        MatchEnd::Sprt(d) => format!(
            "Finished match (SPRT: {})",
            if d == SprtDecision::AcceptH1 {
                "H1 accepted"
            } else {
                "H0 accepted"
            }
        ),
        MatchEnd::Interrupted => "Match interrupted".to_string(),
    };
    let _ = writeln!(out, "{end}");
}
