//! `janggi-tools`: the developer tools that need the engine but are not
//! part of the engine binary: `datagen` (self-play training data) and
//! `train` (the network trainer); docs/nnue.md. `janggi-engine datagen …`
//! and `janggi-engine train …` hand over to this program.

use clap::{Args, Parser, Subcommand};
use std::process::ExitCode;

/// Developer tools of the Janggi engine: training data and the network
/// trainer.
#[derive(Parser, Debug)]
#[command(name = "janggi-tools", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Generate training data for the network by self-play (docs/nnue.md).
    Datagen(DatagenArgs),
    /// Train a network on datagen files (docs/nnue.md).
    Train(TrainArgs),
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

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let code = match cli.command {
        Command::Datagen(a) => run_datagen(a),
        Command::Train(a) => run_train(a),
    };
    ExitCode::from(u8::try_from(code).unwrap_or(1))
}

/// The network named by `--eval`/`--eval-file`, or an error line.
fn network_choice(
    eval: &str,
    file: Option<&std::path::Path>,
) -> Result<Option<std::sync::Arc<janggi::nnue::Network>>, String> {
    match (eval, file) {
        ("hce", None) => Ok(None),
        ("hce", Some(_)) => Err("--eval-file needs --eval nnue".into()),
        ("nnue", None) => Ok(Some(janggi::nnue::default_network().clone())),
        ("nnue", Some(p)) => janggi::nnue::Network::load(p)
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
    let rules = match janggi::game::Rules::from_variant(&a.variant) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: --variant: {e}");
            return 2;
        }
    };
    let mut cfg = janggi_tools::datagen::DatagenConfig {
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
    match janggi_tools::datagen::run(&cfg, !a.quiet) {
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
    let mut cfg = janggi_tools::train::TrainConfig {
        data: a.data,
        out: a.out,
        checkpoint: a.checkpoint,
        resume: a.resume,
        epochs: a.epochs,
        batch: a.batch.max(1),
        lr: a.lr,
        lr_decay: a.lr_decay,
        weight_decay: a.weight_decay.max(0.0),
        target: janggi_tools::train::model::Target {
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
    match janggi_tools::train::run(&cfg) {
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
