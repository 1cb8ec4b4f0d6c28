//! PGN for Janggi as the ecosystem writes it.
//!
//! Read: `[Variant "Janggi"]` (also `janggicasual`, `janggimodern`,
//! `janggitraditional`, `janggikjf`: the matching
//! [`Rules::from_variant`]), the match runner's `[RuleSet]` and
//! `[Rules "bikjang=… …"]` (which win over the variant), `[FEN]`/`[SetUp]`,
//! moves in Fairy-Stockfish's SAN (`Hc3`, `Pab4`, as pychess exports them),
//! in UCI coordinates (`b1c3`, as the match runner writes them) or in Korean
//! notation — detected per move — comments `{}` (kept), `;` comments,
//! variations `( … )` and NAGs `$1` (skipped), `[Result]` and the result
//! token.
//!
//! Written: the seven-tag roster (Cho is White), `[Variant "Janggi"]`,
//! `[FEN]` and `[SetUp "1"]`, `[Rules]` (the full rule set, so the game
//! replays under the rules it was checked with), the record's other tags
//! (GIB names translated, [`crate::tags`]), moves in SAN (or UCI with
//! `[Notation "UCI"]`), comments.

use crate::record::{
    play_text, setups_of, GameError, GameErrorKind, GameResult, Ply, Record, RecordWarning,
};
use janggi_core::{Color, Game, Notation, Position, Rules};
use std::fmt::Write as _;

/// Move notation for writing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum MoveStyle {
    /// Fairy-Stockfish SAN (`Hc3`), as pychess reads and writes it.
    #[default]
    San,
    /// UCI coordinates (`b1c3`), as the match runner writes them.
    Uci,
}

/// One game of a PGN text as written, before its moves are replayed:
/// what [`split_pgn`] gives for readers that replay the moves themselves
/// (the match runner's).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnText {
    /// Tags in file order.
    pub tags: Vec<(String, String)>,
    /// Move texts (move numbers, NAGs and variations removed) with the
    /// comment after each.
    pub moves: Vec<(String, Option<String>)>,
    /// The comment before the first move.
    pub intro: Option<String>,
    /// The result token, when the movetext ends with one.
    pub result: Option<String>,
    /// A syntax error in this game (a bad tag line, an unterminated
    /// comment).
    pub error: Option<GameErrorKind>,
}

/// Splits a PGN text into games without replaying their moves.
pub fn split_pgn(text: &str) -> Vec<PgnText> {
    split_games(text)
        .into_iter()
        .map(|r| PgnText {
            tags: r.tags,
            moves: r.moves,
            intro: r.intro,
            result: r.result,
            error: r.error,
        })
        .collect()
}

#[derive(Default)]
struct Raw {
    tags: Vec<(String, String)>,
    moves: Vec<(String, Option<String>)>,
    intro: Option<String>,
    result: Option<String>,
    error: Option<GameErrorKind>,
}

impl Raw {
    fn is_empty(&self) -> bool {
        self.tags.is_empty()
            && self.moves.is_empty()
            && self.intro.is_none()
            && self.error.is_none()
    }
    fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
    fn add_comment(&mut self, c: String) {
        let slot = match self.moves.last_mut() {
            Some(m) => &mut m.1,
            None => &mut self.intro,
        };
        crate::record::append_comment(slot, c);
    }
}

fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.trim().strip_prefix('[')?.strip_suffix(']')?.trim();
    let (name, rest) = inner.split_once(char::is_whitespace)?;
    let body = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::new();
    let mut esc = false;
    for ch in body.chars() {
        if esc {
            value.push(ch);
            esc = false;
        } else if ch == '\\' {
            esc = true;
        } else {
            value.push(ch);
        }
    }
    Some((name.to_string(), value))
}

fn is_result(t: &str) -> bool {
    GameResult::from_pgn(t).is_some()
}

fn split_games(text: &str) -> Vec<Raw> {
    let mut games = Vec::new();
    let mut cur = Raw::default();
    let mut in_moves = false;
    let mut depth = 0usize;
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match c {
            b'[' if depth == 0 => {
                if in_moves && !cur.is_empty() {
                    games.push(std::mem::take(&mut cur));
                    in_moves = false;
                }
                let end = text[i..].find('\n').map_or(text.len(), |e| i + e);
                let line = &text[i..end];
                match parse_tag(line) {
                    Some(t) => cur.tags.push(t),
                    None => {
                        if cur.error.is_none() {
                            cur.error = Some(GameErrorKind::BadTag(line.trim().to_string()));
                        }
                    }
                }
                i = end;
            }
            b'{' => match text[i..].find('}') {
                Some(close) => {
                    if depth == 0 {
                        cur.add_comment(text[i + 1..i + close].trim().to_string());
                    }
                    i += close + 1;
                }
                None => {
                    if cur.error.is_none() {
                        cur.error = Some(GameErrorKind::UnterminatedComment);
                    }
                    i = b.len();
                }
            },
            b';' => {
                i = text[i..].find('\n').map_or(b.len(), |e| i + e);
            }
            b'(' => {
                depth += 1;
                i += 1;
            }
            b')' => {
                depth = depth.saturating_sub(1);
                i += 1;
            }
            c if c.is_ascii_whitespace() => i += 1,
            _ => {
                let start = i;
                while i < b.len()
                    && !b[i].is_ascii_whitespace()
                    && !matches!(b[i], b'{' | b'(' | b')' | b';')
                {
                    i += 1;
                }
                if depth > 0 {
                    continue;
                }
                in_moves = true;
                let token = &text[start..i];
                if is_result(token) {
                    cur.result = Some(token.to_string());
                    games.push(std::mem::take(&mut cur));
                    in_moves = false;
                    continue;
                }
                if token.starts_with('$') {
                    continue;
                }
                // `12.`, `12...` or glued `12.Hc3`.
                let digits = token.bytes().take_while(u8::is_ascii_digit).count();
                let mv = if digits > 0 && token.as_bytes().get(digits) == Some(&b'.') {
                    token[digits..].trim_start_matches('.')
                } else {
                    token
                };
                if !mv.is_empty() {
                    cur.moves.push((mv.to_string(), None));
                }
            }
        }
    }
    if !cur.is_empty() {
        games.push(cur);
    }
    games
}

/// The rules of a PGN game: `[RuleSet]`/`[Rules]` (the match runner's),
/// else `[Variant]`, else Fairy-Stockfish's `janggi`.
fn rules_of(raw: &Raw) -> Result<Rules, GameErrorKind> {
    let bad = |e: String| GameErrorKind::BadRules(e);
    let mut rules = match (raw.tag("RuleSet"), raw.tag("Variant")) {
        (Some(v), _) | (None, Some(v)) => Rules::from_variant(v).map_err(|e| bad(e.to_string()))?,
        (None, None) => Rules::from_variant("janggi").map_err(|e| bad(e.to_string()))?,
    };
    if let Some(list) = raw.tag("Rules") {
        crate::rules_arg::apply_options(&mut rules, list).map_err(|e| bad(e.to_string()))?;
    }
    Ok(rules)
}

fn build(index: usize, raw: Raw, rules: Option<Rules>) -> Result<Record, GameError> {
    let err = |raw: &Raw, kind| GameError {
        index,
        cho: raw.tag("White").map(str::to_string),
        han: raw.tag("Black").map(str::to_string),
        kind,
    };
    if let Some(k) = raw.error.clone() {
        return Err(err(&raw, k));
    }
    let rules = match rules {
        Some(r) => r,
        None => rules_of(&raw).map_err(|k| err(&raw, k))?,
    };
    let start = match raw.tag("FEN") {
        Some(f) => Position::from_fen(f)
            .map_err(|e| err(&raw, GameErrorKind::BadFen(format!("{f}: {e}"))))?,
        None => Position::startpos(),
    };
    let mut game = Game::new(start.clone(), rules);
    // Move numbers: Cho's moves are numbered, from the FEN's number.
    let mut number = start.fullmove_number().max(1) as usize;
    let mut side = start.side_to_move();
    let mut plies = Vec::with_capacity(raw.moves.len());
    for (text, comment) in &raw.moves {
        let mv = play_text(&mut game, text).map_err(|e| {
            err(
                &raw,
                GameErrorKind::BadMove {
                    number,
                    text: text.clone(),
                    error: Box::new(e),
                },
            )
        })?;
        plies.push(Ply {
            mv,
            comment: comment.clone(),
        });
        if side == Color::Han {
            number += 1;
        }
        side = !side;
    }
    let result = raw
        .tag("Result")
        .or(raw.result.as_deref())
        .and_then(GameResult::from_pgn)
        .unwrap_or_default();
    let mut warnings = Vec::new();
    if let Some(Ok(written)) = raw.tag("PlyCount").map(|n| n.trim().parse::<u32>()) {
        if written as usize != plies.len() {
            warnings.push(RecordWarning::MoveCountMismatch {
                written,
                read: plies.len() as u32,
            });
        }
    }
    Ok(Record {
        setups: setups_of(&start),
        start,
        rules,
        intro: raw.intro,
        plies,
        result,
        warnings,
        tags: raw.tags,
    })
}

/// Reads every game of a PGN text; each game is read or fails on its own.
pub fn read_pgn(text: &str) -> Vec<Result<Record, GameError>> {
    read_pgn_with(text, None)
}

/// [`read_pgn`], under exactly `rules` when given (else the tags').
pub fn read_pgn_with(text: &str, rules: Option<Rules>) -> Vec<Result<Record, GameError>> {
    split_games(text)
        .into_iter()
        .enumerate()
        .map(|(i, raw)| build(i + 1, raw, rules))
        .collect()
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

fn comment_safe(s: &str) -> String {
    s.replace('}', ")").replace('{', "(")
}

const LINE_WIDTH: usize = 79;

/// Writes one game as PGN (ending with a blank line).
pub fn write_pgn(rec: &Record, style: MoveStyle) -> String {
    write_pgn_with_ending(rec, style, None)
}

/// [`write_pgn`] with a comment after the last move, before the result
/// (the match runner's `{Han wins by resignation: 한 기권승}`).
pub fn write_pgn_with_ending(rec: &Record, style: MoveStyle, ending: Option<&str>) -> String {
    let mut tags: Vec<(String, String)> = Vec::new();
    for (k, v) in &rec.tags {
        if let Some(name) = crate::tags::to_pgn(k) {
            if !tags.iter().any(|(t, _)| t == name) {
                tags.push((name.to_string(), v.clone()));
            }
        }
    }
    let mut out = String::new();
    let roster = ["Event", "Site", "Date", "Round", "White", "Black"];
    for name in roster {
        let v = tags
            .iter()
            .find(|(k, _)| k == name)
            .map_or("?", |(_, v)| v.as_str());
        let _ = writeln!(out, "[{name} \"{}\"]", escape(v));
    }
    let _ = writeln!(out, "[Result \"{}\"]", rec.result.pgn());
    let _ = writeln!(out, "[Variant \"Janggi\"]");
    let _ = writeln!(out, "[FEN \"{}\"]", rec.start.fen());
    let _ = writeln!(out, "[SetUp \"1\"]");
    let _ = writeln!(out, "[Rules \"{}\"]", rec.rules);
    if style == MoveStyle::Uci {
        let _ = writeln!(out, "[Notation \"UCI\"]");
    }
    let _ = writeln!(out, "[PlyCount \"{}\"]", rec.plies.len());
    for (k, v) in &tags {
        if !roster.contains(&k.as_str()) {
            let _ = writeln!(out, "[{k} \"{}\"]", escape(v));
        }
    }
    out.push('\n');

    let mut tokens = Vec::new();
    if let Some(c) = &rec.intro {
        tokens.push(format!("{{{}}}", comment_safe(c)));
    }
    let mut number = rec.start.fullmove_number().max(1);
    let mut side = rec.start.side_to_move();
    let mut game = Game::new(rec.start.clone(), rec.rules);
    for (i, p) in rec.plies.iter().enumerate() {
        if side == Color::Cho {
            tokens.push(format!("{number}."));
        } else if i == 0 {
            tokens.push(format!("{number}..."));
        }
        let pos = game.position();
        tokens.push(match style {
            MoveStyle::San => crate::san::write_san_in(pos, p.mv, game.model()),
            MoveStyle::Uci => pos.move_text(p.mv, Notation::Uci),
        });
        if let Some(c) = &p.comment {
            tokens.push(format!("{{{}}}", comment_safe(c)));
        }
        game.play_unchecked(p.mv);
        if side == Color::Han {
            number += 1;
        }
        side = !side;
    }
    if let Some(c) = ending {
        tokens.push(format!("{{{}}}", comment_safe(c)));
    }
    tokens.push(rec.result.pgn().to_string());
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.chars().count() + 1 + t.chars().count() > LINE_WIDTH {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&t);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

/// Writes several games.
pub fn write_pgn_file(recs: &[Record], style: MoveStyle) -> String {
    recs.iter().map(|r| write_pgn(r, style)).collect()
}
