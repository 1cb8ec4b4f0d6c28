//! Measures the GIB/PGN reader on a directory of real records (kept
//! outside the repository): `cargo run -p janggi-records --example corpus
//! -- /work/corpus/pobsiz`. Prints the games read, the share converted,
//! every failure class with its count and an example, the games whose
//! written result contradicts a checkmate on the board, and any panic.

use janggi_core::{Color, EndReason};
use janggi_records::{GameErrorKind, GameResult, MoveError, RecordWarning};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// A short name for the class of a failure.
fn class(kind: &GameErrorKind) -> String {
    match kind {
        GameErrorKind::BadMove { error, number, .. } => {
            let early = if *number <= 12 { " [ply <= 12]" } else { "" };
            let c: String = match error.as_ref() {
                MoveError::Korean(e) => {
                    let d = format!("{e:?}");
                    let name: String = d.chars().take_while(|c| c.is_alphanumeric()).collect();
                    let mark = if d.contains('타') { " (타 mark)" } else { "" };
                    format!("move: {name}{mark}")
                }
                MoveError::San(_) => "move: not SAN".to_string(),
                MoveError::Uci(_) => "move: not UCI".to_string(),
                MoveError::Illegal(why) => format!("move: {why}"),
                MoveError::WrongCapture { .. } => "move: wrong capture name".to_string(),
                MoveError::GameOver { reason, .. } => {
                    format!("move: game over ({})", reason.name())
                }
                MoveError::Repetition { .. } => "move: 4th repetition".to_string(),
            };
            c + early
        }
        other => format!("{other:?}").chars().take(40).collect(),
    }
}

fn main() {
    let dirs: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    let mut files = Vec::new();
    for d in &dirs {
        match std::fs::read_dir(d) {
            Ok(rd) => files.extend(rd.filter_map(|e| e.ok()).map(|e| e.path())),
            Err(_) => files.push(d.clone()),
        }
    }
    files.sort();
    let (mut games, mut ok, mut panics, mut inverted) = (0usize, 0usize, 0usize, 0usize);
    let mut classes: BTreeMap<String, (usize, String)> = BTreeMap::new();
    let mut warnings: BTreeMap<String, usize> = BTreeMap::new();
    for f in &files {
        let Ok(bytes) = std::fs::read(f) else {
            continue;
        };
        let read = std::panic::catch_unwind(|| janggi_records::read_any(&bytes));
        let Ok(read) = read else {
            panics += 1;
            eprintln!("PANIC: {}", f.display());
            continue;
        };
        for (i, g) in read.into_iter().enumerate() {
            games += 1;
            match g {
                Ok(rec) => {
                    ok += 1;
                    for w in &rec.warnings {
                        let name = match w {
                            RecordWarning::MoveCountMismatch { .. } => {
                                "MoveCountMismatch".to_string()
                            }
                            RecordWarning::HanSetupReversed { .. } => {
                                "HanSetupReversed".to_string()
                            }
                            RecordWarning::OtherRules { because, used } => format!(
                                "read under {} rules: {}",
                                janggi_records::record::rules_name(used),
                                class(&GameErrorKind::BadMove {
                                    number: 99,
                                    text: String::new(),
                                    error: because.clone()
                                })
                            ),
                            RecordWarning::Incomplete { .. } => "Incomplete".to_string(),
                            other => format!("{other:?}").chars().take(50).collect(),
                        };
                        *warnings.entry(name).or_default() += 1;
                    }
                    // A checkmate on the board names the winner.
                    if let Ok(game) = rec.game() {
                        if let Some(o) = game.outcome() {
                            if o.reason == EndReason::Checkmate {
                                let board = match o.winner {
                                    Some(Color::Cho) => GameResult::ChoWins,
                                    Some(Color::Han) => GameResult::HanWins,
                                    None => GameResult::Draw,
                                };
                                if rec.result != GameResult::Unknown && rec.result != board {
                                    inverted += 1;
                                    eprintln!(
                                        "INVERTED? {} game {}: board {:?}, record {:?} ({:?})",
                                        f.display(),
                                        i + 1,
                                        board,
                                        rec.result,
                                        rec.tag("대국결과")
                                    );
                                }
                            }
                        }
                    }
                }
                Err(e) => {
                    let c = classes.entry(class(&e.kind)).or_default();
                    c.0 += 1;
                    if c.1.is_empty() {
                        c.1 = format!(
                            "{}: {e}",
                            f.file_name().unwrap_or_default().to_string_lossy()
                        );
                    }
                }
            }
        }
    }
    println!("files {}, games {games}, converted {ok} ({:.2} %), panics {panics}, checkmates against the written result {inverted}",
        files.len(), 100.0 * ok as f64 / games.max(1) as f64);
    let mut by_count: Vec<_> = classes.into_iter().collect();
    by_count.sort_by_key(|c| std::cmp::Reverse(c.1 .0));
    for (c, (n, ex)) in by_count {
        println!(
            "{n:6}  {c}\n        e.g. {}",
            ex.chars().take(200).collect::<String>()
        );
    }
    for (w, n) in warnings {
        println!("warning {n:6}  {w}");
    }
}
