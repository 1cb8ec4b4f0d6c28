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

use janggi::{Color, Notation, Position};
use janggi::{EndReason, Game, Rules};

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

/// Checks one record; returns the number of legal-move lists compared, or
/// a description of the first disagreement.
fn check(rec: &Record) -> Result<usize, String> {
    let rules = Rules::from_variant(&rec.variant).map_err(|e| e.to_string())?;
    let pos = Position::from_fen(&rec.fen).map_err(|e| format!("FEN: {e}"))?;
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
                return Err(format!(
                    "legal moves after {k} plies:\n  got  {got:?}\n  want {want:?}"
                ));
            }
            compared += 1;
        }
        if k == n {
            break;
        }
        if let Some(o) = g.outcome() {
            return Err(format!("ended early after {k} plies: {}", o.summary_en()));
        }
        let m = g
            .position()
            .parse_move(&rec.moves[k], Notation::Uci)
            .map_err(|e| e.to_string())?;
        g.play(m)
            .map_err(|e| format!("move {k} {}: {e}", rec.moves[k]))?;
    }
    if let Some((cho, han)) = rec.material {
        let got = (
            g.position().material(Color::Cho),
            g.position().material(Color::Han),
        );
        if got != (cho, han) {
            return Err(format!("material {got:?}, want {:?}", (cho, han)));
        }
    }
    let kind = rec.end.first().map(String::as_str).unwrap_or("none");
    match (kind, g.outcome()) {
        ("none", None) => Ok(compared),
        ("none", Some(o)) => Err(format!("reference goes on, we end: {}", o.summary_en())),
        (_, None) => Err(format!("reference ends ({:?}), we go on", rec.end)),
        (_, Some(o)) => {
            let winner = match rec.end.get(4).map(String::as_str) {
                Some("w") => Some(Color::Cho),
                Some("b") => Some(Color::Han),
                _ => None,
            };
            let reason = rec.end.get(2).map(String::as_str).unwrap_or("");
            if o.winner != winner || !reasons(reason).contains(&o.reason) {
                return Err(format!(
                    "end {:?}, we say {} ({:?})",
                    rec.end,
                    o.summary_en(),
                    o.reason
                ));
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
