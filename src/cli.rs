//! Command line: `janggi-engine` (protocol loop on stdin/stdout; also
//! `janggi-engine uci`), and the `perft`, `bench`, `datagen` and `train`
//! subcommands. `match` is the `janggi-match` program (crates/janggi-match):
//! `janggi-engine match ARGS…` runs the one next to this binary, where
//! `cargo build --release` puts it.

use crate::board::{LegalityModel, Notation, Position};
use crate::perft::{divide, parse_epd, perft_threads};
use clap::{Args, Parser, Subcommand};
use std::ffi::OsString;
use std::io::Write;
use std::time::Instant;

/// A Janggi (Korean chess) engine.
#[derive(Parser, Debug)]
#[command(name = "janggi-engine", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Run the protocol loop on stdin/stdout (the default; UCI, USI, UCCI
    /// or XBoard's CECP is chosen by the first command).
    Uci,
    /// Search fixed positions at fixed depth and print the node count.
    Bench(BenchArgs),
    /// Count leaf nodes of the legal-move tree (move generator check).
    Perft(PerftArgs),
    /// Generate training data for the network by self-play (docs/nnue.md).
    Datagen(DatagenArgs),
    /// Train a network on datagen files (docs/nnue.md).
    Train(TrainArgs),
    /// Play an engine-vs-engine match (cutechess-cli style; `match --help`):
    /// runs the `janggi-match` program next to this binary.
    #[command(disable_help_flag = true)]
    Match {
        /// Everything after `match`, passed on to `janggi-match`.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
        args: Vec<OsString>,
    },
}

#[derive(Args, Debug)]
struct BenchArgs {
    /// Depth override (also accepted as `--depth N`).
    #[arg(value_name = "DEPTH", conflicts_with = "depth")]
    depth_arg: Option<u32>,
    /// Depth override.
    #[arg(long, short)]
    depth: Option<u32>,
}

#[derive(Args, Debug)]
struct DatagenArgs {
    /// Output file, appended to (a run resumes where it stopped).
    #[arg(long)]
    out: std::path::PathBuf,
    /// Stop when the file holds this many games of this shard.
    #[arg(long)]
    games: Option<u64>,
    /// Stop when the file holds this many positions.
    #[arg(long)]
    positions: Option<u64>,
    /// Nodes per move.
    #[arg(long, default_value_t = 5000)]
    nodes: u64,
    /// Depth per move (with --nodes 0: depth only).
    #[arg(long)]
    depth: Option<u32>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Base seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// This run's shard `i/n` of a job array (game ids i, i+n, …).
    #[arg(long, default_value = "0/1")]
    shard: String,
    /// Random plies after the setup.
    #[arg(long, default_value_t = 8)]
    random_plies: usize,
    /// Rule set (a UCI_Variant name).
    #[arg(long, default_value = "janggi")]
    variant: String,
    /// Ply cap; the game is then decided by counting.
    #[arg(long, default_value_t = 400)]
    max_plies: u32,
    /// Win adjudication: |score| at least this many centipawns …
    #[arg(long, default_value_t = 1500)]
    win_score: i32,
    /// … for this many plies in a row.
    #[arg(long, default_value_t = 8)]
    win_plies: u32,
    /// Hash per worker in MB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// Evaluation to search with: `hce` (handcrafted) or `nnue`.
    #[arg(long, default_value = "nnue")]
    eval: String,
    /// Network file for `--eval nnue` (default: the embedded network).
    #[arg(long)]
    eval_file: Option<std::path::PathBuf>,
    /// No progress line.
    #[arg(long)]
    quiet: bool,
}

#[derive(Args, Debug)]
struct TrainArgs {
    /// Data files written by `datagen` (repeat or list).
    #[arg(long, required = true, num_args = 1..)]
    data: Vec<std::path::PathBuf>,
    /// The quantized network to write (after every epoch).
    #[arg(long)]
    out: std::path::PathBuf,
    /// Float checkpoint to write after every epoch.
    #[arg(long)]
    checkpoint: Option<std::path::PathBuf>,
    /// Resume from this checkpoint.
    #[arg(long)]
    resume: Option<std::path::PathBuf>,
    /// Epochs in all.
    #[arg(long, default_value_t = 20)]
    epochs: usize,
    /// Positions per optimiser step.
    #[arg(long, default_value_t = 4096)]
    batch: usize,
    /// Learning rate (Adam) of the first epoch.
    #[arg(long, default_value_t = 0.001)]
    lr: f32,
    /// Learning-rate factor per epoch.
    #[arg(long, default_value_t = 0.9)]
    lr_decay: f32,
    /// Decoupled weight decay (AdamW).
    #[arg(long, default_value_t = 0.0)]
    weight_decay: f32,
    /// Weight of the game result in the target (the rest: the search score).
    #[arg(long, default_value_t = 0.3)]
    blend: f32,
    /// Centipawns per logistic unit (score win probability sigmoid(cp/scale)).
    #[arg(long, default_value_t = 340.0)]
    scale: f32,
    /// Share of games held out for validation.
    #[arg(long, default_value_t = 0.05)]
    val_fraction: f64,
    /// Seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Use at most this many positions.
    #[arg(long)]
    max_positions: Option<usize>,
    /// Do not add the left-right mirror image of each training position.
    #[arg(long)]
    no_mirror: bool,
    /// No progress lines.
    #[arg(long)]
    quiet: bool,
}

#[derive(Args, Debug)]
struct PerftArgs {
    /// Position as FEN.
    #[arg(long, conflicts_with_all = ["startpos", "suite"])]
    fen: Option<String>,
    /// Use the standard start position.
    #[arg(long)]
    startpos: bool,
    /// Depth in plies.
    #[arg(long, short)]
    depth: Option<u32>,
    /// Print the count below each root move.
    #[arg(long)]
    divide: bool,
    /// Worker threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Legality model: casual or fsf.
    #[arg(long, default_value = "casual")]
    model: LegalityModel,
    /// Run every position of an EPD suite file and report mismatches.
    #[arg(long)]
    suite: Option<String>,
    /// With --suite: skip depths whose expected count exceeds this.
    #[arg(long)]
    max_nodes: Option<u64>,
}

/// Runs the command line; returns the process exit code.
pub fn run<I: IntoIterator<Item = OsString>>(args: I) -> i32 {
    let cli = match Cli::try_parse_from(args) {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    match cli.command {
        Some(Command::Perft(a)) => run_perft(a, &mut std::io::stdout().lock()),
        Some(Command::Bench(a)) => run_bench(a),
        Some(Command::Datagen(a)) => run_datagen(a),
        Some(Command::Train(a)) => run_train(a),
        Some(Command::Match { args }) => hand_over("janggi-match", "match", &args),
        Some(Command::Uci) | None => {
            crate::protocol::run(std::io::BufReader::new(std::io::stdin()), std::io::stdout())
        }
    }
}

/// Runs the developer tool `program` (a binary of another workspace crate)
/// with `args`, for `janggi-engine SUBCOMMAND args…`. The tool is looked
/// for next to this binary (`cargo build --release` builds every workspace
/// binary into `target/release/`). On Unix the tool replaces this process,
/// so its exit code and its Ctrl-C handling are exactly its own. Returns
/// the exit code, or 2 (with a line saying where the command lives) when
/// the tool is not there.
fn hand_over(program: &str, subcommand: &str, args: &[OsString]) -> i32 {
    let name = format!("{program}{}", std::env::consts::EXE_SUFFIX);
    let path = std::env::current_exe()
        .ok()
        .and_then(|exe| Some(exe.parent()?.join(&name)))
        .filter(|p| p.is_file());
    let Some(path) = path else {
        eprintln!(
            "error: `{subcommand}` is not part of janggi-engine: it is the {program} program \
             (`{program} {subcommand} …`, or `cargo run --release -p {program} -- {subcommand} …` \
             in the source tree), and there is no {name} next to this binary"
        );
        return 2;
    };
    let mut cmd = std::process::Command::new(&path);
    cmd.arg(subcommand).args(args);
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        let err = cmd.exec();
        eprintln!("error: cannot run {}: {err}", path.display());
        1
    }
    #[cfg(not(unix))]
    match cmd.status() {
        Ok(status) => status.code().unwrap_or(1),
        Err(err) => {
            eprintln!("error: cannot run {}: {err}", path.display());
            1
        }
    }
}

/// The network named by `--eval`/`--eval-file`, or an error line.
fn network_choice(
    eval: &str,
    file: Option<&std::path::Path>,
) -> Result<Option<std::sync::Arc<crate::nnue::Network>>, String> {
    match (eval, file) {
        ("hce", None) => Ok(None),
        ("hce", Some(_)) => Err("--eval-file needs --eval nnue".into()),
        ("nnue", None) => Ok(Some(crate::nnue::default_network().clone())),
        ("nnue", Some(p)) => crate::nnue::Network::load(p)
            .map(|n| Some(std::sync::Arc::new(n)))
            .map_err(|e| e.to_string()),
        (other, _) => Err(format!("--eval {other}: want hce or nnue")),
    }
}

fn run_datagen(a: DatagenArgs) -> i32 {
    let network = match network_choice(&a.eval, a.eval_file.as_deref()) {
        Ok(n) => n,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let shard = a
        .shard
        .split_once('/')
        .and_then(|(i, n)| Some((i.trim().parse().ok()?, n.trim().parse().ok()?)));
    let Some(shard) = shard else {
        eprintln!("error: --shard {}: want i/n, e.g. 0/4", a.shard);
        return 2;
    };
    let rules = match crate::game::Rules::from_variant(&a.variant) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: --variant: {e}");
            return 2;
        }
    };
    let mut cfg = crate::datagen::DatagenConfig {
        out: a.out,
        games: a.games,
        positions: a.positions,
        nodes: a.nodes,
        depth: a.depth,
        seed: a.seed,
        shard,
        random_plies: a.random_plies,
        rules,
        max_plies: a.max_plies,
        win_score: a.win_score,
        win_plies: a.win_plies,
        hash_mb: a.hash.clamp(1, 4096),
        network,
        ..Default::default()
    };
    if let Some(t) = a.threads {
        cfg.threads = t.clamp(1, 256);
    }
    match crate::datagen::run(&cfg, !a.quiet) {
        Ok(s) => {
            println!(
                "datagen: {} games, {} positions written; {} positions in {}",
                s.games,
                s.positions,
                s.total_positions,
                cfg.out.display()
            );
            0
        }
        Err(e) => {
            eprintln!("error: {e}");
            1
        }
    }
}

fn run_train(a: TrainArgs) -> i32 {
    if !(a.scale > 0.0 && (0.0..=1.0).contains(&a.blend) && a.lr > 0.0) {
        eprintln!("error: want --scale > 0, --blend in 0..1, --lr > 0");
        return 2;
    }
    let mut cfg = crate::train::TrainConfig {
        data: a.data,
        out: a.out,
        checkpoint: a.checkpoint,
        resume: a.resume,
        epochs: a.epochs,
        batch: a.batch.max(1),
        lr: a.lr,
        lr_decay: a.lr_decay,
        weight_decay: a.weight_decay.max(0.0),
        target: crate::train::model::Target {
            blend: a.blend,
            scale: a.scale,
        },
        val_fraction: a.val_fraction.clamp(0.0, 0.5),
        seed: a.seed,
        max_positions: a.max_positions,
        mirror: !a.no_mirror,
        progress: !a.quiet,
        ..Default::default()
    };
    if let Some(t) = a.threads {
        cfg.threads = t.clamp(1, 256);
    }
    match crate::train::run(&cfg) {
        Ok(reports) => {
            if let Some(r) = reports.last() {
                println!(
                    "train: {} epochs, last train loss {:.6}, val loss {:.6}; network in {}",
                    r.epoch,
                    r.train_loss,
                    r.val_loss,
                    cfg.out.display()
                );
            }
            0
        }
        Err(e) => {
            eprintln!("error: {e}");
            1
        }
    }
}

fn run_bench(a: BenchArgs) -> i32 {
    let mut session = crate::protocol::Session::new(std::io::stdout());
    let line = match a.depth.or(a.depth_arg) {
        Some(d) => format!("bench {d}"),
        None => "bench".to_string(),
    };
    session.handle_line(&line);
    0
}

fn run_perft(a: PerftArgs, out: &mut impl Write) -> i32 {
    if let Some(path) = &a.suite {
        return run_suite(path, &a, out);
    }
    let pos = match (&a.fen, a.startpos) {
        (Some(f), _) => match Position::from_fen(f) {
            Ok(p) => p,
            Err(e) => {
                let _ = writeln!(out, "error: bad FEN: {e}");
                return 2;
            }
        },
        (None, _) => Position::startpos(),
    };
    let Some(depth) = a.depth else {
        let _ = writeln!(out, "error: --depth is required");
        return 2;
    };
    let start = Instant::now();
    let total = if a.divide {
        let rows = divide(&pos, depth, a.model, a.threads);
        for (mv, n) in &rows {
            let _ = writeln!(out, "{}: {}", pos.move_text(*mv, Notation::Uci), n);
        }
        let _ = writeln!(out);
        rows.iter().map(|(_, n)| n).sum()
    } else {
        perft_threads(&pos, depth, a.model, a.threads)
    };
    let secs = start.elapsed().as_secs_f64();
    let _ = writeln!(out, "Nodes searched: {total}");
    let _ = writeln!(out, "Time: {:.3} s", secs);
    let _ = writeln!(out, "Nodes/second: {:.0}", total as f64 / secs.max(1e-9));
    0
}

fn run_suite(path: &str, a: &PerftArgs, out: &mut impl Write) -> i32 {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            let _ = writeln!(out, "error: cannot read {path}: {e}");
            return 2;
        }
    };
    let entries = match parse_epd(&text) {
        Ok(e) => e,
        Err(e) => {
            let _ = writeln!(out, "error: {path}: {e}");
            return 2;
        }
    };
    let (mut ok, mut bad, mut nodes) = (0u32, 0u32, 0u64);
    let start = Instant::now();
    for (i, e) in entries.iter().enumerate() {
        let pos = match Position::from_fen(&e.fen) {
            Ok(p) => p,
            Err(err) => {
                let _ = writeln!(out, "#{} bad FEN {}: {err}", i + 1, e.fen);
                bad += 1;
                continue;
            }
        };
        for &(d, want) in &e.counts {
            if a.max_nodes.is_some_and(|m| want > m) || a.depth.is_some_and(|m| d > m) {
                continue;
            }
            let got = perft_threads(&pos, d, a.model, a.threads);
            nodes += got;
            if got == want {
                ok += 1;
            } else {
                bad += 1;
                let _ = writeln!(
                    out,
                    "MISMATCH #{} depth {d}: got {got}, expected {want}  {}",
                    i + 1,
                    e.fen
                );
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let _ = writeln!(
        out,
        "suite {path} model {}: {ok} passed, {bad} failed",
        a.model
    );
    let _ = writeln!(out, "Nodes searched: {nodes}");
    let _ = writeln!(out, "Nodes/second: {:.0}", nodes as f64 / secs.max(1e-9));
    if bad == 0 {
        0
    } else {
        1
    }
}
