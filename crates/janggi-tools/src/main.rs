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
    /// Write an EPD opening book of balanced, distinct openings
    /// (docs/strength.md, "Openings for strength rows").
    Book(BookArgs),
    /// The growing training set: add a datagen file's new positions as a
    /// part, or show the parts and where they came from (docs/nnue.md).
    Dataset(DatasetArgs),
    /// Search a sample of a data file's positions again, deeper, and write
    /// them with the new scores (docs/nnue.md, "Deeper labels").
    Relabel(RelabelArgs),
}

#[derive(Args, Debug)]
struct RelabelArgs {
    /// The data file whose positions are searched again.
    #[arg(long)]
    data: std::path::PathBuf,
    /// Output file, appended to (a run resumes where it stopped).
    #[arg(long)]
    out: std::path::PathBuf,
    /// Nodes per search.
    #[arg(long, default_value_t = 5000)]
    nodes: u64,
    /// Depth per search (with --nodes 0: depth only).
    #[arg(long)]
    depth: Option<u32>,
    /// Share of the positions searched again (0 < f <= 1).
    #[arg(long, default_value_t = 1.0)]
    fraction: f64,
    /// Seed of the sample.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Hash per worker in MB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// Rule set (a UCI_Variant name).
    #[arg(long, default_value = "janggi")]
    variant: String,
    #[command(flatten)]
    eval: EvalArgs,
    /// No progress lines.
    #[arg(long)]
    quiet: bool,
}

#[derive(Args, Debug)]
struct DatasetArgs {
    #[command(subcommand)]
    action: DatasetAction,
}

#[derive(Subcommand, Debug)]
enum DatasetAction {
    /// Add the positions of a datagen file that the set does not hold yet
    /// as its next part (the set is made when missing).
    Add {
        /// The set's directory.
        #[arg(long)]
        set: std::path::PathBuf,
        /// The datagen file.
        #[arg(long)]
        data: std::path::PathBuf,
        /// The generation the file belongs to (written in the manifest).
        #[arg(long)]
        generation: Option<String>,
    },
    /// List the parts with their counts and provenance.
    Show {
        /// The set's directory.
        #[arg(long)]
        set: std::path::PathBuf,
    },
}

#[derive(Args, Debug)]
struct BookArgs {
    /// The EPD file to write.
    #[arg(long)]
    out: std::path::PathBuf,
    /// Openings to write.
    #[arg(long, default_value_t = 1000)]
    count: usize,
    /// Random plies after the setup (no passes).
    #[arg(long, default_value_t = 8)]
    plies: usize,
    /// Nodes of the balance search.
    #[arg(long, default_value_t = 2000)]
    nodes: u64,
    /// Keep openings the search scores within this many centipawns.
    #[arg(long, default_value_t = 150)]
    margin: i32,
    /// Seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: all cores; the book does not depend on it).
    #[arg(long)]
    threads: Option<usize>,
    /// Rule set (a UCI_Variant name).
    #[arg(long, default_value = "janggi")]
    rules: String,
    #[command(flatten)]
    eval: EvalArgs,
    /// No progress lines.
    #[arg(long)]
    quiet: bool,
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
    #[command(flatten)]
    eval: EvalArgs,
    /// No progress line.
    #[arg(long)]
    quiet: bool,
}

#[derive(Args, Debug)]
struct TrainArgs {
    /// Data files written by `datagen`, or dataset directories (every
    /// part of the set; `dataset add`), repeated or listed.
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
    /// Output heads chosen by the material on the board (1 to 8; 1: one
    /// head for every position, the version-1 network file; 8: a head per
    /// bucket of `(pieces − 1) / 4`, generals not counted, docs/nnue.md).
    /// Default: the `--init-from` network's, otherwise 1.
    #[arg(long)]
    output_buckets: Option<usize>,
    /// The first layer's width H, neurons per perspective: 256, 384, 512
    /// or 768 (the network file records it; a resumed checkpoint must have
    /// the same). Default: the `--init-from` network's, otherwise 256.
    #[arg(long, value_parser = parse_hidden)]
    hidden: Option<janggi_search::nnue::Width>,
    /// Input buckets by the own general's palace point: none (one first
    /// layer), palace9 (one block per palace point) or palace6 (the side
    /// files folded by the left-right mirror); the network file records
    /// the scheme (version 3), a resumed checkpoint must have the same.
    /// Default: the `--init-from` network's, otherwise none.
    #[arg(long, value_parser = parse_input_buckets)]
    input_buckets: Option<janggi_search::nnue::InputBuckets>,
    /// Start from this network's weights (its first layer into the shared
    /// rows, the bucket rows at zero): the untrained model evaluates as
    /// the network, in the network's own shape unless `--hidden`,
    /// `--output-buckets` or `--input-buckets` say otherwise. A wider
    /// layer (the new neurons' output weights zero) and output buckets
    /// from a one-head network (each head its head) grow from it; a
    /// narrower width or another head count is an error.
    #[arg(long, conflicts_with = "resume")]
    init_from: Option<std::path::PathBuf>,
    /// No progress lines.
    #[arg(long)]
    quiet: bool,
}

/// `--input-buckets`: a name of [`janggi_search::nnue::InputBuckets`].
fn parse_input_buckets(s: &str) -> Result<janggi_search::nnue::InputBuckets, ArgError> {
    janggi_search::nnue::InputBuckets::from_name(s.trim()).ok_or(ArgError::InputBuckets)
}

/// `--hidden`: one of [`janggi_search::nnue::HIDDEN_SIZES`].
fn parse_hidden(s: &str) -> Result<janggi_search::nnue::Width, ArgError> {
    s.trim()
        .parse()
        .ok()
        .and_then(janggi_search::nnue::Width::from_hidden)
        .ok_or(ArgError::Hidden)
}

/// An argument refused: by a clap value parser (clap prints it after the
/// argument's name and exits 2) or by [`EvalArgs::network`] (printed as
/// `error: …`, exit 2).
#[derive(Debug)]
enum ArgError {
    /// `--input-buckets`: not a scheme's name.
    InputBuckets,
    /// `--hidden`: not one of the widths this build has.
    Hidden,
    /// `--eval-file` with `--eval hce`.
    EvalFileNeedsNnue,
    /// `--eval`: neither `hce` nor `nnue`.
    UnknownEval(String),
    /// `--eval-file`: the network could not be read.
    Network(janggi_search::nnue::NetError),
}

impl std::fmt::Display for ArgError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ArgError::InputBuckets => {
                let names: Vec<&str> = janggi_search::nnue::InputBuckets::ALL
                    .iter()
                    .map(|b| b.name())
                    .collect();
                write!(f, "want one of {}", names.join(", "))
            }
            ArgError::Hidden => {
                write!(f, "want one of {:?}", janggi_search::nnue::HIDDEN_SIZES)
            }
            ArgError::EvalFileNeedsNnue => f.write_str("--eval-file needs --eval nnue"),
            ArgError::UnknownEval(other) => write!(f, "--eval {other}: want hce or nnue"),
            ArgError::Network(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ArgError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ArgError::Network(e) => Some(e),
            _ => None,
        }
    }
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
        Command::Book(a) => run_book(a),
        Command::Dataset(a) => run_dataset(a),
        Command::Relabel(a) => run_relabel(a),
    };
    ExitCode::from(u8::try_from(code).unwrap_or(1))
}

/// `--eval` and `--eval-file`: what datagen and the book search with.
#[derive(Args, Debug)]
struct EvalArgs {
    /// Evaluation to search with: `hce` (handcrafted) or `nnue`.
    #[arg(long, default_value = "nnue")]
    eval: String,
    /// Network file for `--eval nnue` (default: the embedded network).
    #[arg(long)]
    eval_file: Option<std::path::PathBuf>,
}

impl EvalArgs {
    /// The network these arguments name (`None`: the handcrafted
    /// evaluation), or why not.
    fn network(&self) -> Result<Option<std::sync::Arc<janggi_search::nnue::Network>>, ArgError> {
        match (self.eval.as_str(), self.eval_file.as_deref()) {
            ("hce", None) => Ok(None),
            ("hce", Some(_)) => Err(ArgError::EvalFileNeedsNnue),
            ("nnue", None) => Ok(Some(janggi_search::nnue::default_network().clone())),
            ("nnue", Some(p)) => janggi_search::nnue::Network::load(p)
                .map(|n| Some(std::sync::Arc::new(n)))
                .map_err(ArgError::Network),
            (other, _) => Err(ArgError::UnknownEval(other.to_string())),
        }
    }
}

impl EvalArgs {
    /// The SHA-256 of the network file these arguments name (the embedded
    /// one's bytes without `--eval-file`), `-` for the handcrafted
    /// evaluation or a file that cannot be read.
    fn network_sha256(&self) -> String {
        use janggi_tools::datagen::provenance::sha256_hex;
        match (self.eval.as_str(), self.eval_file.as_deref()) {
            ("nnue", None) => sha256_hex(janggi_search::nnue::DEFAULT_NET_BYTES),
            ("nnue", Some(p)) => std::fs::read(p).map_or("-".to_string(), |b| sha256_hex(&b)),
            _ => "-".to_string(),
        }
    }
}

/// The network and rule set a search-driven command plays with, or the
/// message and exit code 2 already printed.
type Network = Option<std::sync::Arc<janggi_search::nnue::Network>>;

fn network_and_rules(
    eval: &EvalArgs,
    variant: &str,
    flag: &str,
) -> Result<(Network, janggi_core::Rules), i32> {
    let network = eval.network().map_err(|e| {
        eprintln!("error: {e}");
        2
    })?;
    let rules = janggi_core::Rules::from_variant(variant).map_err(|e| {
        eprintln!("error: {flag}: {e}");
        2
    })?;
    Ok((network, rules))
}

fn run_datagen(a: DatagenArgs) -> i32 {
    let (network, rules) = match network_and_rules(&a.eval, &a.variant, "--variant") {
        Ok(x) => x,
        Err(code) => return code,
    };
    let shard = a
        .shard
        .split_once('/')
        .and_then(|(i, n)| Some((i.trim().parse().ok()?, n.trim().parse().ok()?)));
    let Some(shard) = shard else {
        eprintln!("error: --shard {}: want i/n, e.g. 0/4", a.shard);
        return 2;
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
        provenance: vec![
            ("network_sha256".to_string(), a.eval.network_sha256()),
            ("variant".to_string(), a.variant.clone()),
        ],
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

fn run_relabel(a: RelabelArgs) -> i32 {
    let (network, rules) = match network_and_rules(&a.eval, &a.variant, "--variant") {
        Ok(x) => x,
        Err(code) => return code,
    };
    let cfg = janggi_tools::relabel::RelabelConfig {
        provenance: vec![
            ("network_sha256".to_string(), a.eval.network_sha256()),
            ("variant".to_string(), a.variant.clone()),
        ],
        input: a.data,
        out: a.out,
        nodes: a.nodes,
        depth: a.depth,
        fraction: a.fraction,
        seed: a.seed,
        threads: a
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
            .clamp(1, 256),
        hash_mb: a.hash.clamp(1, 4096),
        rules,
        network,
    };
    match janggi_tools::relabel::run(&cfg, !a.quiet) {
        Ok(s) => {
            println!(
                "relabel: {} positions searched, {} written ({} games), {} dropped (decided or a capture); {} positions in {}",
                s.searched,
                s.written,
                s.games,
                s.dropped,
                s.total,
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

fn run_dataset(a: DatasetArgs) -> i32 {
    use janggi_tools::dataset::Dataset;
    match a.action {
        DatasetAction::Add {
            set,
            data,
            generation,
        } => match Dataset::at(&set).add(&data, generation.as_deref()) {
            Ok(p) if p.kept == 0 => {
                println!(
                    "dataset: nothing new in {} ({} positions, all in {} already)",
                    data.display(),
                    p.read,
                    set.display()
                );
                0
            }
            Ok(p) => {
                println!(
                    "dataset: {} added: {} positions of {} games kept, {} duplicates dropped ({} read); provenance: {}",
                    set.join(&p.file).display(),
                    p.kept,
                    p.games,
                    p.duplicates,
                    p.read,
                    p.provenance
                );
                0
            }
            Err(e) => {
                eprintln!("error: {e}");
                1
            }
        },
        DatasetAction::Show { set } => match Dataset::at(&set).parts() {
            Ok(parts) if parts.is_empty() => {
                eprintln!("error: {} holds no dataset (no parts)", set.display());
                1
            }
            Ok(parts) => {
                println!("part\tgeneration\tkept\tduplicates\tgames\tsource\tprovenance");
                for p in &parts {
                    println!(
                        "{}\t{}\t{}\t{}\t{}\t{}\t{}",
                        p.file, p.generation, p.kept, p.duplicates, p.games, p.source, p.provenance
                    );
                }
                let total: u64 = parts.iter().map(|p| p.kept).sum();
                println!("{} parts, {total} distinct positions", parts.len());
                0
            }
            Err(e) => {
                eprintln!("error: {e}");
                1
            }
        },
    }
}

/// The model's shape for `train`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct TrainShape {
    output_buckets: usize,
    hidden: janggi_search::nnue::Width,
    input_buckets: janggi_search::nnue::InputBuckets,
}

impl TrainShape {
    /// The flags given, and for each flag not given the warm start's
    /// network's own (so that `--init-from` alone fine-tunes a network in
    /// its shape), or without one 1 head, 256 wide, no input buckets.
    fn resolve(a: &TrainArgs, from: Option<&janggi_search::nnue::Network>) -> TrainShape {
        TrainShape {
            output_buckets: a.output_buckets.or(from.map(|n| n.buckets())).unwrap_or(1),
            hidden: a.hidden.or(from.map(|n| n.width())).unwrap_or_default(),
            input_buckets: a
                .input_buckets
                .or(from.map(|n| n.input_buckets()))
                .unwrap_or_default(),
        }
    }
}

fn run_train(a: TrainArgs) -> i32 {
    if !(a.scale > 0.0 && (0.0..=1.0).contains(&a.blend) && a.lr > 0.0) {
        eprintln!("error: want --scale > 0, --blend in 0..1, --lr > 0");
        return 2;
    }
    // A file that does not load is the trainer's typed error below.
    let from = a
        .init_from
        .as_deref()
        .and_then(|p| janggi_search::nnue::Network::load(p).ok());
    let TrainShape {
        output_buckets,
        hidden,
        input_buckets,
    } = TrainShape::resolve(&a, from.as_ref());
    if !(1..=janggi_search::nnue::MAX_BUCKETS).contains(&output_buckets) {
        eprintln!(
            "error: --output-buckets {}: want 1 to {}",
            output_buckets,
            janggi_search::nnue::MAX_BUCKETS
        );
        return 2;
    }
    let mut cfg = janggi_tools::train::TrainConfig {
        data: match janggi_tools::dataset::expand_inputs(&a.data) {
            Ok(d) => d,
            Err(e) => {
                eprintln!("error: --data: {e}");
                return 2;
            }
        },
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
        output_buckets,
        hidden,
        input_buckets,
        init_from: a.init_from,
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

fn run_book(a: BookArgs) -> i32 {
    let (network, rules) = match network_and_rules(&a.eval, &a.rules, "--rules") {
        Ok(x) => x,
        Err(code) => return code,
    };
    if a.count == 0 || a.margin < 0 {
        eprintln!("error: want --count > 0 and --margin >= 0");
        return 2;
    }
    let eval_name = match &a.eval.eval_file {
        Some(p) => format!("nnue {}", p.display()),
        None if a.eval.eval == "nnue" => "nnue (embedded network)".to_string(),
        None => a.eval.eval.clone(),
    };
    let mut cfg = janggi_tools::book::BookConfig {
        count: a.count,
        plies: a.plies,
        nodes: a.nodes.max(1),
        margin: a.margin,
        seed: a.seed,
        rules,
        variant: a.rules.clone(),
        network,
        eval_name,
        ..Default::default()
    };
    if let Some(t) = a.threads {
        cfg.threads = t.clamp(1, 256);
    }
    // The command without --threads and --quiet, which do not change the book.
    let mut command = format!(
        "janggi-tools book --out {} --count {} --plies {} --nodes {} --margin {} --seed {} --rules {}",
        a.out.display(),
        a.count,
        a.plies,
        cfg.nodes,
        a.margin,
        a.seed,
        a.rules
    );
    if a.eval.eval != "nnue" {
        command.push_str(&format!(" --eval {}", a.eval.eval));
    }
    if let Some(p) = &a.eval.eval_file {
        command.push_str(&format!(" --eval-file {}", p.display()));
    }
    let started = std::time::Instant::now();
    let book = match janggi_tools::book::build(&cfg, !a.quiet) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("error: {e}");
            return 1;
        }
    };
    if let Err(e) = std::fs::write(&a.out, book.to_epd(&cfg, &command)) {
        eprintln!("error: cannot write {}: {e}", a.out.display());
        return 1;
    }
    println!(
        "book: {} openings from {} candidates in {:.1} s; {}",
        book.entries.len(),
        book.tried,
        started.elapsed().as_secs_f64(),
        a.out.display()
    );
    0
}

#[cfg(test)]
mod eval_args_tests {
    use super::EvalArgs;

    fn args(eval: &str, file: Option<&str>) -> EvalArgs {
        EvalArgs {
            eval: eval.to_string(),
            eval_file: file.map(std::path::PathBuf::from),
        }
    }

    #[test]
    fn eval_arguments_name_one_evaluation_or_a_clear_error() {
        assert!(matches!(args("hce", None).network(), Ok(None)));
        assert!(matches!(args("nnue", None).network(), Ok(Some(_))));
        assert_eq!(
            args("hce", Some("x.nnue"))
                .network()
                .err()
                .map(|e| e.to_string())
                .as_deref(),
            Some("--eval-file needs --eval nnue")
        );
        assert_eq!(
            args("psqt", None)
                .network()
                .err()
                .map(|e| e.to_string())
                .as_deref(),
            Some("--eval psqt: want hce or nnue")
        );
        let missing = args("nnue", Some("/nonexistent/x.nnue")).network();
        assert!(missing.is_err(), "a missing network file is an error");
    }
}

#[cfg(test)]
mod train_shape_tests {
    use super::{Cli, Command, TrainShape};
    use clap::Parser;
    use janggi_search::nnue::{InputBuckets, Network, Width};

    fn shape(flags: &[&str], from: Option<&Network>) -> TrainShape {
        let argv = [
            "janggi-tools",
            "train",
            "--data",
            "d.bin",
            "--out",
            "n.nnue",
        ];
        let cli = Cli::try_parse_from(argv.iter().chain(flags)).unwrap();
        match cli.command {
            Command::Train(a) => TrainShape::resolve(&a, from),
            _ => unreachable!("a train command"),
        }
    }

    /// Without flags a warm start keeps the network's shape (the shipped
    /// network's 8 heads, generation 8's one), a flag given wins, and
    /// without a network the shape is 1 head, 256 wide, no input buckets.
    #[test]
    fn unset_shape_flags_follow_the_warm_start() {
        let gen9 = janggi_search::nnue::default_network();
        let gen8 = Network::from_bytes(include_bytes!("../../../nets/gen8.nnue")).unwrap();
        let plain = |output_buckets, hidden| TrainShape {
            output_buckets,
            hidden,
            input_buckets: InputBuckets::None,
        };
        assert_eq!(shape(&[], None), plain(1, Width::H256));
        assert_eq!(shape(&[], Some(gen9)), plain(8, Width::H256));
        assert_eq!(shape(&[], Some(&gen8)), plain(1, Width::H256));
        assert_eq!(
            shape(&["--hidden", "512"], Some(gen9)),
            plain(8, Width::H512)
        );
        assert_eq!(
            shape(&["--output-buckets", "8"], Some(&gen8)),
            plain(8, Width::H256)
        );
        assert_eq!(
            shape(&["--output-buckets", "3", "--hidden", "384"], None),
            plain(3, Width::H384)
        );
        let p6 = shape(&["--input-buckets", "palace6"], Some(&gen8));
        assert_eq!(p6.input_buckets, InputBuckets::Palace6);
    }
}

#[cfg(test)]
mod value_parser_tests {
    use super::{parse_hidden, parse_input_buckets};
    use janggi_search::nnue::{InputBuckets, Width};

    #[test]
    fn value_parsers_name_what_they_want() {
        assert!(matches!(parse_hidden(" 256 "), Ok(Width::H256)));
        assert_eq!(
            parse_hidden("300").map(|_| ()).unwrap_err().to_string(),
            format!("want one of {:?}", janggi_search::nnue::HIDDEN_SIZES)
        );
        assert!(matches!(
            parse_input_buckets("none"),
            Ok(InputBuckets::None)
        ));
        let err = parse_input_buckets("palace7").unwrap_err().to_string();
        assert!(err.starts_with("want one of none, "), "{err}");
    }
}
