//! PGN for Janggi games: a writer and a reader that replays games back
//! into [`Game`]s. Both are janggi-records' (crates/janggi-records): the
//! writer is its `write_pgn_with_ending` on the game as a `Record`
//! ([`to_record`]), the reader its tokenizer `split_pgn`; so the runner's
//! PGN is the PGN `janggi-engine convert` and `analyse` read and write.
//!
//! Tags written: the seven-tag roster (`White` is Cho, who moves first;
//! `Black` is Han), `[Variant "Janggi"]`, `[FEN …]` and `[SetUp "1"]`,
//! `[RuleSet "<--variant preset>"]` and `[Rules "bikjang=kjf repetition=…"]`
//! (the full rule set, so a reader replays under the same rules),
//! `[Notation "UCI"]`, `[Opening …]`, `[TimeControl …]` (or
//! `WhiteTimeControl`/`BlackTimeControl` when they differ), `[PlyCount …]`,
//! `[Termination "<reason>; <Korean summary>"]` (the reason is a
//! [`Termination`] name: the spec's §8.6 names or `illegalMove`, `crash`,
//! `noReply`, `timeLoss`, `adjudication`, `maxMoves`, …) and for forfeits
//! `[TerminationDetails …]` with the offending text and the position.
//!
//! **Move notation.** `[Notation "UCI"]` marks plain UCI coordinates
//! (Fairy-Stockfish's): from-square then to-square, files `a`–`i`
//! from Cho's left, ranks `1`–`10` from Cho's back rank (`b1c3`, `a7a10`);
//! a pass is the mover's general square twice (`e2e2`). Moves are numbered
//! as in chess PGN (Cho's move, then Han's). Comments after engine moves
//! hold `{score/depth time}` as cutechess-cli writes them; opening moves
//! are marked `{book}`.

use super::referee::{GameRecord, Termination};
use janggi_core::{Game, Notation, Position, Rules};
use janggi_records::record::setups_of;
use janggi_records::{GameErrorKind, GameResult as RecordResult, Ply, Record};
use std::fmt;
use std::fmt::Write as _;
use std::time::{SystemTime, UNIX_EPOCH};

/// The tag naming the move notation.
pub const NOTATION_TAG: &str = "Notation";
/// Its value: plain UCI coordinates.
pub const NOTATION_UCI: &str = "UCI";

/// Today as `YYYY.MM.DD` (UTC).
pub fn today() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let days = (secs / 86_400) as i64;
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Writes one game as PGN text (ending with a blank line), with
/// janggi-records' PGN writer (`write_pgn_with_ending`, UCI moves): the
/// runner's tags (`Event`, `Round`, `RuleSet`, `Opening`, `TimeControl`,
/// `Termination`, …) are the record's tags, each move's
/// `{score/depth time}` or `{book}` its comment, and the result summary
/// the comment before the result.
pub fn write_game(rec: &GameRecord, event: &str, date: &str) -> String {
    janggi_records::pgn::write_pgn_with_ending(
        &to_record(rec, event, date),
        janggi_records::pgn::MoveStyle::Uci,
        Some(&format!(
            "{}: {}",
            rec.result.summary_en, rec.result.summary_ko
        )),
    )
}

/// The runner's game as a janggi-records [`Record`]: convert it to GIB or
/// SAN PGN with janggi-records' writers.
pub fn to_record(rec: &GameRecord, event: &str, date: &str) -> Record {
    let mut tags: Vec<(String, String)> = vec![
        ("Event".into(), event.to_string()),
        ("Site".into(), "?".to_string()),
        ("Date".into(), date.to_string()),
        ("Round".into(), rec.number.to_string()),
        ("White".into(), rec.players[0].clone()),
        ("Black".into(), rec.players[1].clone()),
        ("RuleSet".into(), rec.variant.clone()),
        ("Opening".into(), rec.opening.clone()),
    ];
    if rec.time_controls[0] == rec.time_controls[1] {
        tags.push(("TimeControl".into(), rec.time_controls[0].clone()));
    } else {
        tags.push(("WhiteTimeControl".into(), rec.time_controls[0].clone()));
        tags.push(("BlackTimeControl".into(), rec.time_controls[1].clone()));
    }
    tags.push((
        "Termination".into(),
        format!(
            "{}; {}",
            rec.result.termination.name(),
            rec.result.summary_ko
        ),
    ));
    if let Some(d) = &rec.result.detail {
        tags.push(("TerminationDetails".into(), d.clone()));
    }
    // The referee built the FEN from a position; the standard start is
    // only a fallback that cannot happen.
    let start = Position::from_fen(&rec.start_fen).unwrap_or_else(|_| Position::startpos());
    let plies = rec
        .moves
        .iter()
        .map(|m| {
            let comment = if m.book {
                "book".to_string()
            } else {
                let mut c = String::new();
                if let Some(s) = m.score {
                    let _ = write!(c, "{}", s.pawns());
                    if let Some(d) = m.depth {
                        let _ = write!(c, "/{d}");
                    }
                    c.push(' ');
                }
                let _ = write!(c, "{:.3}s", m.elapsed_ms as f64 / 1000.0);
                c
            };
            Ply {
                mv: m.mv,
                comment: Some(comment),
            }
        })
        .collect();
    Record {
        tags,
        setups: setups_of(&start),
        start,
        rules: rec.rules,
        intro: None,
        plies,
        result: RecordResult::from_pgn(rec.result.pgn_result()).unwrap_or_default(),
        warnings: Vec::new(),
    }
}

/// A problem reading or replaying PGN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnError(pub String);

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PgnError {}

/// A game as read from PGN: tags, move texts and the result token.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnGame {
    /// Tags in file order.
    pub tags: Vec<(String, String)>,
    /// Move texts (UCI).
    pub moves: Vec<String>,
    /// The result token (`1-0`, `0-1`, `1/2-1/2`, `*`).
    pub result: String,
}

impl PgnGame {
    /// A tag's value.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The termination reason (the part of `[Termination]` before `;`).
    pub fn termination(&self) -> Option<Termination> {
        let t = self.tag("Termination")?;
        Termination::from_name(t.split(';').next().unwrap_or("").trim())
    }

    /// The rule set: `[RuleSet]` (a preset, default `janggikjf`), then the
    /// `key=value` pairs of `[Rules]`.
    ///
    /// # Errors
    /// [`PgnError`] for unknown presets or options.
    pub fn rules(&self) -> Result<Rules, PgnError> {
        let mut rules = match self.tag("RuleSet") {
            Some(v) => Rules::from_variant(v).map_err(|e| PgnError(format!("RuleSet: {e}")))?,
            None => Rules::default(),
        };
        if let Some(list) = self.tag("Rules") {
            for pair in list.split_whitespace() {
                let (k, v) = pair
                    .split_once('=')
                    .ok_or_else(|| PgnError(format!("Rules: bad pair '{pair}'")))?;
                rules
                    .set_option(k, v)
                    .map_err(|e| PgnError(format!("Rules: {e}")))?;
            }
        }
        Ok(rules)
    }

    /// The start position (`[FEN]`, else the standard start).
    ///
    /// # Errors
    /// [`PgnError`] for a bad FEN.
    pub fn start_position(&self) -> Result<Position, PgnError> {
        match self.tag("FEN") {
            Some(f) => Position::from_fen(f).map_err(|e| PgnError(format!("FEN: {e}"))),
            None => Ok(Position::startpos()),
        }
    }

    /// Replays the moves under the game's rules.
    ///
    /// # Errors
    /// [`PgnError`] naming the first move that does not parse or is illegal.
    pub fn replay(&self) -> Result<Game, PgnError> {
        if let Some(n) = self.tag(NOTATION_TAG) {
            if !n.eq_ignore_ascii_case(NOTATION_UCI) {
                return Err(PgnError(format!("unsupported notation '{n}'")));
            }
        }
        let mut game = Game::new(self.start_position()?, self.rules()?);
        for (i, text) in self.moves.iter().enumerate() {
            let mv = game
                .position()
                .parse_move(text, Notation::Uci)
                .map_err(|e| PgnError(format!("ply {}: {e}", i + 1)))?;
            game.play(mv)
                .map_err(|e| PgnError(format!("ply {} ({text}): {e}", i + 1)))?;
        }
        Ok(game)
    }
}

/// Reads every game of a PGN text (janggi-records' tokenizer,
/// `split_pgn`; the moves are replayed by [`PgnGame::replay`]).
///
/// # Errors
/// [`PgnError`] for a malformed tag or an unterminated comment.
pub fn read_pgn(text: &str) -> Result<Vec<PgnGame>, PgnError> {
    janggi_records::pgn::split_pgn(text)
        .into_iter()
        .enumerate()
        .map(|(i, g)| {
            if let Some(e) = &g.error {
                let why = match e {
                    GameErrorKind::BadTag(l) => format!("bad tag line: {l}"),
                    GameErrorKind::UnterminatedComment => "unterminated comment".to_string(),
                    other => format!("{other:?}"),
                };
                return Err(PgnError(format!("game {}: {why}", i + 1)));
            }
            Ok(PgnGame {
                tags: g.tags,
                moves: g.moves.into_iter().map(|(m, _)| m).collect(),
                result: g.result.unwrap_or_default(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reader_handles_pgn_syntax() {
        let text = "[Event \"x \\\"q\\\"\"]\n[FEN \"rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1\"]\n\n\
                    1. b1c3 {+0.10/3 0.1s} b10c8 $1 (2. a4a5) 2.a1a2 ; rest\n e9e9 1/2-1/2\n\n[Event \"y\"]\n\n1. e2e2 *\n";
        let games = read_pgn(text).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].tag("Event"), Some("x \"q\""));
        assert_eq!(games[0].moves, ["b1c3", "b10c8", "a1a2", "e9e9"]);
        assert_eq!(games[0].result, "1/2-1/2");
        let g = games[0].replay().unwrap();
        assert_eq!(g.ply(), 4);
        assert_eq!(games[1].moves, ["e2e2"]);
        assert!(read_pgn("[Event x]\n").is_err());
        assert!(read_pgn("1. b1c3 {open").is_err());
        let bad = read_pgn("1. b1c3 b1c3 *").unwrap();
        assert!(bad[0].replay().is_err());
    }

    #[test]
    fn date_format() {
        let d = today();
        assert_eq!(d.len(), 10);
        assert!(d.starts_with("20"));
    }
}
