//! The format-neutral game record both readers produce and both writers
//! take, and the typed errors and warnings of reading.

use janggi_core::{
    piece_name, BikjangRule, Color, EndReason, Game, IllegalMove, KoreanMoveError, KoreanScript,
    LegalityModel, Move, Notation, PieceKind, Position, RepetitionRule, Rules, Setup,
};
use std::fmt;

/// How the game ended, as far as the record says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum GameResult {
    /// Cho (moves first; PGN's White) won: `1-0`.
    ChoWins,
    /// Han won: `0-1`.
    HanWins,
    /// A draw: `1/2-1/2`.
    Draw,
    /// Unknown or unfinished: `*`.
    #[default]
    Unknown,
}

impl GameResult {
    /// The PGN result token.
    pub const fn pgn(self) -> &'static str {
        match self {
            GameResult::ChoWins => "1-0",
            GameResult::HanWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }

    /// From a PGN result token.
    pub fn from_pgn(t: &str) -> Option<GameResult> {
        Some(match t {
            "1-0" => GameResult::ChoWins,
            "0-1" => GameResult::HanWins,
            "1/2-1/2" => GameResult::Draw,
            "*" => GameResult::Unknown,
            _ => return None,
        })
    }

    /// The winner's side.
    pub const fn winner(self) -> Option<Color> {
        match self {
            GameResult::ChoWins => Some(Color::Cho),
            GameResult::HanWins => Some(Color::Han),
            _ => None,
        }
    }
}

/// One ply of a record: the move and the comment written after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ply {
    /// The move (a pass is [`Move::PASS`]).
    pub mv: Move,
    /// The comment after it (`{…}`), if any.
    pub comment: Option<String>,
}

/// A game read from a record (or to be written as one).
#[derive(Clone, Debug)]
pub struct Record {
    /// The header tags in file order, under the names of the format they
    /// were read from (`대회명`, `Event`, …). Writers translate the names
    /// they know ([`crate::tags`]) and keep the others.
    pub tags: Vec<(String, String)>,
    /// The start position.
    pub start: Position,
    /// The setups, when the start is one of the 16 standard ones
    /// (Han's, Cho's).
    pub setups: Option<(Setup, Setup)>,
    /// The rules the moves were checked under.
    pub rules: Rules,
    /// The comment before the first move.
    pub intro: Option<String>,
    /// The moves.
    pub plies: Vec<Ply>,
    /// The result.
    pub result: GameResult,
    /// What the reader had to assume or repair.
    pub warnings: Vec<RecordWarning>,
}

impl Record {
    /// A record of `game` (its start position and moves) with no tags.
    pub fn from_game(game: &Game) -> Record {
        let start = game.start_position().clone();
        Record {
            tags: Vec::new(),
            setups: setups_of(&start),
            start,
            rules: *game.rules(),
            intro: None,
            plies: game
                .moves()
                .into_iter()
                .map(|mv| Ply { mv, comment: None })
                .collect(),
            result: game
                .outcome()
                .map_or(GameResult::Unknown, |o| match o.winner {
                    Some(Color::Cho) => GameResult::ChoWins,
                    Some(Color::Han) => GameResult::HanWins,
                    None => GameResult::Draw,
                }),
            warnings: Vec::new(),
        }
    }

    /// A tag's value by exact name.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The value of the first of `names` present.
    pub fn tag_any(&self, names: &[&str]) -> Option<&str> {
        names.iter().find_map(|n| self.tag(n))
    }

    /// Sets a tag (replacing its value or appending it).
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(k, _)| k == name) {
            Some(t) => t.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// The moves.
    pub fn moves(&self) -> Vec<Move> {
        self.plies.iter().map(|p| p.mv).collect()
    }

    /// Replays the moves under the record's rules.
    ///
    /// # Errors
    /// The 0-based index of the first illegal move (records from the
    /// readers always replay).
    pub fn game(&self) -> Result<Game, usize> {
        Game::replay(self.start.clone(), self.rules, &self.moves()).map_err(|(i, _)| i)
    }

    /// Cho's player (`초대국자`, `White`).
    pub fn cho_player(&self) -> Option<&str> {
        self.tag_any(&["초대국자", "White"])
    }

    /// Han's player (`한대국자`, `Black`).
    pub fn han_player(&self) -> Option<&str> {
        self.tag_any(&["한대국자", "Black"])
    }
}

/// The setups (Han's, Cho's) whose start position `pos` is, if any.
/// Only the placement counts, not the side to move (some records start
/// with Han's move).
pub fn setups_of(pos: &Position) -> Option<(Setup, Setup)> {
    let fen = pos.fen();
    let board = fen.split(' ').next().unwrap_or("");
    Setup::ALL.into_iter().find_map(|h| {
        Setup::ALL
            .into_iter()
            .find(|&c| Position::from_setups(h, c).fen().split(' ').next() == Some(board))
            .map(|c| (h, c))
    })
}

/// Something the reader assumed or repaired, kept in the record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordWarning {
    /// The moves are illegal with Han's setup string read from Cho's left
    /// (the documented reading, docs/records.md) but legal read from Han's
    /// own left: the record was read that way.
    HanSetupReversed {
        /// The setup string as written.
        written: String,
        /// The setup used.
        used: Setup,
    },
    /// `총수` (or `PlyCount`) disagrees with the number of moves read.
    MoveCountMismatch {
        /// As written.
        written: u32,
        /// As read.
        read: u32,
    },
    /// The setup tags are missing: the standard start was assumed.
    MissingSetup,
    /// The first move is Han's (some apps' records start so): the game
    /// was read with Han to move first.
    HanMovesFirst,
    /// The game was read under other rules than the default (KJF's)
    /// because under those the record goes on after the game ended (the
    /// apps let play go on after bikjang) or repeats a position a 4th time.
    OtherRules {
        /// The rules used.
        used: Rules,
        /// What the default rules refuse.
        because: Box<MoveError>,
    },
    /// The record stops in mid-game (the file is cut off): the moves
    /// before the cut are kept and the result is unknown.
    Incomplete {
        /// The number of the move cut off.
        at: usize,
        /// Its text as far as it goes.
        text: String,
    },
    /// The moves replay on the `[판]` board only with the two sides'
    /// pieces exchanged (each side's set at the other end of the board,
    /// as 사이버장기 writes its handicap boards): read so.
    BoardSidesSwapped,
    /// The moves do not replay on the `[판]` board as written: some
    /// wings' horse and elephant were swapped (the apps write the board
    /// before the players choose their setups).
    BoardRearranged,
}

impl fmt::Display for RecordWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordWarning::HanSetupReversed { written, used } => write!(
                f,
                "Han's setup '{written}' read from Han's own left ({used}): the moves are illegal the usual way"
            ),
            RecordWarning::MoveCountMismatch { written, read } => {
                write!(f, "the move count says {written}, {read} moves read")
            }
            RecordWarning::MissingSetup => write!(f, "no setup tags: the standard start assumed"),
            RecordWarning::HanMovesFirst => write!(f, "the first move is Han's: Han moves first"),
            RecordWarning::OtherRules { used, because } => {
                let because = because.to_string();
                let because = because.split("; try").next().unwrap_or_default();
                write!(f, "read under {} rules, which the record follows: {because}", rules_name(used))
            }
            RecordWarning::Incomplete { at, text } => write!(
                f,
                "the record stops in mid-game at move {at} ('{text}'): the moves before it are kept, the game is incomplete"
            ),
            RecordWarning::BoardSidesSwapped => write!(
                f,
                "the board's two sides were exchanged: the moves show each side's pieces at the other end"
            ),
            RecordWarning::BoardRearranged => write!(
                f,
                "the board's horses and elephants were swapped where the moves show them"
            ),
        }
    }
}

/// Why a move of a record could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Korean notation that is not a legal move.
    Korean(KoreanMoveError),
    /// SAN that is not a legal move.
    San(crate::san::SanError),
    /// UCI text that is not a move.
    Uci(String),
    /// A well-formed move the game layer refuses (why in words).
    Illegal(String),
    /// The game had already ended under the rules the record is read
    /// with (bikjang, two passes, a repetition, the move limit, a mate)
    /// and the record plays on.
    GameOver {
        /// Why the game ended.
        reason: EndReason,
        /// The move (ply, from 1) that ended it.
        at: u32,
        /// The rules it ended under.
        rules: Rules,
    },
    /// A move that would repeat a position a 4th time, which the rules
    /// forbid.
    Repetition {
        /// The rules that forbid it.
        rules: Rules,
    },
    /// Korean text naming a captured piece (`46漢象74卒`, as the Korean
    /// apps write captures) that is not the piece standing on the second
    /// point.
    WrongCapture {
        /// The text.
        text: String,
        /// The captured piece's name as written.
        named: char,
        /// What stands on the second point (`None`: nothing).
        found: Option<PieceKind>,
    },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Korean(e) => e.fmt(f),
            MoveError::San(e) => e.fmt(f),
            MoveError::Uci(t) => write!(f, "'{t}' is not a move"),
            MoveError::Illegal(why) => f.write_str(why),
            MoveError::GameOver { reason, at, rules } => {
                let name = rules_name(rules);
                match reason {
                    EndReason::ScoreBikjang | EndReason::DrawBikjang => write!(
                        f,
                        "bikjang at move {at} ends the game under {name} rules; try --variant janggimodern"
                    ),
                    EndReason::ScorePasses | EndReason::DrawPasses => write!(
                        f,
                        "two passes ended the game at move {at} under {name} rules"
                    ),
                    EndReason::ScoreRepetition
                    | EndReason::DrawRepetition
                    | EndReason::RepetitionLoss => write!(
                        f,
                        "a repetition ended the game at move {at} under {name} rules; try --rules \"bikjang=off repetition=off\""
                    ),
                    EndReason::ScoreMoveLimit | EndReason::DrawMoveLimit => write!(
                        f,
                        "the move limit ended the game at move {at} under {name} rules"
                    ),
                    _ => write!(f, "the game ended at move {at} ({})", reason.name()),
                }
            }
            MoveError::Repetition { rules } => write!(
                f,
                "it repeats a position a 4th time, which {} rules forbid; try --rules \"bikjang=off repetition=off\"",
                rules_name(rules)
            ),
            MoveError::WrongCapture { text, named, found } => match found {
                Some(k) => write!(
                    f,
                    "'{text}' says it takes a '{named}' but a {} stands there",
                    k.english()
                ),
                None => write!(
                    f,
                    "'{text}' says it takes a '{named}' but the point is empty"
                ),
            },
        }
    }
}

/// What is wrong with one game of a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameErrorKind {
    /// A setup name that is none of the four arrangements.
    UnknownSetup {
        /// The tag.
        tag: String,
        /// Its value.
        value: String,
    },
    /// A header line that is not a tag.
    BadTag(String),
    /// A `[FEN]` that is not a position.
    BadFen(String),
    /// A variant or rule set that is unknown.
    BadRules(String),
    /// A `{` comment without its `}`.
    UnterminatedComment,
    /// A move that cannot be read or is illegal.
    BadMove {
        /// The move's number (1 = Cho's first move; GIB numbers every ply).
        number: usize,
        /// The text.
        text: String,
        /// Why.
        error: Box<MoveError>,
    },
}

/// One game of a file that could not be read; the file's other games are
/// read regardless.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameError {
    /// The game's number in the file, from 1.
    pub index: usize,
    /// Cho's player, when the header names them.
    pub cho: Option<String>,
    /// Han's player, when the header names them.
    pub han: Option<String>,
    /// What is wrong.
    pub kind: GameErrorKind,
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {}", self.index)?;
        if self.cho.is_some() || self.han.is_some() {
            write!(
                f,
                " ({} – {})",
                self.cho.as_deref().unwrap_or("?"),
                self.han.as_deref().unwrap_or("?")
            )?;
        }
        match &self.kind {
            GameErrorKind::UnknownSetup { tag, value } => {
                write!(f, ": unknown setup [{tag} \"{value}\"]")
            }
            GameErrorKind::BadTag(l) => write!(f, ": bad tag line '{l}'"),
            GameErrorKind::BadFen(e) => write!(f, ": bad FEN: {e}"),
            GameErrorKind::BadRules(e) => write!(f, ": bad rules: {e}"),
            GameErrorKind::UnterminatedComment => write!(f, ": unterminated comment"),
            GameErrorKind::BadMove {
                number,
                text,
                error,
            } => write!(f, ": move {number} '{text}': {error}"),
        }
    }
}

impl std::error::Error for GameError {}

/// Reads one move of a record in whichever notation it is written and
/// plays it: UCI coordinates (`b1c3`, `e2e2`, `0000`), Korean (`79卒78`,
/// `02마83`, `한수쉼`, Fairy-Stockfish's `H02-83`) or SAN (`Hc3`).
///
/// # Errors
/// [`MoveError`]: the text names no legal move (the game is unchanged).
pub fn play_text(game: &mut Game, text: &str) -> Result<Move, MoveError> {
    if let Some(o) = game.outcome() {
        return Err(MoveError::GameOver {
            reason: o.reason,
            at: o.move_count,
            rules: *game.rules(),
        });
    }
    let pos = game.position();
    let model = game.model();
    let first = text.chars().next().unwrap_or(' ');
    let b = text.as_bytes();
    // Fairy-Stockfish's Latin Korean form: a letter, two digits, `-` or
    // `x`, two digits (`H02-83`); SAN never has two digits on both sides
    // of `-`/`x` (`R10a5`, `A10xd9`).
    let latin_korean = b.len() >= 6
        && first.is_ascii_uppercase()
        && b[1].is_ascii_digit()
        && b[2].is_ascii_digit()
        && matches!(b[3], b'-' | b'x')
        && b[4].is_ascii_digit()
        && b[5].is_ascii_digit();
    let mv = if matches!(text, "0000" | "@@@@" | "pass") {
        Move::PASS
    } else if ('a'..='i').contains(&first) {
        match pos.parse_move(text, Notation::Uci) {
            Ok(m) => m,
            Err(_) => {
                letter_korean(pos, text, model).ok_or_else(|| MoveError::Uci(text.to_string()))?
            }
        }
    } else if first.is_ascii_digit() || !first.is_ascii() || latin_korean {
        parse_korean_record(pos, text, model)?
    } else {
        crate::san::parse_san(pos, text, model).map_err(MoveError::San)?
    };
    game.play(mv).map_err(|e| match e {
        IllegalMove::NotLegal(why) if why.contains("4th time") => MoveError::Repetition {
            rules: *game.rules(),
        },
        e => MoveError::Illegal(e.to_string()),
    })?;
    Ok(mv)
}

/// The apps' rules as their records show them (Kakao's, Hangame's,
/// 사이버장기's): no bikjang, and a position may repeat any number of
/// times; the rest KJF's.
pub fn apps_rules() -> Rules {
    Rules {
        bikjang: BikjangRule::Off,
        repetition: RepetitionRule::Off,
        ..Rules::default()
    }
}

/// The rules' name as errors and warnings say it: `KJF` for the spec's
/// defaults, the preset's name (`janggimodern`), `the apps'` for
/// [`apps_rules`], else every option.
pub fn rules_name(rules: &Rules) -> String {
    if *rules == apps_rules() {
        return "the apps' (bikjang=off repetition=off)".to_string();
    }
    match Rules::VARIANTS
        .into_iter()
        .find(|v| Rules::from_variant(v).as_ref() == Ok(rules))
    {
        Some("janggikjf") => "KJF".to_string(),
        Some(v) => v.to_string(),
        None => format!("\"{rules}\""),
    }
}

/// `text` trimmed, without the check marks glued on (`장군`, `멍군`).
fn without_check_marks(text: &str) -> &str {
    let mut t = text.trim();
    while let Some(rest) = t.strip_suffix("장군").or_else(|| t.strip_suffix("멍군")) {
        t = rest.trim_end();
    }
    t
}

/// The kind a Korean piece name (either side, Hangul or Hanja) names.
fn kind_named(c: char) -> Option<PieceKind> {
    if matches!(c, '將' | '帥' | '장' | '궁') {
        return Some(PieceKind::General);
    }
    PieceKind::ALL.into_iter().find(|&k| {
        [Color::Cho, Color::Han].into_iter().any(|side| {
            [KoreanScript::Hangul, KoreanScript::Hanja]
                .into_iter()
                .any(|s| piece_name(k, side, s).starts_with(c))
        })
    })
}

/// A Korean move with letter files (`i3卒h3`, `d6兵d5卒`, as one Kakao
/// export writes): a file `a`–`i`, a rank digit, the piece, the second
/// point, then optionally the captured piece. The ranks are read from 0
/// (Cho's back rank, as that export writes them) or from 1; the move is
/// taken only when exactly one reading is a legal move of the named piece.
fn letter_korean(pos: &Position, text: &str, model: LegalityModel) -> Option<Move> {
    let t = without_check_marks(text);
    let c: Vec<char> = t.chars().collect();
    let point = |k: usize| {
        c.get(k).is_some_and(|f| ('a'..='i').contains(f))
            && c.get(k + 1).is_some_and(char::is_ascii_digit)
    };
    if !point(0) {
        return None;
    }
    let second = (3..c.len()).find(|&k| point(k))?;
    let kind = kind_named(*c.get(second - 1)?)?;
    let rank = |d: char, from_zero: bool| d.to_digit(10).map(|r| r + u32::from(from_zero));
    let mut found = [true, false].into_iter().filter_map(|zero| {
        let (r1, r2) = (rank(c[1], zero)?, rank(c[second + 1], zero)?);
        let uci = format!("{}{r1}{}{r2}", c[0], c[second]);
        let mv = pos.parse_move(&uci, Notation::Uci).ok()?;
        let piece = pos.piece_at(mv.from())?;
        (piece.kind == kind && piece.color == pos.side_to_move() && pos.is_legal(mv, model))
            .then_some(mv)
    });
    let mv = found.next()?;
    found.next().is_none().then_some(mv)
}

/// Korean move text as the core reads it (`79卒78`, `79楚卒78`, `H02-83`,
/// a trailing `장군`), and as the Korean apps write captures and checks:
/// the captured piece's name after the second point and the check mark
/// glued on (`46漢象74卒장군`: Han's elephant takes the soldier on 74,
/// check). The captured name must name the piece that stands there.
fn parse_korean_record(
    pos: &Position,
    text: &str,
    model: LegalityModel,
) -> Result<Move, MoveError> {
    let first_error = match pos.parse_korean(text, model) {
        Ok(m) => return Ok(m),
        Err(e) => e,
    };
    let t = without_check_marks(text);
    let chars: Vec<char> = t.chars().collect();
    // Some apps write `타` ("takes") before the captured piece's name
    // (`09차49타졸`); some write `타` alone.
    let (base, named) = match chars.as_slice() {
        [.., d1, d2, '타', c] if d1.is_ascii_digit() && d2.is_ascii_digit() => {
            (&t[..t.len() - c.len_utf8() - '타'.len_utf8()], Some(*c))
        }
        [.., d1, d2, '타'] if d1.is_ascii_digit() && d2.is_ascii_digit() => {
            (&t[..t.len() - '타'.len_utf8()], None)
        }
        [.., d1, d2, c] if d1.is_ascii_digit() && d2.is_ascii_digit() && !c.is_ascii_digit() => {
            (&t[..t.len() - c.len_utf8()], Some(*c))
        }
        _ => (t, None),
    };
    if base == text.trim() {
        return Err(MoveError::Korean(first_error));
    }
    let mv = pos.parse_korean(base, model).map_err(MoveError::Korean)?;
    if let Some(named) = named {
        let found = (!mv.is_pass()).then(|| pos.piece_at(mv.to())).flatten();
        let names_it = found.is_some_and(|p| {
            p.color != pos.side_to_move()
                && [Color::Cho, Color::Han].into_iter().any(|c| {
                    [KoreanScript::Hangul, KoreanScript::Hanja]
                        .into_iter()
                        .any(|s| piece_name(p.kind, c, s).starts_with(named))
                })
        });
        if !names_it {
            return Err(MoveError::WrongCapture {
                text: text.trim().to_string(),
                named,
                found: found.map(|p| p.kind),
            });
        }
    }
    Ok(mv)
}

/// Appends comment `c` to `slot` (a move's comment, or the text before the
/// first move): several `{}` comments in a row become one, space-separated.
pub(crate) fn append_comment(slot: &mut Option<String>, c: String) {
    match slot {
        Some(s) => {
            s.push(' ');
            s.push_str(&c);
        }
        None => *slot = Some(c),
    }
}
