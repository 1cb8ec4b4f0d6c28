//! Texel tuning of the evaluation weights (`tools/texel.md`).
//!
//! * `gen`: self-play games with the library search at a fixed node count,
//!   from the 16 set-ups plus a few random plies, played to the end by the
//!   game layer; writes `FEN result` lines (result from Cho's view: 1, 0.5,
//!   0), skipping the first plies and positions in check.
//! * `tune`: loads such a file, optionally resolves captures with a small
//!   quiescence search, fits the sigmoid scale K, then runs Adam on the
//!   linear features ([`janggi_search::eval::features`]) and prints the new
//!   weights as Rust source for `crates/janggi-search/src/eval/tuned.rs`.
//!
//! Everything is deterministic given the seed (games are written in game
//! order whatever the thread count).
//!
//! ```sh
//! cargo run --release --example texel -- gen --games 2000 --nodes 2000 --out data.txt
//! cargo run --release --example texel -- tune --data data.txt --out crates/janggi-search/src/eval/tuned.rs
//! ```

use clap::{Parser, Subcommand, ValueEnum};
use janggi_core::{
    rng::SplitMix64, search_support::GenKind, Color, Game, LegalityModel, Move, MoveList, Notation,
    Position, Rules, Setup,
};
use janggi_search::eval::weights::{self, Weights, DEFAULT, NUM_PARAMS};
use janggi_search::eval::{evaluate, features};
use janggi_search::search::movepick::mvv_lva;
use janggi_search::search::{Limits, SearchControl, Searcher};
use std::fmt::Write as _;
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

#[derive(Parser, Debug)]
#[command(name = "texel", about = "Texel tuning of the evaluation weights")]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// Self-play games; writes `FEN result` lines.
    Gen(GenArgs),
    /// Fits the weights to a `FEN result` file.
    Tune(TuneArgs),
    /// Converts match PGNs (the `match` command's `--pgnout`, UCI
    /// notation) into `FEN result` lines.
    Pgn(PgnArgs),
}

#[derive(Parser, Debug, Clone)]
struct PgnArgs {
    /// Output file.
    #[arg(long)]
    out: PathBuf,
    /// Plies from the start of each game that are never written.
    #[arg(long, default_value_t = 8)]
    skip_plies: usize,
    /// Write every position this many times (to weigh these games more
    /// when the file is concatenated with others).
    #[arg(long, default_value_t = 1)]
    repeat: usize,
    /// Label positions with this engine's search scores from the PGN
    /// comments (`{+0.67/13 0.900s}`): the name as in the White/Black tags.
    #[arg(long)]
    scores_from: Option<String>,
    /// Weight of the game result in a scored label (1 = result only, 0 =
    /// score only); the rest is the score's win probability.
    #[arg(long, default_value_t = 0.5)]
    blend: f64,
    /// Win probability of a score of `s` pawns: 1 / (1 + 10^(-scale·s/4)).
    #[arg(long, default_value_t = 0.75)]
    score_scale: f64,
    /// PGN files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
}

#[derive(Parser, Debug, Clone)]
struct GenArgs {
    /// Output file.
    #[arg(long)]
    out: PathBuf,
    /// Number of games (set-ups cycle through all 16 pairs).
    #[arg(long, default_value_t = 1000)]
    games: usize,
    /// Nodes per move.
    #[arg(long, default_value_t = 2000)]
    nodes: u64,
    /// Seed for the opening plies.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads (at most 2 on the shared machine).
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Random opening plies: between 0 and this many.
    #[arg(long, default_value_t = 6)]
    random_plies: usize,
    /// Plies from the start that are never written.
    #[arg(long, default_value_t = 8)]
    skip_plies: u32,
    /// Move limit in plies (the game ends by counting).
    #[arg(long, default_value_t = 250)]
    move_limit: u32,
    /// Hash per game in MB.
    #[arg(long, default_value_t = 2)]
    hash: usize,
}

/// What to do with positions that are not quiet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Quiet {
    /// Use every position as it is.
    None,
    /// Drop positions whose quiescence value differs from the static eval.
    Skip,
    /// Replace each position with the leaf of its quiescence search.
    Leaf,
}

#[derive(Parser, Debug, Clone)]
struct TuneArgs {
    /// Input file of `FEN result` lines.
    #[arg(long)]
    data: PathBuf,
    /// Write the Rust source here (else stdout).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Adam iterations (full batches).
    #[arg(long, default_value_t = 1000)]
    iters: usize,
    /// Adam step size in centipawns.
    #[arg(long, default_value_t = 1.0)]
    lr: f64,
    /// Quiet-position handling.
    #[arg(long, value_enum, default_value_t = Quiet::Leaf)]
    quiet: Quiet,
    /// Fraction of the positions held out to check for overfitting.
    #[arg(long, default_value_t = 0.1)]
    holdout: f64,
    /// Seed for the hold-out split.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Use at most this many positions (0 = all).
    #[arg(long, default_value_t = 0)]
    limit: usize,
    /// L2 pull toward the starting weights (per centipawn, relative to the
    /// error gradient).
    #[arg(long, default_value_t = 0.0)]
    l2: f64,
}

fn main() {
    let cli = Cli::parse();
    let r = match cli.cmd {
        Cmd::Gen(a) => gen(&a).map(|n| eprintln!("wrote {n} positions")),
        Cmd::Pgn(a) => pgn(&a).map(|(g, n)| eprintln!("{g} games, wrote {n} positions")),
        Cmd::Tune(a) => tune(&a).map(|report| {
            if a.out.is_none() {
                print!("{}", report.source);
            }
        }),
    };
    if let Err(e) = r {
        eprintln!("texel: {e}");
        std::process::exit(1);
    }
}

/// The 16 set-up pairs, Han's first.
fn setup_pair(i: usize) -> (Setup, Setup) {
    (Setup::ALL[i % 16 / 4], Setup::ALL[i % 4])
}

/// Plays game `index` and returns its `FEN result` lines.
fn play_game(args: &GenArgs, index: usize) -> Vec<String> {
    let mut rng = SplitMix64::new(args.seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let (han, cho) = setup_pair(index);
    let rules = Rules {
        move_limit: args.move_limit,
        ..Rules::default()
    };
    let mut game = Game::new(Position::from_setups(han, cho), rules);
    let random = rng.below(args.random_plies + 1);
    janggi_tools::datagen::play_random_plies(&mut game, &mut rng, random);
    let mut searcher = Searcher::new(args.hash, 1);
    let limits = Limits {
        nodes: Some(args.nodes),
        ..Limits::default()
    };
    let control = SearchControl::default();
    let mut fens = Vec::new();
    while !game.is_over() {
        let pos = game.position();
        if game.ply() >= args.skip_plies && !pos.in_check() {
            fens.push(pos.fen());
        }
        let r = searcher.search(&game, &limits, &control, &mut |_| {});
        let Some(mv) = r.best else { break };
        if game.play(mv).is_err() {
            break;
        }
    }
    let result = match game.outcome().and_then(|o| o.winner) {
        Some(Color::Cho) => "1",
        Some(Color::Han) => "0",
        None => "0.5",
    };
    fens.into_iter().map(|f| format!("{f} {result}")).collect()
}

/// Runs `gen`; returns the number of positions written.
fn gen(args: &GenArgs) -> std::io::Result<usize> {
    let start = Instant::now();
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<(usize, Vec<String>)>> = Mutex::new(Vec::new());
    let threads = args.threads.clamp(1, 2);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= args.games {
                    break;
                }
                let lines = play_game(args, i);
                let mut d = done.lock().unwrap_or_else(|e| e.into_inner());
                d.push((i, lines));
                let n = d.len();
                if n.is_multiple_of(50) {
                    let total: usize = d.iter().map(|(_, l)| l.len()).sum();
                    eprintln!(
                        "{n}/{} games, {total} positions, {:.0} s",
                        args.games,
                        start.elapsed().as_secs_f64()
                    );
                }
            });
        }
    });
    let mut done = done.into_inner().unwrap_or_else(|e| e.into_inner());
    done.sort_by_key(|(i, _)| *i);
    let mut w = BufWriter::new(File::create(&args.out)?);
    let mut n = 0;
    for (_, lines) in &done {
        for l in lines {
            writeln!(w, "{l}")?;
            n += 1;
        }
    }
    w.flush()?;
    eprintln!(
        "{} games, {n} positions in {:.1} s",
        done.len(),
        start.elapsed().as_secs_f64()
    );
    Ok(n)
}

/// The value of a PGN tag (`[Name "value"]`) in `game`.
fn pgn_tag<'a>(game: &'a str, name: &str) -> Option<&'a str> {
    let start = game.find(&format!("[{name} \""))? + name.len() + 3;
    let len = game[start..].find('"')?;
    Some(&game[start..start + len])
}

/// How `pgn` labels positions.
#[derive(Clone, Debug)]
struct Labels {
    skip: usize,
    /// (engine name, weight of the result, score scale).
    scores: Option<(String, f64, f64)>,
}

/// The win probability (for the side that searched) of a PGN score comment
/// such as `+0.67/13 0.900s` or `-M3/10`; `None` if it has no score.
fn comment_win_prob(comment: &str, scale: f64) -> Option<f64> {
    let score = comment.split('/').next()?.trim();
    if let Some(mate) = score.strip_prefix("+M").or_else(|| score.strip_prefix("M")) {
        return mate.parse::<u32>().ok().map(|_| 1.0);
    }
    if let Some(mate) = score.strip_prefix("-M") {
        return mate.parse::<u32>().ok().map(|_| 0.0);
    }
    let pawns: f64 = score.parse().ok()?;
    Some(1.0 / (1.0 + 10f64.powf(-scale * pawns / 4.0)))
}

/// A PGN movetext as (move, comment after it) pairs; numbers and the result
/// are dropped.
fn pgn_moves(body: &str) -> Vec<(String, Option<String>)> {
    let mut out: Vec<(String, Option<String>)> = Vec::new();
    let mut rest = body;
    while let Some(c) = rest.chars().next() {
        if c == '{' {
            let end = rest.find('}').unwrap_or(rest.len() - 1);
            if let Some(last) = out.last_mut() {
                last.1 = Some(rest[1..end].to_string());
            }
            rest = &rest[(end + 1).min(rest.len())..];
        } else if c.is_whitespace() {
            rest = &rest[c.len_utf8()..];
        } else {
            let end = rest
                .find(|c: char| c.is_whitespace() || c == '{')
                .unwrap_or(rest.len());
            let tok = &rest[..end];
            if !tok.ends_with('.') && !tok.contains('-') && tok != "*" {
                out.push((tok.to_string(), None));
            }
            rest = &rest[end..];
        }
    }
    out
}

/// One PGN game's `FEN result` lines; `None` if it has no decisive or
/// drawn result, no FEN, or a move that does not parse (the game is
/// skipped, not cut short).
///
/// With `labels.scores`, each written position (the one after a move) is
/// labelled by the named engine's score where that is known: the score it
/// gave for the move that led there (its own move: the score of the
/// position its best move reaches) or for its reply (the opponent's move).
/// The label is `blend · result + (1 − blend) · win probability`.
fn pgn_game(game: &str, labels: &Labels) -> Option<Vec<String>> {
    let result: f64 = match pgn_tag(game, "Result")? {
        "1-0" => 1.0,
        "0-1" => 0.0,
        "1/2-1/2" => 0.5,
        _ => return None,
    };
    let mut pos = Position::from_fen(pgn_tag(game, "FEN")?).ok()?;
    let (_, body) = game.split_once("\n\n")?;
    let moves = pgn_moves(body);
    // The scoring engine's win probability for Cho after each move.
    let mut cho_prob: Vec<Option<f64>> = vec![None; moves.len()];
    if let Some((name, _, scale)) = &labels.scores {
        let white = pgn_tag(game, "White")? == name;
        let black = pgn_tag(game, "Black")? == name;
        let first = pos.side_to_move();
        for (i, (_, comment)) in moves.iter().enumerate() {
            let mover_is_first = i % 2 == 0;
            // White is the side that moves first in the FEN's `w`.
            let mover_white = mover_is_first == (first == Color::Cho);
            if !((mover_white && white) || (!mover_white && black)) {
                continue;
            }
            let Some(p) = comment.as_deref().and_then(|c| comment_win_prob(c, *scale)) else {
                continue;
            };
            let cho = if mover_white { p } else { 1.0 - p };
            // After its own move, and after the move it answered.
            cho_prob[i] = Some(cho);
            if i > 0 && cho_prob[i - 1].is_none() {
                cho_prob[i - 1] = Some(cho);
            }
        }
    }
    let mut lines = Vec::new();
    for (ply, (tok, _)) in moves.iter().enumerate() {
        let mv = pos.parse_move(tok, Notation::Uci).ok()?;
        if !pos.is_legal(mv, LegalityModel::Casual) {
            return None;
        }
        pos.make(mv);
        if ply + 1 >= labels.skip {
            let label = match (&labels.scores, cho_prob[ply]) {
                (Some((_, blend, _)), Some(p)) => blend * result + (1.0 - blend) * p,
                _ => result,
            };
            lines.push(format!("{} {}", pos.fen(), fmt_label(label)));
        }
    }
    Some(lines)
}

/// A label as `1`, `0.5`, `0` or with four decimals.
fn fmt_label(x: f64) -> String {
    if x == 1.0 || x == 0.0 || x == 0.5 {
        format!("{x}")
    } else {
        format!("{x:.4}")
    }
}

/// Runs `pgn`: returns (games, positions) written.
fn pgn(args: &PgnArgs) -> std::io::Result<(usize, usize)> {
    let mut out = BufWriter::new(File::create(&args.out)?);
    let (mut games, mut written) = (0, 0);
    let labels = Labels {
        skip: args.skip_plies,
        scores: args
            .scores_from
            .clone()
            .map(|n| (n, args.blend.clamp(0.0, 1.0), args.score_scale)),
    };
    for path in &args.files {
        let text = std::fs::read_to_string(path)?;
        for game in text.split("[Event ").skip(1) {
            let Some(lines) = pgn_game(game, &labels) else {
                continue;
            };
            games += 1;
            for _ in 0..args.repeat {
                for l in &lines {
                    writeln!(out, "{l}")?;
                    written += 1;
                }
            }
        }
    }
    out.flush()?;
    Ok((games, written))
}

/// Deepest quiescence ply.
const QS_MAX_PLY: usize = 12;

/// A captures-only quiescence search (stand pat, no check evasions: the
/// positions come without check) that also returns its principal
/// variation, so the leaf can be replayed.
fn qsearch(pos: &mut Position, mut alpha: i32, beta: i32, ply: usize, pv: &mut Vec<Move>) -> i32 {
    pv.clear();
    let stand = evaluate(pos);
    if stand >= beta || ply >= QS_MAX_PLY {
        return stand;
    }
    alpha = alpha.max(stand);
    let mut list = MoveList::new();
    pos.generate(GenKind::Captures, &mut list);
    // Best captures first: the same leaf, found with far fewer nodes.
    list.sort_unstable_by_key(|&mv| std::cmp::Reverse(mvv_lva(pos, mv)));
    let mut child = Vec::new();
    for mv in list {
        if !pos.is_legal(mv, LegalityModel::Casual) {
            continue;
        }
        pos.make(mv);
        let v = -qsearch(pos, -beta, -alpha, ply + 1, &mut child);
        pos.unmake();
        if v > alpha {
            alpha = v;
            pv.clear();
            pv.push(mv);
            pv.extend_from_slice(&child);
            if v >= beta {
                break;
            }
        }
    }
    alpha
}

/// One training position: sparse features (Cho's view) and the result.
struct Sample {
    coef: Vec<(u16, f32)>,
    result: f64,
}

/// Parses `FEN result`; `None` for a bad line.
fn parse_line(line: &str) -> Option<(Position, f64)> {
    let (fen, r) = line.trim().rsplit_once(' ')?;
    let result: f64 = r.parse().ok()?;
    if !(0.0..=1.0).contains(&result) {
        return None;
    }
    let pos = Position::from_fen(fen).ok()?;
    Some((pos, result))
}

fn sample(pos: &Position, result: f64) -> Sample {
    let coef = features(pos)
        .iter()
        .enumerate()
        .filter(|(_, &c)| c != 0.0)
        .map(|(i, &c)| (i as u16, c as f32))
        .collect();
    Sample { coef, result }
}

/// The sigmoid: expected score from Cho's eval in centipawns.
#[inline]
fn sigmoid(k: f64, eval: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * eval / 400.0))
}

#[inline]
fn linear(s: &Sample, w: &[f64]) -> f64 {
    s.coef
        .iter()
        .map(|&(i, c)| f64::from(c) * w[usize::from(i)])
        .sum()
}

/// Mean squared error of the samples under weights `w` and scale `k`.
fn error(samples: &[Sample], w: &[f64], k: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let sum: f64 = samples
        .iter()
        .map(|s| (s.result - sigmoid(k, linear(s, w))).powi(2))
        .sum();
    sum / samples.len() as f64
}

/// The K that minimises the error for `w` (golden-section search).
fn fit_k(samples: &[Sample], w: &[f64]) -> f64 {
    let (mut lo, mut hi) = (0.05f64, 5.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = hi - g * (hi - lo);
        let b = lo + g * (hi - lo);
        if error(samples, w, a) < error(samples, w, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// What `tune` reports.
struct TuneReport {
    k: f64,
    train_before: f64,
    train_after: f64,
    test_before: f64,
    test_after: f64,
    positions: usize,
    weights: Weights,
    source: String,
}

fn load(args: &TuneArgs) -> std::io::Result<(Vec<Sample>, usize)> {
    let reader = BufReader::new(File::open(&args.data)?);
    let mut samples = Vec::new();
    let mut dropped = 0;
    let mut pv = Vec::new();
    for line in reader.lines() {
        let line = line?;
        let Some((mut pos, result)) = parse_line(&line) else {
            dropped += 1;
            continue;
        };
        if pos.in_check() {
            dropped += 1;
            continue;
        }
        match args.quiet {
            Quiet::None => {}
            Quiet::Skip => {
                let q = qsearch(&mut pos, -100_000, 100_000, 0, &mut pv);
                if q != evaluate(&pos) {
                    dropped += 1;
                    continue;
                }
            }
            Quiet::Leaf => {
                qsearch(&mut pos, -100_000, 100_000, 0, &mut pv);
                for &mv in &pv {
                    pos.make(mv);
                }
                if pos.in_check() {
                    dropped += 1;
                    continue;
                }
            }
        }
        samples.push(sample(&pos, result));
        if args.limit > 0 && samples.len() >= args.limit {
            break;
        }
    }
    Ok((samples, dropped))
}

/// Runs `tune`.
fn tune(args: &TuneArgs) -> std::io::Result<TuneReport> {
    let start = Instant::now();
    let (all, dropped) = load(args)?;
    eprintln!(
        "loaded {} positions ({dropped} dropped) in {:.1} s",
        all.len(),
        start.elapsed().as_secs_f64()
    );
    let mut rng = SplitMix64::new(args.seed);
    let (mut train, mut test) = (Vec::new(), Vec::new());
    for s in all {
        if (rng.next_u64() as f64 / u64::MAX as f64) < args.holdout {
            test.push(s);
        } else {
            train.push(s);
        }
    }
    let w0: Vec<f64> = DEFAULT.0.iter().map(|&x| f64::from(x)).collect();
    let k = fit_k(&train, &w0);
    let train_before = error(&train, &w0, k);
    let test_before = error(&test, &w0, k);
    eprintln!("K = {k:.4}; error train {train_before:.6} test {test_before:.6}");

    let mut w = w0.clone();
    let (b1, b2, eps) = (0.9, 0.999, 1e-8);
    let mut m = vec![0.0; NUM_PARAMS];
    let mut v = vec![0.0; NUM_PARAMS];
    let n = train.len().max(1) as f64;
    let ln10 = std::f64::consts::LN_10;
    for it in 1..=args.iters {
        let mut grad = vec![0.0; NUM_PARAMS];
        for s in &train {
            let p = sigmoid(k, linear(s, &w));
            // d/dw (r - p)^2 = -2 (r - p) p (1 - p) (k ln10 / 400) coef
            let g = -2.0 * (s.result - p) * p * (1.0 - p) * k * ln10 / 400.0 / n;
            for &(i, c) in &s.coef {
                grad[usize::from(i)] += g * f64::from(c);
            }
        }
        for i in 0..NUM_PARAMS {
            let g = grad[i] + args.l2 * (w[i] - w0[i]);
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            let mh = m[i] / (1.0 - b1.powi(it as i32));
            let vh = v[i] / (1.0 - b2.powi(it as i32));
            w[i] -= args.lr * mh / (vh.sqrt() + eps);
        }
        if it % 100 == 0 || it == args.iters {
            eprintln!(
                "iter {it}: train {:.6} test {:.6} ({:.0} s)",
                error(&train, &w, k),
                error(&test, &w, k),
                start.elapsed().as_secs_f64()
            );
        }
    }
    let mut tuned = [0i32; NUM_PARAMS];
    for (t, x) in tuned.iter_mut().zip(&w) {
        *t = x.round() as i32;
    }
    let rounded: Vec<f64> = tuned.iter().map(|&x| f64::from(x)).collect();
    let report = TuneReport {
        k,
        train_before,
        train_after: error(&train, &rounded, k),
        test_before,
        test_after: error(&test, &rounded, k),
        positions: train.len() + test.len(),
        weights: Weights(tuned),
        source: String::new(),
    };
    let source = rust_source(&report, args);
    if let Some(out) = &args.out {
        std::fs::write(out, &source)?;
    }
    eprintln!(
        "error train {:.6} -> {:.6}, test {:.6} -> {:.6} (K {:.4}, {} positions)",
        report.train_before,
        report.train_after,
        report.test_before,
        report.test_after,
        report.k,
        report.positions
    );
    Ok(TuneReport { source, ..report })
}

/// The tuned weights as the Rust module `crates/janggi-search/src/eval/tuned.rs`.
fn rust_source(r: &TuneReport, args: &TuneArgs) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "//! Weights fitted by `tools/texel.rs` (Texel tuning; see `tools/texel.md`)."
    );
    let _ = writeln!(s, "//!");
    let _ = writeln!(
        s,
        "//! {} positions ({:?} quiet handling), K = {:.4}, {} Adam iterations at step {};",
        r.positions, args.quiet, r.k, args.iters, args.lr
    );
    let _ = writeln!(
        s,
        "//! mean squared error: training {:.6} -> {:.6}, held out {:.6} -> {:.6}.",
        r.train_before, r.train_after, r.test_before, r.test_after
    );
    let _ = writeln!(
        s,
        "//! Generated: edit by re-running the tuner, not by hand."
    );
    let _ = writeln!(s);
    let _ = writeln!(s, "use super::weights::{{Weights, NUM_PARAMS}};");
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "/// The tuned weights, in the layout of [`super::weights`]."
    );
    let _ = writeln!(s, "#[rustfmt::skip]");
    let _ = writeln!(s, "pub const TUNED: Weights = Weights([");
    for (i, w) in r.weights.0.iter().enumerate() {
        let _ = writeln!(s, "    {w}, // {}", weights::name(i));
    }
    let _ = writeln!(s, "]);");
    let _ = writeln!(s);
    let _ = writeln!(s, "const _: () = assert!(TUNED.0.len() == NUM_PARAMS);");
    s
}

/// The evaluation of a parsed line with the given weights (for the tests).
#[cfg(test)]
fn eval_line(line: &str, w: &Weights) -> Option<i32> {
    parse_line(line).map(|(p, _)| janggi_search::eval::evaluate_cho_with(&p, w))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gen_then_tune_smoke() {
        let dir = std::env::temp_dir().join(format!("texel-smoke-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let data = dir.join("data.txt");
        let g = GenArgs {
            out: data.clone(),
            games: 2,
            nodes: 300,
            seed: 5,
            threads: 2,
            random_plies: 4,
            skip_plies: 4,
            move_limit: 40,
            hash: 1,
        };
        let n = gen(&g).expect("gen");
        assert!(n > 20, "{n}");
        let text = std::fs::read_to_string(&data).expect("read");
        let first = text.lines().next().expect("a line");
        assert!(eval_line(first, &DEFAULT).is_some(), "{first}");
        // Deterministic: the same seed gives the same file.
        let again = dir.join("again.txt");
        gen(&GenArgs {
            out: again.clone(),
            threads: 1,
            ..g
        })
        .expect("gen");
        assert_eq!(text, std::fs::read_to_string(&again).expect("read"));

        for quiet in [Quiet::None, Quiet::Skip, Quiet::Leaf] {
            let t = TuneArgs {
                data: data.clone(),
                out: None,
                iters: 2,
                lr: 1.0,
                quiet,
                holdout: 0.2,
                seed: 1,
                limit: 0,
                l2: 0.0,
            };
            let r = tune(&t).expect("tune");
            assert!(r.k > 0.0 && r.train_after.is_finite(), "{quiet:?}");
            assert!(r.source.contains("pub const TUNED: Weights"));
            assert_eq!(r.source.matches(", // ").count(), NUM_PARAMS);
            // Two steps of size 1 move no weight by more than 2 cp.
            for (a, b) in r.weights.0.iter().zip(DEFAULT.0.iter()) {
                assert!((a - b).abs() <= 2, "{a} vs {b}");
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn pgn_games_become_positions() {
        let fen = janggi_core::START_FEN;
        let games = format!(
            "[Event \"m\"]\n[Result \"0-1\"]\n[FEN \"{fen}\"]\n\n\
             1. a4b4 {{+0.10/3 0.1s}} a7b7 2. e2e2 {{pass}} c7c6 0-1\n\n\
             [Event \"m\"]\n[Result \"*\"]\n[FEN \"{fen}\"]\n\n1. a4b4 *\n\n\
             [Event \"m\"]\n[Result \"1-0\"]\n[FEN \"{fen}\"]\n\n1. a4a9 1-0\n"
        );
        let dir = std::env::temp_dir().join(format!("texel-pgn-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let file = dir.join("games.pgn");
        std::fs::write(&file, games).expect("write");
        let out = dir.join("data.txt");
        let args = PgnArgs {
            out: out.clone(),
            skip_plies: 2,
            repeat: 2,
            scores_from: None,
            blend: 0.5,
            score_scale: 0.75,
            files: vec![file],
        };
        // Only the first game counts: the second has no result, the third
        // an illegal move. Plies 2, 3 and 4 are written, twice each.
        assert_eq!(pgn(&args).expect("pgn"), (1, 6));
        let text = std::fs::read_to_string(&out).expect("read");
        let lines: Vec<&str> = text.lines().collect();
        let mut pos = Position::from_fen(fen).expect("start");
        for m in ["a4b4", "a7b7", "e2e2", "c7c6"] {
            let mv = pos.parse_move(m, Notation::Uci).expect("move");
            pos.make(mv);
        }
        assert_eq!(lines[2], format!("{} 0", pos.fen()));
        assert!(lines
            .iter()
            .all(|l| parse_line(l).is_some_and(|(_, r)| r == 0.0)));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn pgn_scores_label_positions() {
        // Scale 4 makes a score of s pawns a win probability 1/(1+10^-s).
        assert_eq!(comment_win_prob("+0.00/13 0.9s", 4.0), Some(0.5));
        assert!((comment_win_prob("-1.00/9", 4.0).unwrap() - 1.0 / 11.0).abs() < 1e-12);
        assert_eq!(comment_win_prob("+M3/245", 4.0), Some(1.0));
        assert_eq!(comment_win_prob("-M1/6 0.1s", 4.0), Some(0.0));
        assert_eq!(comment_win_prob("Cho wins", 4.0), None);
        let fen = janggi_core::START_FEN;
        // E plays Han (Black) and thinks it stands a pawn better (Cho's
        // probability 1/11) after a7b7, and even after c7c6.
        let game = format!(
            "[Event \"m\"]\n[White \"X\"]\n[Black \"E\"]\n[Result \"1-0\"]\n\
             [FEN \"{fen}\"]\n\n1. a4b4 {{+5.00/3}} a7b7 {{+1.00/12 0.2s}} \
             2. c4c5 c7c6 {{+0.00/11}} 3. e4e5 1-0\n"
        );
        let labels = Labels {
            skip: 1,
            scores: Some(("E".to_string(), 0.25, 4.0)),
        };
        let lines = pgn_game(&game, &labels).expect("game");
        let got: Vec<f64> = lines
            .iter()
            .map(|l| parse_line(l).expect("line").1)
            .collect();
        let p = 1.0 / 11.0;
        let want = [
            0.25 + 0.75 * p, // after a4b4: E's score for its reply
            0.25 + 0.75 * p, // after a7b7: E's own move
            0.25 + 0.75 * 0.5,
            0.25 + 0.75 * 0.5,
            1.0, // after e4e5: no score, the result
        ];
        assert_eq!(got.len(), want.len());
        for (g, w) in got.iter().zip(want) {
            assert!((g - w).abs() < 1e-4, "{got:?}");
        }
        // X's scores (the +5.00) are never used, and without a name only
        // results are written.
        let plain = Labels {
            skip: 1,
            scores: None,
        };
        let lines = pgn_game(&game, &plain).expect("game");
        assert!(lines.iter().all(|l| l.ends_with(" 1")));
    }

    #[test]
    fn bad_lines_are_rejected() {
        assert!(parse_line("").is_none());
        assert!(parse_line("not a fen 1").is_none());
        assert!(parse_line("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1 2").is_none());
        assert!(parse_line("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1 0.5").is_some());
    }
}
