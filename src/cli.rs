//! Command line: `janggi-engine` (protocol loop on stdin/stdout; also
//! `janggi-engine uci`), the `perft`, `bench`, `convert` and `analyse`
//! subcommands, and `gui` (the web board of the janggi-gui crate).
//!
//! The developer tools are other programs of the workspace, which the
//! engine binary does not carry: `match` is `janggi-match`
//! (crates/janggi-match), `datagen` and `train` are `janggi-tools`
//! (crates/janggi-tools). `janggi-engine match|datagen|train ARGS…` runs
//! the one next to this binary, where `cargo build --release` puts it.

use crate::perft::{divide, parse_epd, perft_threads};
use clap::{Args, Parser, Subcommand};
use janggi_core::{LegalityModel, Notation, Position};
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
    /// Convert game records: GIB (CP949 or UTF-8) or PGN (SAN or UCI moves)
    /// to PGN, GIB or EPD. Broken games are reported on stderr (exit code
    /// 2); the others are still converted.
    Convert(ConvertArgs),
    /// Analyse games (GIB, PGN or a `position … moves` line): every
    /// position searched, each move marked by its win-probability loss
    /// (docs/analysis.md); annotated PGN (or JSON) on stdout or --out, an
    /// SVG or PNG evaluation graph with --graph; games in parallel
    /// (--jobs), --shard i/n.
    Analyse(AnalyseArgs),
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
    /// Seconds the engine may think past its move time before `stop`, and
    /// again after `stop` before it is taken for hung and restarted
    /// (0.1 to 600). Raise it for a slow engine or a loaded machine.
    #[arg(long, value_name = "SECONDS", default_value = "5", value_parser = parse_grace)]
    grace: std::time::Duration,
}

/// `gui --grace`: seconds as a decimal number, 0.1 to 600.
///
/// # Errors
///
/// [`GraceError`] when the text is not a number or lies outside the range.
fn parse_grace(text: &str) -> Result<std::time::Duration, GraceError> {
    let secs: f64 = text
        .trim()
        .parse()
        .map_err(|_| GraceError::NotANumber(text.to_owned()))?;
    if !(0.1..=600.0).contains(&secs) {
        return Err(GraceError::OutOfRange(text.to_owned()));
    }
    Ok(std::time::Duration::from_secs_f64(secs))
}

/// A `gui --grace` value clap refused (it prints the message and exits 2).
#[derive(Debug, Clone, PartialEq, Eq)]
enum GraceError {
    /// The text is not a decimal number.
    NotANumber(String),
    /// A number, but not within 0.1 to 600 seconds (NaN and infinities too).
    OutOfRange(String),
}

impl GraceError {
    /// What the value must be, named in both messages.
    const RANGE: &'static str = "a number of seconds from 0.1 to 600";
}

impl std::fmt::Display for GraceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GraceError::NotANumber(text) => write!(f, "`{text}` is not {}", Self::RANGE),
            GraceError::OutOfRange(text) => {
                write!(f, "{text} is outside the range: give {}", Self::RANGE)
            }
        }
    }
}

impl std::error::Error for GraceError {}

#[derive(Args, Debug)]
struct ConvertArgs {
    /// The input file (GIB or PGN, detected from its content).
    input: std::path::PathBuf,
    /// The output format: pgn (SAN moves), pgn-uci, gib, gib-cp949 or epd.
    #[arg(long, value_parser = ["pgn", "pgn-uci", "gib", "gib-cp949", "epd"])]
    to: String,
    /// The output file (default: stdout).
    #[arg(long)]
    out: Option<std::path::PathBuf>,
    #[command(flatten)]
    rules: RulesArgs,
}

/// The rules records are read under (docs/records.md): by default each
/// record's own (KJF's, or the apps' when the record plays on after
/// bikjang or repeats a 4th time; a PGN's variant tags).
#[derive(Args, Debug)]
struct RulesArgs {
    /// Read every game under this preset: janggikjf, janggi,
    /// janggitraditional, janggimodern or janggicasual.
    #[arg(long)]
    variant: Option<String>,
    /// Read every game under these rule options, over --variant (else
    /// KJF's): "bikjang=off repetition=off" (Bikjang, Repetition, Scoring,
    /// AllowPass, MoveLimit, NoCaptureLimit).
    #[arg(long)]
    rules: Option<String>,
}

impl RulesArgs {
    /// The rules given, `None` for the records' own; the error printed.
    fn rules(&self, command: &str) -> Result<Option<janggi_core::Rules>, ()> {
        janggi_records::rules_arg::rules_from_args(self.variant.as_deref(), self.rules.as_deref())
            .map_err(|e| eprintln!("{command}: {e}"))
    }
}

#[derive(Args, Debug)]
struct AnalyseArgs {
    /// Game files.
    #[arg(required = true)]
    files: Vec<std::path::PathBuf>,
    /// Milliseconds per position.
    #[arg(long, conflicts_with_all = ["nodes", "depth"])]
    movetime: Option<u64>,
    /// Nodes per position.
    #[arg(long, conflicts_with = "depth")]
    nodes: Option<u64>,
    /// Depth per position (default 8 when no limit is given).
    #[arg(long)]
    depth: Option<u32>,
    /// Engine threads (each job's engine).
    #[arg(long)]
    threads: Option<u32>,
    /// Games analysed at once, each by its own engine process (default:
    /// the cores divided by --threads, at least 1).
    #[arg(long)]
    jobs: Option<usize>,
    /// Only this shard's games, i/n: game k of the input (from 0, over all
    /// the files in order) belongs to shard (k mod n) + 1.
    #[arg(long)]
    shard: Option<janggi_analysis::batch::Shard>,
    /// Another UCI engine's command line (default: this engine).
    #[arg(long)]
    engine: Option<String>,
    /// JSON instead of annotated PGN.
    #[arg(long)]
    json: bool,
    /// Output file (default: stdout).
    #[arg(long)]
    out: Option<std::path::PathBuf>,
    /// Write the evaluation graph here: SVG, or PNG when the name ends in
    /// `.png` (`-K` is added before the extension for game K ≥ 2 of the
    /// input).
    #[arg(long)]
    graph: Option<std::path::PathBuf>,
    /// Write the graph as PNG here too (named as --graph).
    #[arg(long)]
    png: Option<std::path::PathBuf>,
    /// No progress bar and no summary line on stderr.
    #[arg(long, short)]
    quiet: bool,
    #[command(flatten)]
    rules: RulesArgs,
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
        Some(Command::Convert(a)) => run_convert(&a),
        Some(Command::Analyse(a)) => run_analyse(&a),
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
        grace: a.grace,
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

/// `convert`: 0 when every game converted, 2 when some did not (or the
/// files cannot be read or written), with the reasons on stderr.
fn run_convert(a: &ConvertArgs) -> i32 {
    use janggi_records::convert::{convert_with, Target};
    let target = match a.to.as_str() {
        "pgn" => Target::Pgn,
        "pgn-uci" => Target::PgnUci,
        "gib" => Target::Gib,
        "gib-cp949" => Target::GibCp949,
        _ => Target::Epd,
    };
    let input = match std::fs::read(&a.input) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{}: {e}", a.input.display());
            return 2;
        }
    };
    let Ok(rules) = a.rules.rules("convert") else {
        return 2;
    };
    let c = convert_with(&input, target, rules);
    for p in &c.problems {
        eprintln!("{}: {p}", a.input.display());
    }
    let written = match &a.out {
        Some(path) => {
            std::fs::write(path, &c.output).map_err(|e| format!("{}: {e}", path.display()))
        }
        None => std::io::stdout()
            .write_all(&c.output)
            .map_err(|e| format!("stdout: {e}")),
    };
    if let Err(e) = written {
        eprintln!("{e}");
        return 2;
    }
    let failed = c.problems.iter().filter(|p| p.is_error()).count();
    if failed > 0 {
        eprintln!("{} games converted, {failed} not", c.written);
        2
    } else {
        0
    }
}

/// A `position startpos|fen FEN [moves …]` line as a record.
fn position_line(text: &str) -> Option<janggi_records::Record> {
    let rest = text.trim().strip_prefix("position")?.trim();
    let (start, moves) = match rest.split_once("moves") {
        Some((s, m)) => (s.trim(), m),
        None => (rest, ""),
    };
    let pos = if start == "startpos" {
        Position::startpos()
    } else {
        Position::from_fen(start.strip_prefix("fen")?.trim()).ok()?
    };
    let mut game = janggi_core::Game::new(pos, janggi_core::Rules::default());
    for m in moves.split_whitespace() {
        let mv = game.position().parse_move(m, Notation::Uci).ok()?;
        game.play(mv).ok()?;
    }
    Some(janggi_records::Record::from_game(&game))
}

/// The graph file of game `k` (0-based place in the input): `path` for
/// the first game, `stem-(k+1).ext` for the others.
fn graph_path(path: &std::path::Path, k: usize) -> std::path::PathBuf {
    if k == 0 {
        return path.to_path_buf();
    }
    let stem = path.file_stem().unwrap_or_default().to_string_lossy();
    let ext = path
        .extension()
        .map_or(String::new(), |e| format!(".{}", e.to_string_lossy()));
    path.with_file_name(format!("{stem}-{}{ext}", k + 1))
}

/// Writes game `k`'s graphs (--graph, --png); the errors as text.
fn write_graphs(
    a: &AnalyseArgs,
    k: usize,
    an: &janggi_analysis::GameAnalysis,
    title: &str,
) -> Vec<String> {
    use janggi_analysis::png::png_graph;
    let mut errors = Vec::new();
    let is_png = |p: &std::path::Path| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("png"));
    let mut targets = Vec::new();
    if let Some(p) = &a.graph {
        targets.push((graph_path(p, k), is_png(p)));
    }
    if let Some(p) = &a.png {
        targets.push((graph_path(p, k), true));
    }
    for (path, png) in targets {
        let bytes = if png {
            match png_graph(an, title) {
                Ok(b) => b,
                Err(e) => {
                    errors.push(format!("{}: {e}", path.display()));
                    continue;
                }
            }
        } else {
            janggi_analysis::svg_graph(an, title).into_bytes()
        };
        if let Err(e) = std::fs::write(&path, bytes) {
            errors.push(format!("{}: {e}", path.display()));
        }
    }
    errors
}

/// `analyse`: 0 when every game was analysed, 2 otherwise (reasons on
/// stderr); a progress bar on stderr when it is a terminal.
fn run_analyse(a: &AnalyseArgs) -> i32 {
    use janggi_analysis::batch::{analyse_all, Shard};
    use janggi_analysis::progress::Progress;
    use janggi_analysis::{annotated_pgn, to_json, Limit, UciEngine};
    let limit = match (a.movetime, a.nodes, a.depth) {
        (Some(ms), _, _) => Limit::MoveTime(ms),
        (_, Some(n), _) => Limit::Nodes(n),
        (_, _, d) => Limit::Depth(d.unwrap_or(8)),
    };
    let (cmd, args): (String, Vec<String>) = match &a.engine {
        Some(line) => {
            let mut it = line.split_whitespace().map(str::to_string);
            (it.next().unwrap_or_default(), it.collect())
        }
        None => match std::env::current_exe() {
            Ok(p) => (p.display().to_string(), vec!["uci".to_string()]),
            Err(e) => {
                eprintln!("analyse: {e}");
                return 2;
            }
        },
    };
    let Ok(rules) = a.rules.rules("analyse") else {
        return 2;
    };
    let shard = a.shard.unwrap_or(Shard::ALL);
    // Every game of every file, in order; this shard's only.
    let mut failed = 0;
    let mut unreadable = 0;
    let mut games = Vec::new();
    let mut k = 0usize;
    for file in &a.files {
        let bytes = match std::fs::read(file) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("{}: {e}", file.display());
                failed += 1;
                continue;
            }
        };
        let text = String::from_utf8_lossy(&bytes);
        let read = match position_line(&text) {
            Some(r) => vec![Ok(r)],
            None => janggi_records::read_any_with(&bytes, rules),
        };
        if read.is_empty() {
            eprintln!(
                "{}: error: no games in the input (the file is empty)",
                file.display()
            );
            failed += 1;
        }
        let name = file.file_name().map_or_else(
            || file.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        for (i, g) in read.into_iter().enumerate() {
            if shard.owns(k) {
                match g {
                    Ok(rec) => games.push((k, format!("{name} game {}", i + 1), rec)),
                    Err(e) => {
                        eprintln!("{}: error: {e}", file.display());
                        failed += 1;
                        unreadable += 1;
                    }
                }
            }
            k += 1;
        }
    }
    let mut out: Box<dyn Write> = match &a.out {
        Some(path) => match std::fs::File::create(path) {
            Ok(f) => Box::new(std::io::BufWriter::new(f)),
            Err(e) => {
                eprintln!("{}: {e}", path.display());
                return 2;
            }
        },
        None => Box::new(std::io::stdout().lock()),
    };
    let records: Vec<janggi_records::Record> = games.iter().map(|g| g.2.clone()).collect();
    let positions: u64 = records.iter().map(|r| r.plies.len() as u64 + 1).sum();
    let threads = a.threads.unwrap_or(1).max(1) as usize;
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let jobs = a
        .jobs
        .unwrap_or((cores / threads).max(1))
        .clamp(1, records.len().max(1));
    let progress = Progress::new(positions, records.len() as u64, a.quiet);
    let started = Instant::now();
    let mut write_error = None;
    let mut analysed = 0;
    let mut caveats = 0;
    analyse_all(
        &records,
        jobs,
        || UciEngine::start(&cmd, &args, limit, a.threads),
        |_, _, _| progress.position(),
        |i, r| {
            let (k, label, rec) = &games[i];
            progress.game_done();
            match r {
                Ok(an) => {
                    analysed += 1;
                    if let Some(c) = &an.rules_caveat {
                        if caveats == 0 {
                            progress.println(&format!("{label}: warning: {c}"));
                        }
                        caveats += 1;
                    }
                    let text = if a.json {
                        to_json(&an) + "\n"
                    } else {
                        annotated_pgn(rec, &an)
                    };
                    if write_error.is_none() {
                        write_error = out.write_all(text.as_bytes()).err();
                    }
                    let title = janggi_analysis::graph_title(label, rec);
                    for e in write_graphs(a, *k, &an, &title) {
                        progress.println(&e);
                        failed += 1;
                    }
                }
                Err(e) => {
                    progress.println(&format!("{label}: {e}"));
                    failed += 1;
                }
            }
        },
    );
    progress.finish();
    let flushed = out.flush();
    if let Some(e) = write_error.or(flushed.err()) {
        eprintln!("output: {e}");
        return 2;
    }
    if caveats > 1 {
        eprintln!(
            "warning: {caveats} of {analysed} games were not searched under exactly their rules (see the first warning; the records say so in their first comment)"
        );
    }
    if !a.quiet {
        let shard_text = if a.shard.is_some() {
            format!(" (shard {shard})")
        } else {
            String::new()
        };
        let unread_text = if unreadable > 0 {
            format!(" ({unreadable} could not be read)")
        } else {
            String::new()
        };
        eprintln!(
            "analysed {analysed} of {} games{unread_text}{shard_text}, {positions} positions, {jobs} jobs, in {:.1} s",
            records.len() + unreadable,
            started.elapsed().as_secs_f64()
        );
    }
    if failed > 0 {
        2
    } else {
        0
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn the_grace_is_seconds_within_its_range() {
        assert_eq!(parse_grace("5"), Ok(janggi_gui::engine::GRACE));
        assert_eq!(parse_grace("2.5"), Ok(Duration::from_millis(2500)));
        assert_eq!(parse_grace("0.1"), Ok(Duration::from_millis(100)));
        assert_eq!(parse_grace("600"), Ok(Duration::from_secs(600)));
        for bad in ["0", "0.05", "601", "-3", "NaN", "inf", "5s", ""] {
            let err = parse_grace(bad).expect_err(bad).to_string();
            assert!(err.contains("0.1 to 600"), "{bad}: {err}");
        }
    }
}
