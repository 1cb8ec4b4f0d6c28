//! GIB, the Korean record format (기보 파일): CP949/EUC-KR or UTF-8 text,
//! several games a file, each a header of tags (`[대회명 "…"]`,
//! `[초차림 "마상상마"]`, …) and numbered plies (`1. 79卒78 2. 12馬33`,
//! the pass `한수쉼`), with comments in `{}`.
//!
//! **Setups.** `초차림`/`한차림` (or `초포진`/`한포진`) name each side's
//! horse/elephant arrangement by four syllables. Cho's string is read from
//! Cho's left (file 1); Han's string is read **in the same board
//! direction, from Cho's left** (that is, from Han's right), as public GIB
//! readers do: see docs/records.md for the evidence. Only `마상마상` and
//! `상마상마` depend on it (the other two read the same both ways). A record
//! whose moves are illegal under that reading but legal under the other is
//! read the other way with [`RecordWarning::HanSetupReversed`].
//!
//! Reading never panics and never stops at a broken game: each game is a
//! `Result`, and a [`GameError`] names the game (number, players) and the
//! move.

use crate::board_tag::{board_text, parse_board, rearrangements, sides_swapped};
use crate::record::{
    play_text, setups_of, GameError, GameErrorKind, GameResult, MoveError, Ply, Record,
    RecordWarning,
};
use janggi_core::{EndReason, Game, KoreanMoveError, KoreanScript, Position, Rules, Setup};
use std::fmt;
use std::fmt::Write as _;

/// The text encoding a file was read in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextEncoding {
    /// UTF-8 (with or without a byte-order mark).
    Utf8,
    /// CP949 / EUC-KR (the Korean apps' encoding).
    Cp949,
}

/// Decodes a record file: UTF-8 when it is valid UTF-8 (or has a UTF-8
/// BOM), else CP949/EUC-KR (encoding_rs's `EUC_KR`, which is CP949;
/// malformed bytes become U+FFFD).
pub fn decode(bytes: &[u8]) -> (String, TextEncoding) {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(s) => (s.to_string(), TextEncoding::Utf8),
        Err(_) => {
            let (text, _, _) = encoding_rs::EUC_KR.decode(bytes);
            (text.into_owned(), TextEncoding::Cp949)
        }
    }
}

/// Encodes text as CP949 (characters CP949 lacks become `&#…;`).
pub fn encode_cp949(text: &str) -> Vec<u8> {
    encoding_rs::EUC_KR.encode(text).0.into_owned()
}

/// The games of a file, each read or failed on its own.
#[derive(Debug)]
pub struct GibFile {
    /// The encoding detected.
    pub encoding: TextEncoding,
    /// Every game, in file order.
    pub games: Vec<Result<Record, GameError>>,
}

/// A setup name: the four syllables (`마상상마`, `馬象象馬`, `MSSM`) in the
/// order written, or a traditional name of an arrangement as its owner sees
/// it (`원앙마`, `양귀마`, `왼상`, `오른상`, …).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SetupName {
    /// Four letters, left to right as written.
    Letters(Setup),
    /// Named from the owner's side.
    Named(Setup),
}

fn parse_setup_name(value: &str) -> Option<SetupName> {
    let v: String = value
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .trim_end_matches("차림")
        .to_string();
    let letters: String = v
        .chars()
        .map(|c| match c {
            '마' | '馬' | 'm' | 'M' | 'n' | 'N' | 'h' | 'H' => 'M',
            '상' | '象' | '相' | 's' | 'S' | 'e' | 'E' | 'b' | 'B' => 'S',
            other => other,
        })
        .collect();
    let by_letters = match letters.as_str() {
        "MSSM" => Some(Setup::Mssm),
        "SMMS" => Some(Setup::Smms),
        "SMSM" => Some(Setup::Smsm),
        "MSMS" => Some(Setup::Msms),
        _ => None,
    };
    if let Some(s) = by_letters {
        return Some(SetupName::Letters(s));
    }
    // 귀마 names both 상마상마 and 마상마상: ambiguous, not read.
    Some(SetupName::Named(match v.as_str() {
        "원앙마" | "안상" | "안상차림" => Setup::Mssm,
        "양귀마" | "바깥상" | "바깥상차림" | "겉상" => Setup::Smms,
        "왼상" | "왼상차림" | "좌상" => Setup::Smsm,
        "오른상" | "오른상차림" | "우상" => Setup::Msms,
        _ => return None,
    }))
}

/// The arrangement seen from the other side (left and right swapped).
fn mirrored(s: Setup) -> Setup {
    match s {
        Setup::Smsm => Setup::Msms,
        Setup::Msms => Setup::Smsm,
        other => other,
    }
}

/// The four syllables of `s` as the player sees it, left to right.
fn syllables(s: Setup) -> &'static str {
    match s {
        Setup::Mssm => "마상상마",
        Setup::Smms => "상마마상",
        Setup::Smsm => "상마상마",
        Setup::Msms => "마상마상",
    }
}

const CHO_SETUP_TAGS: [&str; 2] = ["초차림", "초포진"];
const HAN_SETUP_TAGS: [&str; 2] = ["한차림", "한포진"];
const COUNT_TAG: &str = "총수";
const RESULT_TAG: &str = "대국결과";
/// A position as a board, as some apps write handicap games (접장기):
/// `[판 "차마상사1사상마차/4장/1포5포/졸1졸1졸1졸1졸///兵1兵1兵1兵/1包5包/4將/車象馬士1士象馬車 한 접장기"]`.
pub const BOARD_TAG: &str = "판";

/// One game's raw parts before replay.
#[derive(Clone, Default)]
struct Raw {
    tags: Vec<(String, String)>,
    /// (ply number as written or counted, text, comment after it).
    moves: Vec<(usize, String, Option<String>)>,
    intro: Option<String>,
    error: Option<GameErrorKind>,
}

impl Raw {
    fn is_empty(&self) -> bool {
        self.tags.is_empty()
            && self.moves.is_empty()
            && self.intro.is_none()
            && self.error.is_none()
    }

    fn tag(&self, names: &[&str]) -> Option<(&str, &str)> {
        names.iter().find_map(|n| {
            self.tags
                .iter()
                .find(|(k, _)| k == n)
                .map(|(k, v)| (k.as_str(), v.as_str()))
        })
    }

    fn add_comment(&mut self, c: String) {
        let slot = match self.moves.last_mut() {
            Some(m) => &mut m.2,
            None => &mut self.intro,
        };
        crate::record::append_comment(slot, c);
    }
}

fn parse_tag_line(line: &str) -> Option<(String, String)> {
    let inner = line.trim().strip_prefix('[')?.strip_suffix(']')?.trim();
    let (name, rest) = inner.split_once(char::is_whitespace)?;
    let rest = rest.trim();
    let value = rest
        .strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .unwrap_or(rest);
    Some((name.to_string(), value.replace("\\\"", "\"")))
}

/// A character that is no part of a record: a control character (the
/// DOS end-of-file byte 0x1A, …) or a byte that did not decode (U+FFFD,
/// as stray 0xFF bytes do).
fn is_stray(c: char) -> bool {
    (c.is_control() && !c.is_whitespace()) || c == '\u{FFFD}'
}

/// Splits the text into games.
fn split_games(text: &str) -> Vec<Raw> {
    let mut games = Vec::new();
    let mut cur = Raw::default();
    let mut in_moves = false;
    let mut count = 0usize;
    let mut pending_number: Option<usize> = None;
    let mut i = 0;
    let b = text.as_bytes();
    let at_line_start = |i: usize| {
        let before = text[..i].trim_end_matches(|c: char| c == ' ' || c == '\t' || is_stray(c));
        before.ends_with('\n') || before.trim_matches(is_stray).trim().is_empty()
    };
    while i < b.len() {
        let c = b[i];
        if c == b'[' && at_line_start(i) {
            // A new game: after moves, or when the tag is already in the
            // game (a forfeit entry has tags and no moves).
            let repeated =
                parse_tag_line(&text[i..text[i..].find('\n').map_or(text.len(), |e| i + e)])
                    .is_some_and(|(k, _)| cur.tags.iter().any(|(t, _)| *t == k));
            if (in_moves || repeated) && !cur.is_empty() {
                games.push(std::mem::take(&mut cur));
                in_moves = false;
                count = 0;
            }
            let end = text[i..].find('\n').map_or(text.len(), |e| i + e);
            let line = &text[i..end];
            match parse_tag_line(line) {
                Some(t) => cur.tags.push(t),
                None => {
                    if cur.error.is_none() {
                        cur.error = Some(GameErrorKind::BadTag(line.trim().to_string()));
                    }
                }
            }
            i = end;
            continue;
        }
        if c == b'{' {
            match text[i..].find('}') {
                Some(close) => {
                    let body = text[i + 1..i + close].trim().to_string();
                    cur.add_comment(body);
                    i += close + 1;
                }
                None => {
                    if cur.error.is_none() {
                        cur.error = Some(GameErrorKind::UnterminatedComment);
                    }
                    i = b.len();
                }
            }
            continue;
        }
        if c.is_ascii_whitespace() || c.is_ascii_control() {
            i += 1;
            continue;
        }
        if let Some(stray) = text[i..].chars().next().filter(|&c| is_stray(c)) {
            i += stray.len_utf8();
            continue;
        }
        // `<12>`: the seconds a move took, as some apps write after it.
        if c == b'<' {
            if let Some(close) = text[i..].find('>').filter(|&e| {
                e > 1
                    && text[i + 1..i + e]
                        .bytes()
                        .all(|b| b.is_ascii_digit() || b == b':')
            }) {
                i += close + 1;
                continue;
            }
        }
        // A token: up to whitespace, a control byte, `{` or the end.
        let start = i;
        while i < b.len() && !b[i].is_ascii_whitespace() && !b[i].is_ascii_control() && b[i] != b'{'
        {
            i += 1;
        }
        // Stay on a char boundary (the bytes stopped at are ASCII).
        let token = text[start..i].trim_matches(is_stray);
        if token.is_empty() {
            continue;
        }
        in_moves = true;
        let mut tok = token;
        // `12.` or glued `12.79卒78`.
        let digits = tok.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 && tok.as_bytes().get(digits) == Some(&b'.') {
            pending_number = tok[..digits].parse().ok();
            tok = tok[digits..].trim_start_matches('.');
            if tok.is_empty() {
                continue;
            }
        }
        match tok {
            "장군" | "멍군" | "+" | "!" | "?" => continue,
            "쉼" if cur.moves.last().is_some_and(|m| m.1 == "한수") => {
                if let Some(m) = cur.moves.last_mut() {
                    m.1 = "한수쉼".to_string();
                }
                continue;
            }
            _ => {}
        }
        count += 1;
        let number = pending_number.take().unwrap_or(count);
        cur.moves.push((number, tok.to_string(), None));
    }
    if !cur.is_empty() {
        games.push(cur);
    }
    games
}

/// The result a `대국결과` text says: the side named first won (`초 완승`,
/// `한 시간승`), or lost when the text says a loss (`한기권패`,
/// `한 접속 끊김 패`); `무승부` is a draw.
fn result_of(text: &str) -> GameResult {
    let t = text.trim();
    let lost = t.contains('패') && !t.contains('승');
    let (cho, han) = if lost {
        (GameResult::HanWins, GameResult::ChoWins)
    } else {
        (GameResult::ChoWins, GameResult::HanWins)
    };
    if t.starts_with("무효") {
        // A void game (무효 대국): no result.
        GameResult::Unknown
    } else if t.starts_with('무') || t.contains("무승부") || t.contains("draw") {
        GameResult::Draw
    } else if t.starts_with('초') || t.starts_with('楚') {
        cho
    } else if t.starts_with('한') || t.starts_with('漢') {
        han
    } else if t.contains('무') {
        GameResult::Draw
    } else {
        GameResult::Unknown
    }
}

/// Replays `raw`'s moves from `start`; the error is (index of the move,
/// its error).
fn replay(
    raw: &Raw,
    start: &Position,
    rules: Rules,
) -> Result<Vec<Ply>, (usize, crate::record::MoveError)> {
    let mut game = Game::new(start.clone(), rules);
    let mut plies = Vec::with_capacity(raw.moves.len());
    for (i, (_, text, comment)) in raw.moves.iter().enumerate() {
        let mv = play_text(&mut game, text).map_err(|e| (i, e))?;
        plies.push(Ply {
            mv,
            comment: comment.clone(),
        });
    }
    Ok(plies)
}

fn build(index: usize, raw: &Raw, rules: Rules) -> Result<Record, GameError> {
    let err = |raw: &Raw, kind| GameError {
        index,
        cho: raw.tag(&["초대국자"]).map(|t| t.1.to_string()),
        han: raw.tag(&["한대국자"]).map(|t| t.1.to_string()),
        kind,
    };
    if let Some(k) = raw.error.clone() {
        return Err(err(raw, k));
    }
    let mut warnings = Vec::new();
    let setup = |names: &[&str]| -> Result<Option<(SetupName, String)>, GameErrorKind> {
        match raw.tag(names) {
            None => Ok(None),
            Some((tag, value)) => match parse_setup_name(value) {
                Some(s) => Ok(Some((s, value.to_string()))),
                None => Err(GameErrorKind::UnknownSetup {
                    tag: tag.to_string(),
                    value: value.to_string(),
                }),
            },
        }
    };
    let bad_move = |raw: &Raw, i: usize, e: crate::record::MoveError| {
        let (number, text, _) = &raw.moves[i];
        err(
            raw,
            GameErrorKind::BadMove {
                number: *number,
                text: text.clone(),
                error: Box::new(e),
            },
        )
    };
    let board = raw.tag(&[BOARD_TAG]).map(|t| t.1.to_string());
    let (start, plies) = if let Some(b) = board {
        let start = parse_board(&b).map_err(|e| {
            err(
                raw,
                GameErrorKind::BadFen(format!("[{BOARD_TAG} \"{b}\"]: {e}")),
            )
        })?;
        // The apps write the board before the players choose where their
        // horses and elephants stand: when the moves do not replay, the
        // other arrangements of each wing are tried.
        match replay(raw, &start, rules) {
            Ok(p) => (start, p),
            Err((i, e)) => {
                let found = rearrangements(&start)
                    .into_iter()
                    .find_map(|pos| replay(raw, &pos, rules).ok().map(|p| (pos, p)));
                // Some apps (사이버장기) write each side's pieces in the
                // other side's script: the handicapped side's set stands
                // at the other end of the board.
                let swapped = || {
                    let s = sides_swapped(&start)?;
                    std::iter::once(s.clone())
                        .chain(rearrangements(&s))
                        .find_map(|pos| replay(raw, &pos, rules).ok().map(|p| (pos, p)))
                };
                match found {
                    Some(f) => {
                        warnings.push(RecordWarning::BoardRearranged);
                        f
                    }
                    None => match swapped() {
                        Some(f) => {
                            warnings.push(RecordWarning::BoardSidesSwapped);
                            f
                        }
                        None => return Err(bad_move(raw, i, e)),
                    },
                }
            }
        }
    } else {
        let cho = setup(&CHO_SETUP_TAGS).map_err(|k| err(raw, k))?;
        let han = setup(&HAN_SETUP_TAGS).map_err(|k| err(raw, k))?;
        if cho.is_none() || han.is_none() {
            warnings.push(RecordWarning::MissingSetup);
        }
        let cho_setup = match cho {
            Some((SetupName::Letters(s) | SetupName::Named(s), _)) => s,
            None => Setup::Mssm,
        };
        // Han's letters are written from Cho's left: mirrored for Han's own.
        let (han_setup, han_alt) = match &han {
            Some((SetupName::Letters(s), _)) => (mirrored(*s), Some(*s)),
            Some((SetupName::Named(s), _)) => (*s, None),
            None => (Setup::Mssm, None),
        };
        let start = Position::from_setups(han_setup, cho_setup);
        // The documented reading first, then Han's string read from Han's own
        // left; and when the first move is Han's, the same with Han to move
        // (some apps' records start with Han's move).
        let mut tries = vec![(han_setup, false)];
        if let Some(a) = han_alt.filter(|&a| a != han_setup) {
            tries.push((a, false));
        }
        let first = match replay(raw, &start, rules) {
            Ok(p) => Ok((start, p, han_setup, false)),
            Err((i, e)) => {
                let han_first = i == 0
                    && matches!(
                        &e,
                        crate::record::MoveError::Korean(
                            janggi_core::KoreanMoveError::NotYourPiece(_)
                        )
                    );
                if han_first {
                    tries.extend(tries.clone().into_iter().map(|(s, _)| (s, true)));
                }
                tries
                    .iter()
                    .skip(1)
                    .find_map(|&(s, han_moves)| {
                        let pos = Position::from_setups(s, cho_setup);
                        let pos = if han_moves { han_to_move(&pos)? } else { pos };
                        replay(raw, &pos, rules)
                            .ok()
                            .map(|p| (pos, p, s, han_moves))
                    })
                    .ok_or((i, e))
            }
        };
        match first {
            Ok((pos, p, s, han_moves)) => {
                if s != han_setup {
                    warnings.push(RecordWarning::HanSetupReversed {
                        written: han.as_ref().map(|h| h.1.clone()).unwrap_or_default(),
                        used: s,
                    });
                }
                if han_moves {
                    warnings.push(RecordWarning::HanMovesFirst);
                }
                (pos, p)
            }
            Err((i, e)) => return Err(bad_move(raw, i, e)),
        }
    };
    if let Some((_, n)) = raw.tag(&[COUNT_TAG]) {
        if let Ok(written) = n.trim().parse::<u32>() {
            if written as usize != plies.len() {
                warnings.push(RecordWarning::MoveCountMismatch {
                    written,
                    read: plies.len() as u32,
                });
            }
        }
    }
    let result = raw
        .tag(&[RESULT_TAG])
        .map_or(GameResult::Unknown, |(_, v)| result_of(v));
    Ok(Record {
        setups: setups_of(&start),
        start,
        rules,
        intro: raw.intro.clone(),
        plies,
        result,
        warnings,
        tags: raw.tags.clone(),
    })
}

/// Reads every game of a GIB file (bytes in CP949 or UTF-8) under the
/// rules the record was played by: KJF's (`Rules::default()`, as Korean
/// tournaments play), else, for a game that plays on after bikjang or
/// repeats a position a 4th time, the apps' rules that allow it (with
/// [`RecordWarning::OtherRules`]).
pub fn read_gib(bytes: &[u8]) -> GibFile {
    read_gib_choosing(bytes, None)
}

/// [`read_gib`] under exactly `rules`.
pub fn read_gib_with(bytes: &[u8], rules: Rules) -> GibFile {
    read_gib_choosing(bytes, Some(rules))
}

/// [`read_gib`] (`None`: the rules from the record) or [`read_gib_with`].
pub fn read_gib_choosing(bytes: &[u8], rules: Option<Rules>) -> GibFile {
    let (text, encoding) = decode(bytes);
    GibFile {
        encoding,
        games: read_games(&text, rules),
    }
}

/// `pos` with Han to move.
fn han_to_move(pos: &Position) -> Option<Position> {
    let fen = pos.fen();
    let mut fields: Vec<&str> = fen.split(' ').collect();
    *fields.get_mut(1)? = "b";
    Position::from_fen(&fields.join(" ")).ok()
}

/// Reads every game of GIB text under exactly `rules`.
pub fn read_gib_text(text: &str, rules: Rules) -> Vec<Result<Record, GameError>> {
    read_games(text, Some(rules))
}

/// The rules tried, in order, for a game that the default rules end
/// before its record does (bikjang, a 4th repetition): Fairy-Stockfish's
/// `janggimodern` (Kakao's: bikjang off), then the apps' as their records
/// show them: bikjang off and repetitions allowed.
pub fn app_rules() -> Vec<Rules> {
    Rules::from_variant("janggimodern")
        .into_iter()
        .chain([crate::record::apps_rules()])
        .collect()
}

/// The move error of a game error, if it is one.
fn move_error(e: &GameError) -> Option<(usize, &MoveError)> {
    match &e.kind {
        GameErrorKind::BadMove { number, error, .. } => Some((*number, error.as_ref())),
        _ => None,
    }
}

/// Reads one game: under `rules` when given, else KJF's and then the
/// apps' rules; the last game of a file cut off in mid-game keeps its
/// moves up to the cut.
fn read_game(
    index: usize,
    raw: &Raw,
    rules: Option<Rules>,
    last: bool,
) -> Result<Record, GameError> {
    let first = build(index, raw, rules.unwrap_or_default());
    let Err(e) = first else {
        return first;
    };
    if rules.is_none() {
        if let Some((_, why)) = move_error(&e) {
            let ended = matches!(why, MoveError::Repetition { .. })
                || matches!(why, MoveError::GameOver { reason, .. } if matches!(reason,
                    EndReason::ScoreBikjang | EndReason::DrawBikjang | EndReason::ScoreRepetition
                    | EndReason::DrawRepetition | EndReason::RepetitionLoss));
            if ended {
                let found = app_rules()
                    .into_iter()
                    .find_map(|r| build(index, raw, r).ok());
                if let Some(mut rec) = found {
                    rec.warnings.push(RecordWarning::OtherRules {
                        used: rec.rules,
                        because: Box::new(why.clone()),
                    });
                    return Ok(rec);
                }
            }
        }
    }
    if last {
        if let Some(cut) = truncated(raw, &e) {
            if let Ok(mut rec) = read_game(index, &cut, rules, false) {
                let (at, text) = raw
                    .moves
                    .last()
                    .map(|m| (m.0, m.1.clone()))
                    .unwrap_or_default();
                rec.result = GameResult::Unknown;
                rec.warnings.push(RecordWarning::Incomplete { at, text });
                return Ok(rec);
            }
        }
    }
    Err(e)
}

/// The game without its last move when the record stops in mid-move
/// (the file was cut off there): the last move's text is not a move, or
/// a comment is not closed.
fn truncated(raw: &Raw, e: &GameError) -> Option<Raw> {
    let mut cut = raw.clone();
    if matches!(e.kind, GameErrorKind::UnterminatedComment) {
        cut.error = None;
        return Some(cut);
    }
    let (number, why) = move_error(e)?;
    let broken_text = matches!(
        why,
        MoveError::Korean(KoreanMoveError::Syntax(_)) | MoveError::San(_) | MoveError::Uci(_)
    );
    if broken_text && raw.moves.last().is_some_and(|m| m.0 == number) {
        cut.moves.pop();
        // Text with neither a tag nor a move before the broken one is no
        // record cut short: it is not a record at all.
        if cut.tags.is_empty() && cut.moves.is_empty() {
            return None;
        }
        return Some(cut);
    }
    None
}

/// Reads every game of GIB text (`rules`: exactly these, else chosen per
/// game, see [`read_gib`]).
fn read_games(text: &str, rules: Option<Rules>) -> Vec<Result<Record, GameError>> {
    // Some apps' files have stray bytes (0xFF, decoded as U+FFFD) before a
    // game's first tag: dropped at the start of a line.
    let cleaned;
    let text = if text.contains('\u{FFFD}') {
        cleaned = text
            .split_inclusive('\n')
            .map(|l| l.trim_start_matches('\u{FFFD}'))
            .collect::<String>();
        cleaned.as_str()
    } else {
        text
    };
    let raws = split_games(text);
    let n = raws.len();
    raws.iter()
        .enumerate()
        .map(|(i, raw)| read_game(i + 1, raw, rules, i + 1 == n))
        .collect()
}

/// A record GIB cannot hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GibWriteError {
    /// The start is not one of the 16 setup positions (GIB has no FEN).
    NotASetupStart(String),
}

impl fmt::Display for GibWriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GibWriteError::NotASetupStart(fen) => {
                write!(f, "GIB needs a standard setup start, not {fen}")
            }
        }
    }
}

impl std::error::Error for GibWriteError {}

fn comment_safe(s: &str) -> String {
    s.replace('}', ")").replace('{', "(")
}

/// The result as `대국결과` writes it.
fn result_text(r: GameResult) -> Option<&'static str> {
    match r {
        GameResult::ChoWins => Some("초 승"),
        GameResult::HanWins => Some("한 승"),
        GameResult::Draw => Some("무승부"),
        GameResult::Unknown => None,
    }
}

/// Writes one game as GIB text (UTF-8; [`encode_cp949`] for the Korean
/// apps). Tags are kept in order; PGN names are translated
/// ([`crate::tags`]); the setup tags, `총수` and `대국결과` are written
/// from the record itself.
///
/// A start that is not one of the 16 setups is written as a `[판]` board
/// (Han's pieces in Hangul, Cho's in Hanja, then `한`/`초` for the side
/// to move), as the apps write handicap games.
///
/// # Errors
/// None since any start can be written as a board; the `Result` (and
/// [`GibWriteError`]) are kept for the callers.
pub fn write_gib(rec: &Record) -> Result<String, GibWriteError> {
    let setups = setups_of(&rec.start);
    let mut tags: Vec<(String, String)> = Vec::new();
    for (k, v) in &rec.tags {
        let Some(name) = crate::tags::to_gib(k) else {
            continue;
        };
        // PGN's placeholder for an unknown value is not copied.
        if name != k && v == "?" {
            continue;
        }
        tags.push((name.to_string(), v.clone()));
    }
    let set = |tags: &mut Vec<(String, String)>, names: &[&str], value: String| match tags
        .iter_mut()
        .find(|(k, _)| names.contains(&k.as_str()))
    {
        Some(t) => t.1 = value,
        None => tags.push((names[0].to_string(), value)),
    };
    tags.retain(|(k, _)| k != BOARD_TAG);
    match setups {
        Some((han, cho)) => {
            // Cho's letters from Cho's left; Han's from Cho's left too
            // (mirrored).
            let cho_text = keep_if_same(&tags, &CHO_SETUP_TAGS, cho, false);
            let han_text = keep_if_same(&tags, &HAN_SETUP_TAGS, han, true);
            set(&mut tags, &CHO_SETUP_TAGS, cho_text);
            set(&mut tags, &HAN_SETUP_TAGS, han_text);
        }
        // Any other start: the board, as the apps write handicap games.
        None => {
            tags.retain(|(k, _)| {
                !CHO_SETUP_TAGS.contains(&k.as_str()) && !HAN_SETUP_TAGS.contains(&k.as_str())
            });
            tags.push((BOARD_TAG.to_string(), board_text(&rec.start)));
        }
    }
    set(&mut tags, &[COUNT_TAG], rec.plies.len().to_string());
    if let Some(r) = result_text(rec.result) {
        let same = tags
            .iter()
            .find(|(k, _)| k == RESULT_TAG)
            .is_some_and(|(_, v)| result_of(v) == rec.result);
        if !same {
            set(&mut tags, &[RESULT_TAG], r.to_string());
        }
    }
    let mut out = String::new();
    for (k, v) in &tags {
        let _ = writeln!(out, "[{k} \"{}\"]", v.replace('"', "\\\""));
    }
    out.push('\n');
    if let Some(c) = &rec.intro {
        let _ = writeln!(out, "{{{}}}", comment_safe(c));
    }
    let mut game = Game::new(rec.start.clone(), rec.rules);
    let mut line = String::new();
    for (i, p) in rec.plies.iter().enumerate() {
        let text = game.position().korean(p.mv, KoreanScript::Hanja);
        let _ = write!(line, "{}. {} ", i + 1, text);
        if let Some(c) = &p.comment {
            let _ = write!(line, "{{{}}} ", comment_safe(c));
        }
        game.play_unchecked(p.mv);
        if (i + 1) % 10 == 0 {
            out.push_str(line.trim_end());
            out.push('\n');
            line.clear();
        }
    }
    if !line.is_empty() {
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.push('\n');
    Ok(out)
}

/// The setup text to write: the record's own if it means `setup`, else the
/// four syllables (mirrored for Han).
fn keep_if_same(tags: &[(String, String)], names: &[&str], setup: Setup, han: bool) -> String {
    let written = tags
        .iter()
        .find(|(k, _)| names.contains(&k.as_str()))
        .map(|(_, v)| v.clone());
    if let Some(w) = written {
        let means = match parse_setup_name(&w) {
            Some(SetupName::Letters(s)) if han => Some(mirrored(s)),
            Some(SetupName::Letters(s) | SetupName::Named(s)) => Some(s),
            None => None,
        };
        if means == Some(setup) {
            return w;
        }
    }
    syllables(if han { mirrored(setup) } else { setup }).to_string()
}

/// Writes several games, one after another.
///
/// # Errors
/// The first game GIB cannot hold.
pub fn write_gib_file(recs: &[Record]) -> Result<String, GibWriteError> {
    let mut out = String::new();
    for r in recs {
        out.push_str(&write_gib(r)?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn setup_names() {
        assert_eq!(
            parse_setup_name("마상상마"),
            Some(SetupName::Letters(Setup::Mssm))
        );
        assert_eq!(
            parse_setup_name("馬象馬象"),
            Some(SetupName::Letters(Setup::Msms))
        );
        assert_eq!(
            parse_setup_name("원앙마"),
            Some(SetupName::Named(Setup::Mssm))
        );
        assert_eq!(
            parse_setup_name("양귀마"),
            Some(SetupName::Named(Setup::Smms))
        );
        assert_eq!(parse_setup_name("귀마"), None);
        assert_eq!(parse_setup_name("마마상상"), None);
    }

    #[test]
    fn han_letters_are_read_from_chos_left() {
        // Han 마상마상 written from Cho's left: horses on b10 and g10.
        let text = "[초차림 \"마상상마\"]\n[한차림 \"마상마상\"]\n\n1. 02馬83\n";
        let games = read_gib_text(text, Rules::default());
        let rec = games[0].as_ref().unwrap();
        let fen = rec.start.fen();
        assert!(fen.starts_with("rnba1anbr/"), "{fen}");
        assert_eq!(rec.setups, Some((Setup::Smsm, Setup::Mssm)));
        assert!(rec.warnings.is_empty());
    }

    #[test]
    fn missing_setup_tags_assume_the_standard_start() {
        let games = read_gib_text("[대회명 \"x\"]\n\n1. 02馬83 2. 12馬33\n", Rules::default());
        let rec = games[0].as_ref().unwrap();
        assert_eq!(rec.warnings, [RecordWarning::MissingSetup]);
        assert_eq!(rec.start.fen(), Position::startpos().fen());
        assert_eq!(rec.plies.len(), 2);
        // 총수 that disagrees is a warning, not an error.
        let games = read_gib_text(
            "[초차림 \"마상상마\"]\n[한차림 \"마상상마\"]\n[총수 \"5\"]\n\n1. 02馬83\n",
            Rules::default(),
        );
        assert_eq!(
            games[0].as_ref().unwrap().warnings,
            [RecordWarning::MoveCountMismatch {
                written: 5,
                read: 1
            }]
        );
    }

    #[test]
    fn results_as_the_apps_write_them() {
        use GameResult::*;
        for (text, result) in [
            ("초 완승", ChoWins),
            ("한 기권승", HanWins),
            ("漢의 기권승", HanWins),
            ("楚 불계승", ChoWins),
            ("한승(외통수)", HanWins),
            ("초 1.5점 승(정선)", ChoWins),
            ("한기권패", ChoWins),
            ("한시간패", ChoWins),
            ("한 접속 끊김 패", ChoWins),
            ("초 접속끊김패", HanWins),
            ("무승부(빅장)", Draw),
            ("무승부", Draw),
            ("무효 대국", Unknown),
            ("미상", Unknown),
            ("통신장애중단", Unknown),
        ] {
            assert_eq!(result_of(text), result, "{text}");
        }
    }

    #[test]
    fn encodings_are_detected() {
        let text = "[대회명 \"테스트\"]\n\n1. 79卒78\n";
        let (t, e) = decode(&encode_cp949(text));
        assert_eq!((t.as_str(), e), (text, TextEncoding::Cp949));
        let (t, e) = decode(text.as_bytes());
        assert_eq!((t.as_str(), e), (text, TextEncoding::Utf8));
        let mut bom = b"\xEF\xBB\xBF".to_vec();
        bom.extend_from_slice(text.as_bytes());
        assert_eq!(decode(&bom), (text.to_string(), TextEncoding::Utf8));
    }
}
