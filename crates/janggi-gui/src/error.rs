//! Every way a request fails, typed, with its HTTP status: the edge's
//! refusals (foreign Host/Origin, unknown page, wrong method, too many
//! pages), a bad request ([`BadRequest`]), what the game refuses
//! ([`GameError`]) and the board's own (a record file without a game, a
//! game index past the file, no thread to run on, a GIB that cannot be
//! written). The page reads each as `{"error": {code, en, ko}}`
//! (`crate::view::error`).

use crate::request::{BadRequest, RouteError};
use crate::session::GameError;
use crate::wire::WireError;
use std::fmt;

/// One game of an uploaded record file, as listed for the page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Listing {
    /// A game that was read; `index` is its place among the readable ones.
    Game {
        /// Index for `/api/records/open`.
        index: usize,
        /// Its header.
        source: crate::session::Source,
        /// What the reader had to assume or repair.
        warnings: Vec<String>,
    },
    /// A game that could not be read (`game` counts from 1 in the file).
    Broken {
        /// Its number in the file.
        game: usize,
        /// Why.
        error: String,
    },
}

/// A request that failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ApiError {
    /// Not the server's own `Host`/`Origin` (403).
    Forbidden,
    /// A path or method the server does not serve (404, 405).
    Route(RouteError),
    /// Too many pages listen already (503).
    Busy,
    /// An event stream asked for without the board's page token (403):
    /// not a page the board served.
    NoToken,
    /// Refused on the wire: too slow, too large, too many (408, 411, 414,
    /// 431, 503, 400).
    Wire(WireError),
    /// A malformed request (400).
    Bad(BadRequest),
    /// What the game refuses (422 by the rules, 409 by the phase, 400 for
    /// a value outside the game).
    Game(GameError),
    /// `index` past the loaded file's games (400).
    NoSuchGame {
        /// Games in the file.
        games: usize,
    },
    /// A record file without one readable game (422).
    NoGame(Vec<Listing>),
    /// A GIB file could not be written (400).
    Gib(String),
    /// No thread could be started for this (400).
    NoThread(&'static str),
}

impl ApiError {
    /// The HTTP status.
    pub fn status(&self) -> u16 {
        match self {
            ApiError::Forbidden | ApiError::NoToken => 403,
            ApiError::Wire(w) => w.status(),
            ApiError::Route(RouteError::NotFound) => 404,
            ApiError::Route(RouteError::MethodNotAllowed) => 405,
            ApiError::Busy => 503,
            ApiError::Game(GameError::Refused(_)) | ApiError::NoGame(_) => 422,
            ApiError::Game(GameError::Phase(_)) => 409,
            ApiError::Bad(_)
            | ApiError::Game(_)
            | ApiError::NoSuchGame { .. }
            | ApiError::Gib(_)
            | ApiError::NoThread(_) => 400,
        }
    }

    /// The code the page gets, and the Korean text.
    pub fn code_ko(&self) -> (&'static str, &'static str) {
        match self {
            ApiError::Forbidden => ("forbidden", "이 서버의 페이지에서만 쓸 수 있어요"),
            ApiError::NoToken => ("noToken", "이 서버가 연 페이지에서만 쓸 수 있어요"),
            ApiError::Wire(WireError::HeadTimeout | WireError::BodyTimeout) => {
                ("timeout", "요청 시간이 지났어요")
            }
            ApiError::Wire(WireError::TooManyConnections) => ("busy", "연결이 너무 많아요"),
            ApiError::Wire(
                WireError::UriTooLong | WireError::HeadTooLarge | WireError::TooManyHeaders,
            ) => ("tooLarge", "요청이 너무 길어요"),
            ApiError::Wire(_) => ("badRequest", "잘못된 요청이에요"),
            ApiError::Route(RouteError::NotFound) => ("notFound", "없는 페이지예요"),
            ApiError::Route(RouteError::MethodNotAllowed) => {
                ("methodNotAllowed", "허용되지 않는 요청이에요")
            }
            ApiError::Busy => ("busy", "열린 페이지가 너무 많아요"),
            ApiError::Game(GameError::Refused(r)) => (r.code(), r.ko()),
            ApiError::Game(GameError::Phase(_)) => ("wrongPhase", "지금은 할 수 없어요"),
            ApiError::NoGame(_) => ("noGame", "읽을 수 있는 대국이 없어요"),
            ApiError::Bad(_)
            | ApiError::Game(_)
            | ApiError::NoSuchGame { .. }
            | ApiError::Gib(_)
            | ApiError::NoThread(_) => ("badRequest", "잘못된 요청이에요"),
        }
    }
}

/// The English text the page shows.
impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ApiError::Forbidden => {
                f.write_str("this server answers only its own page (Host/Origin)")
            }
            ApiError::NoToken => {
                f.write_str("the event stream is only for the board's own page (token)")
            }
            ApiError::Wire(w) => write!(f, "{w}"),
            ApiError::Route(RouteError::NotFound) => f.write_str("no such page"),
            ApiError::Route(RouteError::MethodNotAllowed) => f.write_str("method not allowed"),
            ApiError::Busy => f.write_str("too many pages are open"),
            ApiError::Bad(b) => write!(f, "{b}"),
            ApiError::Game(GameError::Refused(r)) => f.write_str(r.en()),
            ApiError::Game(g) => write!(f, "{g}"),
            ApiError::NoSuchGame { games } => {
                write!(f, "`index` must be 0 … {}", games.saturating_sub(1))
            }
            ApiError::NoGame(list) if list.is_empty() => {
                f.write_str("no game found: not a GIB or PGN record")
            }
            ApiError::NoGame(list) => {
                let errors: Vec<&str> = list
                    .iter()
                    .filter_map(|g| match g {
                        Listing::Broken { error, .. } => Some(error.as_str()),
                        Listing::Game { .. } => None,
                    })
                    .take(3)
                    .collect();
                write!(f, "no game could be read: {}", errors.join("; "))
            }
            ApiError::Gib(e) => write!(f, "cannot write GIB: {e}"),
            ApiError::NoThread(what) => write!(f, "cannot start a thread for {what}"),
        }
    }
}

impl std::error::Error for ApiError {}

impl From<BadRequest> for ApiError {
    fn from(b: BadRequest) -> Self {
        ApiError::Bad(b)
    }
}

impl From<GameError> for ApiError {
    fn from(g: GameError) -> Self {
        ApiError::Game(g)
    }
}

impl From<RouteError> for ApiError {
    fn from(r: RouteError) -> Self {
        ApiError::Route(r)
    }
}

impl From<crate::session::PhaseError> for ApiError {
    fn from(p: crate::session::PhaseError) -> Self {
        ApiError::Game(GameError::Phase(p))
    }
}
