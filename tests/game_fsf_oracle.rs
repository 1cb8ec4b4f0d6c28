//! Agreement with Fairy-Stockfish on random games: for every game in
//! `tests/data/fsf_oracle_<variant>.txt` (written by
//! `tools/gen_fsf_oracle.py` with pyffish; format in the files' header)
//! the game layer under the preset of the same name must
//! * accept every move and not end the game early,
//! * produce exactly the reference legal move list (pass included) at
//!   every sampled ply,
//! * end the game at the final position with the same winner and the
//!   matching reason (or go on when the reference stopped at its ply cap),
//! * count the same material.
//!
//! `JANGGI_ORACLE_DIR` may point at another directory with the same files.

use janggi::{Color, FenError, IllegalMove, MoveParseError, Notation, Position};
use janggi::{EndReason, Game, Outcome, RuleError, Rules};

fn data_dir() -> String {
    std::env::var("JANGGI_ORACLE_DIR")
        .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data").to_string())
}

#[derive(Default)]
struct Record {
    variant: String,
    fen: String,
    moves: Vec<String>,
    legal: Vec<(usize, Vec<String>)>,
    material: Option<(u32, u32)>,
    end: Vec<String>,
}

fn parse(text: &str) -> Vec<Record> {
    let mut out: Vec<Record> = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (tag, rest) = line.split_once(' ').unwrap_or((line, ""));
        if tag == "game" {
            let (variant, fen) = rest.split_once(' ').expect("game <variant> <fen>");
            out.push(Record {
                variant: variant.into(),
                fen: fen.trim().into(),
                ..Record::default()
            });
            continue;
        }
        let rec = out.last_mut().expect("a record starts with `game`");
        let words: Vec<String> = rest.split_whitespace().map(String::from).collect();
        match tag {
            "moves" => rec.moves = words,
            "legal" => {
                let k = words[0].parse().expect("legal <k>");
                rec.legal.push((k, words[1..].to_vec()));
            }
            "material" => {
                rec.material = Some((
                    words[0].parse().expect("cho"),
                    words[1].parse().expect("han"),
                ))
            }
            "end" => rec.end = words,
            _ => {}
        }
    }
    out
}

fn sorted_legal(g: &Game) -> Vec<String> {
    let mut v: Vec<String> = g
        .legal_moves()
        .iter()
        .map(|&m| g.position().move_text(m, Notation::Uci))
        .collect();
    v.sort();
    v
}

/// The reasons a reference `end` reason may map to.
fn reasons(reason: &str) -> &'static [EndReason] {
    match reason {
        "bikjang" => &[EndReason::ScoreBikjang, EndReason::DrawBikjang],
        "double-pass" => &[EndReason::ScorePasses, EndReason::DrawPasses],
        "repetition" => &[EndReason::ScoreRepetition, EndReason::DrawRepetition],
        "perpetual-check" | "move-repetition" => &[EndReason::RepetitionLoss],
        "move-rule" => &[EndReason::ScoreMoveLimit, EndReason::DrawMoveLimit],
        "checkmate" | "stalemate" => &[EndReason::Checkmate],
        _ => &[],
    }
}

/// The first way a record and the game layer disagree.
#[derive(Debug)]
enum Disagreement {
    /// The record's variant is no preset.
    Rules(RuleError),
    /// The record's start is not a position.
    Fen(FenError),
    /// Other legal moves after `ply` plies (sorted UCI text).
    LegalMoves {
        ply: usize,
        got: Vec<String>,
        want: Vec<String>,
    },
    /// The game ended before the record's last move.
    EndedEarly { ply: usize, outcome: Outcome },
    /// A move of the record does not read.
    MoveText(MoveParseError),
    /// A move of the record is illegal here.
    Illegal {
        ply: usize,
        text: String,
        error: IllegalMove,
    },
    /// Other material at the end.
    Material { got: (u32, u32), want: (u32, u32) },
    /// The reference goes on; the game ended.
    WeEnd(Outcome),
    /// The reference ended (its `end` words); the game goes on.
    WeGoOn(Vec<String>),
    /// Both ended, with another winner or reason.
    OtherEnd { end: Vec<String>, outcome: Outcome },
}

impl std::fmt::Display for Disagreement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use Disagreement as D;
        match self {
            D::Rules(e) => e.fmt(f),
            D::Fen(e) => write!(f, "FEN: {e}"),
            D::LegalMoves { ply, got, want } => write!(
                f,
                "legal moves after {ply} plies:\n  got  {got:?}\n  want {want:?}"
            ),
            D::EndedEarly { ply, outcome } => {
                write!(f, "ended early after {ply} plies: {}", outcome.summary_en())
            }
            D::MoveText(e) => e.fmt(f),
            D::Illegal { ply, text, error } => write!(f, "move {ply} {text}: {error}"),
            D::Material { got, want } => write!(f, "material {got:?}, want {want:?}"),
            D::WeEnd(o) => write!(f, "reference goes on, we end: {}", o.summary_en()),
            D::WeGoOn(end) => write!(f, "reference ends ({end:?}), we go on"),
            D::OtherEnd { end, outcome } => write!(
                f,
                "end {end:?}, we say {} ({:?})",
                outcome.summary_en(),
                outcome.reason
            ),
        }
    }
}

impl std::error::Error for Disagreement {}

/// Checks one record; returns the number of legal-move lists compared, or
/// the first disagreement.
fn check(rec: &Record) -> Result<usize, Disagreement> {
    let rules = Rules::from_variant(&rec.variant).map_err(Disagreement::Rules)?;
    let pos = Position::from_fen(&rec.fen).map_err(Disagreement::Fen)?;
    let mut g = Game::new(pos, rules);
    let n = rec.moves.len();
    let mut samples = rec.legal.iter().peekable();
    let mut compared = 0;
    for k in 0..=n {
        while let Some((_, want)) = samples.next_if(|(i, _)| *i == k) {
            let got = sorted_legal(&g);
            // Fairy-Stockfish keeps listing moves after an optional end
            // (repetition, n-move rule); the game is over here.
            let optional_end = k == n && rec.end.first().is_some_and(|e| e == "optional");
            if !(optional_end && got.is_empty()) && got != *want {
                return Err(Disagreement::LegalMoves {
                    ply: k,
                    got,
                    want: want.clone(),
                });
            }
            compared += 1;
        }
        if k == n {
            break;
        }
        if let Some(o) = g.outcome() {
            return Err(Disagreement::EndedEarly {
                ply: k,
                outcome: o.clone(),
            });
        }
        let m = g
            .position()
            .parse_move(&rec.moves[k], Notation::Uci)
            .map_err(Disagreement::MoveText)?;
        g.play(m).map_err(|error| Disagreement::Illegal {
            ply: k,
            text: rec.moves[k].clone(),
            error,
        })?;
    }
    if let Some((cho, han)) = rec.material {
        let got = (
            g.position().material(Color::Cho),
            g.position().material(Color::Han),
        );
        if got != (cho, han) {
            return Err(Disagreement::Material {
                got,
                want: (cho, han),
            });
        }
    }
    let kind = rec.end.first().map(String::as_str).unwrap_or("none");
    match (kind, g.outcome()) {
        ("none", None) => Ok(compared),
        ("none", Some(o)) => Err(Disagreement::WeEnd(o.clone())),
        (_, None) => Err(Disagreement::WeGoOn(rec.end.clone())),
        (_, Some(o)) => {
            let winner = match rec.end.get(4).map(String::as_str) {
                Some("w") => Some(Color::Cho),
                Some("b") => Some(Color::Han),
                _ => None,
            };
            let reason = rec.end.get(2).map(String::as_str).unwrap_or("");
            if o.winner != winner || !reasons(reason).contains(&o.reason) {
                return Err(Disagreement::OtherEnd {
                    end: rec.end.clone(),
                    outcome: o.clone(),
                });
            }
            Ok(compared)
        }
    }
}

fn run(variant: &str) {
    let path = format!("{}/fsf_oracle_{variant}.txt", data_dir());
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let records = parse(&text);
    assert!(records.len() >= 20, "{path}: only {} games", records.len());
    let mut failures = Vec::new();
    let mut ends = std::collections::BTreeMap::new();
    let mut compared = 0;
    for (i, rec) in records.iter().enumerate() {
        assert_eq!(rec.variant, variant, "{path}: game {i}");
        *ends
            .entry(rec.end.get(2).cloned().unwrap_or_default())
            .or_insert(0) += 1;
        match check(rec) {
            Ok(n) => compared += n,
            Err(e) => failures.push(format!(
                "game {i} ({} | {}): {e}",
                rec.fen,
                rec.moves.join(" ")
            )),
        }
    }
    assert!(
        failures.is_empty(),
        "{variant}: {} of {} games disagree (endings {ends:?}):\n{}",
        failures.len(),
        records.len(),
        failures.join("\n")
    );
    assert!(
        compared >= 100,
        "{path}: only {compared} legal-move lists compared"
    );
    // Every kind of ending the variant has must be represented.
    let needed: &[&str] = match variant {
        "janggi" | "janggitraditional" => &["bikjang", "double-pass", "repetition", "checkmate"],
        _ => &["double-pass", "repetition", "checkmate"],
    };
    for reason in needed {
        assert!(
            ends.contains_key(*reason),
            "{path}: no game ends by {reason}"
        );
    }
}

#[test]
fn oracle_janggi() {
    run("janggi");
}

#[test]
fn oracle_janggitraditional() {
    run("janggitraditional");
}

#[test]
fn oracle_janggimodern() {
    run("janggimodern");
}

#[test]
fn oracle_janggicasual() {
    run("janggicasual");
}
