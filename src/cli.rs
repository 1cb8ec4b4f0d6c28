//! Command line: `janggi-engine` (protocol loop on stdin/stdout; also
//! `janggi-engine uci`), the `perft` and `bench` subcommands, and `gui`
//! (the web board of the janggi-gui crate).
//!
//! The developer tools are other programs of the workspace, which the
//! engine binary does not carry: `match` is `janggi-match`
//! (crates/janggi-match), `datagen` and `train` are `janggi-tools`
//! (crates/janggi-tools). `janggi-engine match|datagen|train ARGS…` runs
//! the one next to this binary, where `cargo build --release` puts it.

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
    /// Generate training data for the network by self-play (docs/nnue.md):
    /// runs `janggi-tools datagen` next to this binary.
    #[command(disable_help_flag = true)]
    Datagen {
        /// Everything after `datagen`, passed on to `janggi-tools datagen`.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
        args: Vec<OsString>,
    },
    /// Train a network on datagen files (docs/nnue.md): runs
    /// `janggi-tools train` next to this binary.
    #[command(disable_help_flag = true)]
    Train {
        /// Everything after `train`, passed on to `janggi-tools train`.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
        args: Vec<OsString>,
    },
    /// Play an engine-vs-engine match (cutechess-cli style; `match --help`):
    /// runs the `janggi-match` program next to this binary.
    #[command(disable_help_flag = true)]
    Match {
        /// Everything after `match`, passed on to `janggi-match`.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
        args: Vec<OsString>,
    },
    /// A local web board (docs/gui.md): serves one page on 127.0.0.1 and
    /// plays against a UCI engine child process (this binary by default).
    Gui(GuiArgs),
}

#[derive(Args, Debug)]
struct GuiArgs {
    /// Port (0: any free port).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// The engine command line (program and arguments, split on spaces);
    /// default: this binary's protocol loop.
    #[arg(long)]
    engine: Option<String>,
    /// Open the page in a browser.
    #[arg(long)]
    open: bool,
    /// Address to listen on; anything but loopback prints a warning.
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
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
        Some(Command::Datagen { args }) => hand_over("janggi-tools", "datagen", &args),
        Some(Command::Train { args }) => hand_over("janggi-tools", "train", &args),
        Some(Command::Match { args }) => hand_over("janggi-match", "match", &args),
        Some(Command::Gui(a)) => run_gui(a),
        Some(Command::Uci) | None => {
            crate::protocol::run(std::io::BufReader::new(std::io::stdin()), std::io::stdout())
        }
    }
}

/// `gui`: the web board with the engine fixed by the command line.
fn run_gui(a: GuiArgs) -> i32 {
    let engine = match &a.engine {
        Some(text) => match janggi_gui::EngineCommand::parse(text) {
            Some(c) => c,
            None => {
                eprintln!("error: --engine needs a command");
                return 2;
            }
        },
        None => match janggi_gui::EngineCommand::this_binary() {
            Ok(c) => c,
            Err(e) => {
                eprintln!("error: cannot find this binary for the engine: {e}");
                return 1;
            }
        },
    };
    let config = janggi_gui::Config {
        host: a.host,
        port: a.port,
        engine,
        grace: janggi_gui::engine::GRACE,
    };
    janggi_gui::run(&config, a.open)
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
