//! The HTTP edge's typed requests: every request's method, path, query
//! and body become one [`Request`] here, once; a bad one becomes a typed
//! [`BadRequest`] (or a 404/405 [`RouteError`]). Past this module nothing
//! reads raw JSON: the game gets [`Settings`], [`Square`]s and [`Move`]s.

use crate::session::{parse_setup, Hints, Level, Mode, Settings, SetupChoice};
use janggi_core::{Color, Move, RuleError, Rules, Square};
use janggi_uci::{Byoyomi, TimeControl};
use serde_json::{Map, Value};
use std::fmt;

/// Largest accepted JSON body.
pub const MAX_BODY: u64 = 64 * 1024;
/// Largest record file the page may upload.
pub const MAX_RECORD_FILE: u64 = 8 * 1024 * 1024;

/// The request's method, as far as the board cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// `GET`.
    Get,
    /// `POST`.
    Post,
    /// Anything else.
    Other,
}

/// An embedded file of the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Asset {
    /// `/` and `/index.html`.
    Index,
    /// `/app.js`.
    AppJs,
    /// `/style.css`.
    StyleCss,
    /// `/favicon.ico` (none: 204).
    Favicon,
    /// `/fonts/janggi-board.ttf`.
    Font,
    /// `/fonts/LICENSE.txt`.
    FontLicense,
}

/// A call of the game API (`POST /api/…` with a JSON object).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CallKind {
    /// `/api/new`.
    NewGame,
    /// `/api/setup`.
    Setup,
    /// `/api/moves`.
    Moves,
    /// `/api/move`.
    Move,
    /// `/api/pass`.
    Pass,
    /// `/api/undo`.
    Undo,
    /// `/api/resign`.
    Resign,
    /// `/api/draw`.
    Draw,
    /// `/api/position`.
    Position,
    /// `/api/records/open`.
    OpenRecord,
    /// `/api/analyse`.
    Analyse,
    /// `/api/answer`: the other player's answer to a draw offer or undo.
    Answer,
    /// `/api/engine/restart`.
    RestartEngine,
}

impl CallKind {
    fn from_path(path: &str) -> Option<CallKind> {
        Some(match path {
            "/api/new" => CallKind::NewGame,
            "/api/setup" => CallKind::Setup,
            "/api/moves" => CallKind::Moves,
            "/api/move" => CallKind::Move,
            "/api/pass" => CallKind::Pass,
            "/api/undo" => CallKind::Undo,
            "/api/resign" => CallKind::Resign,
            "/api/draw" => CallKind::Draw,
            "/api/position" => CallKind::Position,
            "/api/records/open" => CallKind::OpenRecord,
            "/api/analyse" => CallKind::Analyse,
            "/api/answer" => CallKind::Answer,
            "/api/engine/restart" => CallKind::RestartEngine,
            _ => return None,
        })
    }
}

/// Where a request goes, from its method and path alone: what its body
/// must be is known before it is read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route {
    /// A file of the page.
    Asset(Asset),
    /// `GET /api/state`.
    State,
    /// `GET /api/events?token=…`: the event stream.
    Events,
    /// `GET /api/token`: the token the board's own page presents on its
    /// event stream.
    Token,
    /// `GET /api/records/save?format=…`.
    SaveRecord,
    /// `POST /api/records/parse` with a record file's bytes.
    ParseRecords,
    /// `POST /api/…` with a JSON object: a call, or `None` for a path that
    /// names none (refused once its body is read, as any bad body is).
    Call(Option<CallKind>),
}

/// A path or method the server does not serve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RouteError {
    /// No such page (404; the path is not echoed back).
    NotFound,
    /// A known page with the wrong method (405).
    MethodNotAllowed,
}

impl Route {
    /// The route of `method` on `path` (the URL without its query).
    ///
    /// # Errors
    /// [`RouteError`].
    pub fn parse(method: Method, path: &str) -> Result<Route, RouteError> {
        let asset = match path {
            "/" | "/index.html" => Some(Asset::Index),
            "/app.js" => Some(Asset::AppJs),
            "/style.css" => Some(Asset::StyleCss),
            "/favicon.ico" => Some(Asset::Favicon),
            "/fonts/janggi-board.ttf" => Some(Asset::Font),
            "/fonts/LICENSE.txt" => Some(Asset::FontLicense),
            _ => None,
        };
        if let (Method::Get, Some(a)) = (method, asset) {
            return Ok(Route::Asset(a));
        }
        match (method, path) {
            (Method::Get, "/api/records/save") => Ok(Route::SaveRecord),
            (Method::Post, "/api/records/parse") => Ok(Route::ParseRecords),
            (Method::Get, "/api/state") => Ok(Route::State),
            (Method::Get, "/api/events") => Ok(Route::Events),
            (Method::Get, "/api/token") => Ok(Route::Token),
            (Method::Post, p) if p.starts_with("/api/") => Ok(Route::Call(CallKind::from_path(p))),
            (
                _,
                "/"
                | "/index.html"
                | "/app.js"
                | "/style.css"
                | "/api/state"
                | "/api/events"
                | "/api/token"
                | "/api/records/save"
                | "/fonts/janggi-board.ttf",
            ) => Err(RouteError::MethodNotAllowed),
            _ => Err(RouteError::NotFound),
        }
    }
}

/// A file format for saving.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordFormat {
    /// PGN (the default).
    Pgn,
    /// GIB (CP949).
    Gib,
}

impl RecordFormat {
    /// The `format=` of a query (`pgn` when absent).
    ///
    /// # Errors
    /// [`BadRequest::UnknownFormat`].
    pub fn from_query(query: &str) -> Result<RecordFormat, BadRequest> {
        match query
            .split('&')
            .find_map(|kv| kv.strip_prefix("format="))
            .unwrap_or("pgn")
        {
            "pgn" => Ok(RecordFormat::Pgn),
            "gib" => Ok(RecordFormat::Gib),
            _ => Err(BadRequest::UnknownFormat),
        }
    }
}

/// A call of the game API with its arguments, checked.
#[derive(Clone, Debug, PartialEq)]
pub enum Call {
    /// A new game with these settings.
    NewGame(Settings),
    /// One side's arrangement.
    Setup {
        /// The side.
        side: Color,
        /// The arrangement.
        choice: SetupChoice,
    },
    /// The destinations of the piece on a point.
    Moves {
        /// The point.
        from: Square,
    },
    /// A human's move.
    Move(Move),
    /// A human's pass (confirmed).
    Pass,
    /// Take back.
    Undo,
    /// Resign.
    Resign,
    /// Offer a draw.
    Draw,
    /// The position after a ply of the record (`None`: the last).
    Position {
        /// The ply.
        ply: Option<u64>,
    },
    /// Open a game of the loaded record file.
    OpenRecord {
        /// Its index in the file's list; `None` when the page sent no
        /// whole number (refused with the file's range, as an index past
        /// it is, once the board knows there is a file).
        index: Option<u64>,
    },
    /// Analyse the game.
    Analyse,
    /// Accept (`true`) or decline the waiting draw offer or undo.
    Answer {
        /// Accepted?
        accept: bool,
    },
    /// Start the engine afresh.
    RestartEngine,
}

impl Call {
    /// Parses a call's JSON `body` (all white space: `{}`).
    ///
    /// # Errors
    /// [`BadRequest`] for bad JSON, a body that is not an object, an
    /// unknown call, or a bad field.
    pub fn parse(kind: Option<CallKind>, body: &[u8]) -> Result<Call, BadRequest> {
        let body = json_object(body)?;
        let kind = kind.ok_or(BadRequest::NoSuchCall)?;
        Ok(match kind {
            CallKind::NewGame => Call::NewGame(settings(&body)?),
            CallKind::Setup => {
                let side = body
                    .get("side")
                    .and_then(Value::as_str)
                    .and_then(color)
                    .ok_or(BadRequest::Expected("side", "\"han\" or \"cho\""))?;
                let name =
                    body.get("setup")
                        .and_then(Value::as_str)
                        .ok_or(BadRequest::Expected(
                            "setup",
                            "an arrangement name such as \"MSSM\" or \"안상차림\"",
                        ))?;
                let choice = if name == "random" {
                    SetupChoice::Random
                } else {
                    SetupChoice::Named(
                        parse_setup(name)
                            .ok_or_else(|| BadRequest::UnknownArrangement(name.to_string()))?,
                    )
                };
                Call::Setup { side, choice }
            }
            CallKind::Moves => Call::Moves {
                from: square(&body, "from")?,
            },
            CallKind::Move => {
                let (from, to) = (square(&body, "from")?, square(&body, "to")?);
                Call::Move(Move::new(from, to).ok_or(BadRequest::SamePoint)?)
            }
            CallKind::Pass => {
                if body.get("confirm") != Some(&Value::Bool(true)) {
                    return Err(BadRequest::PassNotConfirmed);
                }
                Call::Pass
            }
            CallKind::Undo => Call::Undo,
            CallKind::Resign => Call::Resign,
            CallKind::Draw => Call::Draw,
            CallKind::Position => Call::Position {
                ply: match body.get("ply") {
                    None | Some(Value::Null) => None,
                    Some(v) => Some(v.as_u64().ok_or(BadRequest::NotACount("ply"))?),
                },
            },
            CallKind::OpenRecord => Call::OpenRecord {
                index: body.get("index").and_then(Value::as_u64),
            },
            CallKind::Analyse => Call::Analyse,
            CallKind::Answer => Call::Answer {
                accept: body
                    .get("accept")
                    .and_then(Value::as_bool)
                    .ok_or(BadRequest::Expected("accept", "true or false"))?,
            },
            CallKind::RestartEngine => Call::RestartEngine,
        })
    }
}

/// A request that cannot be served as sent (400).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadRequest {
    /// The body is larger than the limit (bytes).
    TooLarge(u64),
    /// The body is not JSON.
    Json(String),
    /// The body is JSON but not an object.
    NotAnObject,
    /// A record file of white space only.
    EmptyFile,
    /// `POST /api/…` naming no call (the path is not echoed back).
    NoSuchCall,
    /// A field is not a string.
    NotAString(&'static str),
    /// A field is not one of the values it may be.
    Expected(&'static str, &'static str),
    /// A number outside its range.
    OutOfRange(&'static str, u64, u64),
    /// A field that must be a whole number 0 or more.
    NotACount(&'static str),
    /// An unknown `mode`.
    UnknownMode(String),
    /// An unknown `hints`.
    UnknownHints(String),
    /// An unknown arrangement name.
    UnknownArrangement(String),
    /// An unknown rule option.
    UnknownRuleOption(String),
    /// A rule option whose value is neither a boolean, a number nor text.
    BadRuleValue(String),
    /// The rules refuse a variant name or an option's value.
    Rules(RuleError),
    /// A field that must be a point is not text.
    NotAPoint(&'static str),
    /// Text that names no point.
    NoSuchPoint(&'static str, String),
    /// `from` and `to` are the same point.
    SamePoint,
    /// A pass without `confirm: true`.
    PassNotConfirmed,
    /// An unknown file format (not echoed back: it came in the URL).
    UnknownFormat,
}

impl fmt::Display for BadRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadRequest::TooLarge(max) => {
                write!(f, "the body is too large (at most {} KiB)", max / 1024)
            }
            BadRequest::Json(e) => write!(f, "bad JSON: {e}"),
            BadRequest::NotAnObject => f.write_str("the body must be a JSON object"),
            BadRequest::EmptyFile => f.write_str("the file is empty"),
            BadRequest::NoSuchCall => f.write_str("no such call"),
            BadRequest::NotAString(k) => write!(f, "`{k}` must be a string"),
            BadRequest::Expected(k, what) => write!(f, "`{k}` must be {what}"),
            BadRequest::OutOfRange(k, lo, hi) => write!(f, "`{k}` must be {lo} … {hi}"),
            BadRequest::NotACount(k) => write!(f, "`{k}` must be a whole number, 0 or more"),
            BadRequest::UnknownMode(m) => write!(f, "unknown mode {m:?} (hve, hvh, eve)"),
            BadRequest::UnknownHints(h) => write!(f, "unknown hints {h:?}"),
            BadRequest::UnknownArrangement(n) => write!(f, "unknown arrangement {n:?}"),
            BadRequest::UnknownRuleOption(k) => write!(f, "unknown rule option {k:?}"),
            BadRequest::BadRuleValue(k) => write!(f, "rule option {k:?} has a bad value"),
            BadRequest::Rules(e) => write!(f, "{e}"),
            BadRequest::NotAPoint(k) => write!(f, "`{k}` must be a point such as \"e2\""),
            BadRequest::NoSuchPoint(k, s) => write!(f, "`{k}`: no point {s:?} on the board"),
            BadRequest::SamePoint => f.write_str("`from` and `to` are the same point"),
            BadRequest::PassNotConfirmed => f.write_str("a pass needs `confirm: true`"),
            BadRequest::UnknownFormat => f.write_str("unknown format (gib or pgn)"),
        }
    }
}

impl std::error::Error for BadRequest {}

impl From<RuleError> for BadRequest {
    fn from(e: RuleError) -> Self {
        BadRequest::Rules(e)
    }
}

/// A JSON object from a body (all white space: an empty object).
fn json_object(body: &[u8]) -> Result<Map<String, Value>, BadRequest> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(Map::new());
    }
    match serde_json::from_slice(body) {
        Ok(Value::Object(m)) => Ok(m),
        Ok(_) => Err(BadRequest::NotAnObject),
        Err(e) => Err(BadRequest::Json(e.to_string())),
    }
}

fn color(s: &str) -> Option<Color> {
    match s {
        "cho" => Some(Color::Cho),
        "han" => Some(Color::Han),
        _ => None,
    }
}

/// A point `a1` … `i10`.
fn square(body: &Map<String, Value>, field: &'static str) -> Result<Square, BadRequest> {
    let s = body
        .get(field)
        .and_then(Value::as_str)
        .ok_or(BadRequest::NotAPoint(field))?;
    Square::parse_uci(s).ok_or_else(|| BadRequest::NoSuchPoint(field, s.to_string()))
}

fn get_str<'a>(
    body: &'a Map<String, Value>,
    key: &'static str,
) -> Result<Option<&'a str>, BadRequest> {
    match body.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(BadRequest::NotAString(key)),
    }
}

/// The settings of a new game from the page's JSON (every field optional).
fn settings(body: &Map<String, Value>) -> Result<Settings, BadRequest> {
    let mut s = Settings::default();
    let human = match get_str(body, "human")? {
        None => Color::Cho,
        Some(h) => color(h).ok_or(BadRequest::Expected("human", "\"cho\" or \"han\""))?,
    };
    s.mode = match get_str(body, "mode")? {
        None | Some("hve") => Mode::HumanVsEngine(human),
        Some("hvh") => Mode::HumanVsHuman,
        Some("eve") => Mode::EngineVsEngine,
        Some(m) => return Err(BadRequest::UnknownMode(m.to_string())),
    };
    if let Some(l) = get_str(body, "level")? {
        s.set_level(
            Level::from_name(l).ok_or(BadRequest::Expected("level", "easy, normal or hard"))?,
        );
    }
    match body.get("skill") {
        None | Some(Value::Null) => {}
        Some(v) => {
            s.skill = v
                .as_u64()
                .filter(|&n| n <= 20)
                .ok_or(BadRequest::OutOfRange("skill", 0, 20))? as u32
        }
    }
    match body.get("movetimeMs") {
        None | Some(Value::Null) => {}
        Some(v) => {
            s.movetime_ms = v
                .as_u64()
                .filter(|&n| (10..=60_000).contains(&n))
                .ok_or(BadRequest::OutOfRange("movetimeMs", 10, 60_000))?
                as u32;
            s.clock_cap_ms = Some(s.movetime_ms);
        }
    }
    if let Some(v) = get_str(body, "variant")? {
        s.rules = Rules::from_variant(v)?;
        s.variant = Rules::VARIANTS
            .iter()
            .copied()
            .find(|n| n.eq_ignore_ascii_case(v) && *n != "janggikjf");
    }
    if let Some(rules) = body.get("rules") {
        let obj = rules
            .as_object()
            .ok_or(BadRequest::Expected("rules", "an object"))?;
        for (k, v) in obj {
            let name = match k.as_str() {
                "scoring" => "Scoring",
                "bikjang" => "Bikjang",
                "repetition" => "Repetition",
                "allowPass" => "AllowPass",
                "moveLimit" => "MoveLimit",
                _ => return Err(BadRequest::UnknownRuleOption(k.clone())),
            };
            let text = match v {
                Value::Bool(b) => b.to_string(),
                Value::Number(n) => n.to_string(),
                Value::String(t) => t.clone(),
                _ => return Err(BadRequest::BadRuleValue(k.clone())),
            };
            s.rules.set_option(name, &text)?;
        }
        // The preset no longer describes the rules if an option changed them.
        if let Some(v) = s.variant {
            if Rules::from_variant(v).ok() != Some(s.rules) {
                s.variant = None;
            }
        }
    }
    s.undo_limit = match body.get("undo") {
        None | Some(Value::Null) => Some(3),
        Some(Value::String(u)) if u == "off" => Some(0),
        Some(Value::String(u)) if u == "unlimited" => None,
        Some(v) => match v
            .as_u64()
            .or_else(|| v.as_str().and_then(|t| t.parse().ok()))
        {
            Some(n @ (0 | 1 | 3)) => Some(n as u32),
            _ => return Err(BadRequest::Expected("undo", "off, 1, 3 or unlimited")),
        },
    };
    s.hints = match get_str(body, "hints")? {
        None | Some("moves") => Hints::Moves,
        Some("off") => Hints::Off,
        Some("movesAndThreats") => Hints::MovesAndThreats,
        Some(h) => return Err(BadRequest::UnknownHints(h.to_string())),
    };
    match body.get("drawOffer") {
        None | Some(Value::Null) => {}
        Some(Value::Bool(b)) => s.draw_offer = *b,
        Some(_) => return Err(BadRequest::Expected("drawOffer", "true or false")),
    }
    s.time_control = match body.get("timeControl") {
        None | Some(Value::Null) => None,
        Some(tc) => {
            let num = |k: &'static str, field: &'static str, lo: u64, hi: u64| {
                tc.get(k)
                    .and_then(Value::as_u64)
                    .filter(|n| (lo..=hi).contains(n))
                    .ok_or(BadRequest::OutOfRange(field, lo, hi))
            };
            match tc.get("kind").and_then(Value::as_str) {
                Some("none") => None,
                Some("byoyomi") => Some(TimeControl::byoyomi(
                    num("mainSec", "timeControl.mainSec", 0, 7200)? * 1000,
                    Byoyomi {
                        period_ms: num("periodSec", "timeControl.periodSec", 1, 600)? * 1000,
                        periods: num("periods", "timeControl.periods", 1, 10)? as u32,
                    },
                )),
                _ => return Err(BadRequest::Expected("timeControl.kind", "none or byoyomi")),
            }
        }
    };
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(kind: CallKind, body: &str) -> Result<Call, BadRequest> {
        Call::parse(Some(kind), body.as_bytes())
    }

    #[test]
    fn routes_are_the_servers() {
        assert_eq!(
            Route::parse(Method::Get, "/"),
            Ok(Route::Asset(Asset::Index))
        );
        assert_eq!(
            Route::parse(Method::Other, "/"),
            Err(RouteError::MethodNotAllowed)
        );
        assert_eq!(
            Route::parse(Method::Post, "/api/state"),
            Ok(Route::Call(None))
        );
        assert_eq!(
            Route::parse(Method::Get, "/api/move"),
            Err(RouteError::NotFound)
        );
        assert_eq!(
            Route::parse(Method::Get, "/../etc/passwd"),
            Err(RouteError::NotFound)
        );
    }

    #[test]
    fn bodies_become_typed_calls() {
        assert_eq!(call(CallKind::Undo, "  "), Ok(Call::Undo));
        assert_eq!(call(CallKind::Undo, "[1]"), Err(BadRequest::NotAnObject));
        assert!(matches!(
            call(CallKind::Undo, "{bad"),
            Err(BadRequest::Json(_))
        ));
        assert_eq!(Call::parse(None, b"{}"), Err(BadRequest::NoSuchCall));
        assert_eq!(
            call(CallKind::Move, r#"{"from":"a1","to":"a1"}"#),
            Err(BadRequest::SamePoint)
        );
        assert_eq!(
            call(CallKind::Move, r#"{"from":5,"to":"a2"}"#),
            Err(BadRequest::NotAPoint("from"))
        );
        assert_eq!(
            call(CallKind::Pass, "{}"),
            Err(BadRequest::PassNotConfirmed)
        );
        assert_eq!(
            call(CallKind::Position, r#"{"ply":-1}"#),
            Err(BadRequest::NotACount("ply"))
        );
        assert_eq!(
            call(CallKind::Position, r#"{"ply":null}"#),
            Ok(Call::Position { ply: None })
        );
        assert_eq!(
            call(CallKind::Setup, r#"{"side":"han","setup":"random"}"#),
            Ok(Call::Setup {
                side: Color::Han,
                choice: SetupChoice::Random
            })
        );
        let Ok(Call::NewGame(s)) = call(
            CallKind::NewGame,
            r#"{"level":"easy","timeControl":{"kind":"byoyomi","mainSec":60,"periodSec":20,"periods":2}}"#,
        ) else {
            panic!("settings")
        };
        assert_eq!(
            (s.skill, s.movetime_ms, s.clock_cap_ms),
            (3, 300, Some(1000))
        );
        assert_eq!(
            s.time_control,
            Some(TimeControl::byoyomi(
                60_000,
                Byoyomi {
                    period_ms: 20_000,
                    periods: 2
                }
            ))
        );
        assert_eq!(
            call(
                CallKind::NewGame,
                r#"{"timeControl":{"kind":"byoyomi","mainSec":60,"periodSec":0,"periods":2}}"#
            ),
            Err(BadRequest::OutOfRange("timeControl.periodSec", 1, 600))
        );
        assert_eq!(
            RecordFormat::from_query("a=1&format=gib"),
            Ok(RecordFormat::Gib)
        );
        assert_eq!(RecordFormat::from_query(""), Ok(RecordFormat::Pgn));
        assert!(RecordFormat::from_query("format=doc").is_err());
    }
}
