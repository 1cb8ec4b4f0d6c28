//! The board: the state the request threads, the engine's worker thread,
//! the analysis thread and the clock's watch share ([`Shared`], with the
//! game and the engine's status in [`App`] under one lock), and the game
//! API's calls run against it. Calls come in typed ([`Call`]) and go out
//! typed ([`Reply`], [`ApiError`]); the HTTP edge renders them.

use crate::engine::{self, Player};
use crate::error::{ApiError, Listing};
use crate::events::Hub;
use crate::presence::PageToken;
use crate::records::{self, SavedFile};
use crate::request::{Call, RecordFormat};
use crate::session::{Answered, Ask, Destination, DrawAnswer, Session, Stepped};
use crate::{EngineCommand, Tuning};
use janggi_analysis::GameAnalysis;
use janggi_core::{Event, Square};
use janggi_records::Record;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

/// What the engine is doing, as the page shows it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EngineState {
    /// Not thinking.
    #[default]
    Idle,
    /// Thinking on its move.
    Thinking,
    /// Crashed or hung; being restarted.
    Restarting,
    /// Given up on (too many crashes, or it cannot start).
    Down,
    /// It sent a move that is not legal; given up on.
    Illegal,
}

impl EngineState {
    /// The name the page reads.
    pub fn name(self) -> &'static str {
        match self {
            EngineState::Idle => "idle",
            EngineState::Thinking => "thinking",
            EngineState::Restarting => "restarting",
            EngineState::Down => "down",
            EngineState::Illegal => "illegal",
        }
    }
}

/// The engine's state as the page shows it.
#[derive(Clone, Debug, Default)]
pub struct EngineStatus {
    /// What it is doing.
    pub state: EngineState,
    /// Why it is down, if it is.
    pub message: String,
    /// Its `id name`.
    pub name: Option<String>,
    /// A note on the rules it plays.
    pub note: Option<String>,
    /// Crashes or hangs noticed in this server's life.
    pub crashes: u32,
    /// The last one, for the page.
    pub last_crash: Option<String>,
}

/// The engine's last `info` report on the game, from Cho's side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InfoReport {
    /// The ply it is about (the record's length when it searched).
    pub ply: usize,
    /// Depth.
    pub depth: Option<u32>,
    /// Centipawns from Cho's side.
    pub cho_cp: Option<i32>,
    /// Mate in moves from Cho's side.
    pub mate: Option<i32>,
    /// Win/draw/loss per mille from Cho's side.
    pub wdl: Option<[u32; 3]>,
    /// Nodes.
    pub nodes: Option<u64>,
    /// The principal variation (UCI).
    pub pv: Vec<String>,
    /// The same in Korean notation (`79졸78`, `한수쉼`), as far as its
    /// moves read in the position searched.
    pub pv_korean: Vec<String>,
}

/// A finished analysis, for the game it was made of.
pub struct Review {
    /// The game (the board's game id).
    pub game_id: u64,
    /// The moves analysed (UCI), so it is shown only while the record
    /// still begins with them.
    pub uci: Vec<String>,
    /// The analysis.
    pub analysis: GameAnalysis,
    /// Its graph.
    pub svg: String,
}

/// The board's state under one lock.
pub struct App {
    /// The game.
    pub session: Session,
    /// The engine process, while it is idle.
    pub engine: Option<Player>,
    /// An engine turn is under way on its worker thread.
    pub thinking: bool,
    /// Bumped by every new game (the engine is configured per game).
    pub game_id: u64,
    /// The engine's state for the page.
    pub status: EngineStatus,
    /// The last `info` report.
    pub analysis: Option<InfoReport>,
    /// The last evaluation, centipawns from Cho's side.
    pub last_eval: Option<i32>,
    /// Engine restarts in a row.
    pub restarts: u32,
    /// The engine gave up (too many crashes, or an illegal move).
    pub down: bool,
    seed: u64,
    /// Every page went away (its event stream closed): the engine does
    /// not think and the clock is stopped until a page comes back.
    pub away: bool,
    /// The games of the last record file the page sent.
    pub loaded: Vec<Record>,
    /// The analysis of the current game, once run.
    pub review: Option<Review>,
    /// An analysis in progress: positions done, of how many.
    pub analysing: Option<(usize, usize)>,
    /// Why the last analysis failed.
    pub review_error: Option<String>,
}

impl App {
    /// The next number of the board's random sequence (for a random
    /// arrangement).
    fn random(&mut self) -> u64 {
        self.seed = self
            .seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.seed >> 33
    }
}

/// State shared by the request threads and the engine thread.
pub struct Shared {
    app: Mutex<App>,
    /// Mirrors the session's generation for the engine's cancel check.
    pub generation: AtomicU64,
    /// The pages' event streams.
    pub events: Hub,
    /// The engine command (fixed on the command line).
    pub engine_cmd: EngineCommand,
    /// How long past its time the engine may think.
    pub grace: Duration,
    allowed_hosts: Vec<String>,
    /// On 0.0.0.0 / `::`: the port, and any IP-literal `Host` with it is ours.
    wildcard_port: Option<u16>,
    /// Set when the server stops.
    pub stop: AtomicBool,
    /// Pages listening on the event stream now.
    pub pages: AtomicUsize,
    /// Bumped whenever the last page leaves or a page arrives: the pause
    /// after [`crate::Tuning::away_grace`] happens only if nothing came
    /// between.
    pub page_epoch: AtomicU64,
    /// Mirrors `App::away` for the engine's cancel check.
    pub away: AtomicBool,
    /// Timings.
    pub tuning: Tuning,
    /// The secret of the board's own pages (their event streams).
    pub token: PageToken,
}

/// Locks `m`, also after a thread panicked holding it.
pub fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Shared {
    /// New shared state; `allowed_hosts` are the `Host` values accepted.
    pub fn new(
        engine_cmd: EngineCommand,
        grace: Duration,
        allowed_hosts: Vec<String>,
        wildcard_port: Option<u16>,
        tuning: Tuning,
    ) -> Shared {
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(7, |d| d.as_nanos() as u64);
        Shared {
            app: Mutex::new(App {
                session: Session::default(),
                engine: None,
                thinking: false,
                game_id: 0,
                status: EngineStatus::default(),
                analysis: None,
                last_eval: None,
                restarts: 0,
                down: false,
                seed,
                away: false,
                loaded: Vec::new(),
                review: None,
                analysing: None,
                review_error: None,
            }),
            generation: AtomicU64::new(0),
            events: Hub::new(),
            engine_cmd,
            grace,
            allowed_hosts,
            wildcard_port,
            stop: AtomicBool::new(false),
            pages: AtomicUsize::new(0),
            page_epoch: AtomicU64::new(0),
            away: AtomicBool::new(false),
            tuning,
            token: PageToken::new(),
        }
    }

    /// The board's state, locked.
    pub fn app(&self) -> MutexGuard<'_, App> {
        lock(&self.app)
    }

    /// Publishes the session's generation to the engine's cancel check.
    pub fn publish_generation(&self, app: &App) {
        self.generation
            .store(app.session.generation, Ordering::SeqCst);
    }

    /// Whether `host` (a `Host` value, or an `Origin` without its scheme)
    /// is this server: one of its own names, or on 0.0.0.0 / `::` an IP
    /// literal with its port. A name is never accepted that way (DNS
    /// rebinding goes through names).
    pub fn is_own_host(&self, host: &str) -> bool {
        self.allowed_hosts
            .iter()
            .any(|a| a.eq_ignore_ascii_case(host))
            || self.wildcard_port.is_some_and(|p| {
                host.parse::<std::net::SocketAddr>()
                    .is_ok_and(|a| a.port() == p)
            })
    }
}

/// What a call answers.
#[derive(Clone, Debug)]
pub enum Reply {
    /// Done.
    Done,
    /// The destinations of the piece on `from`.
    Destinations(Square, Vec<Destination>),
    /// A move or pass was played, with the events it caused.
    Played(Vec<Event>),
    /// Plies taken back.
    Undone(usize),
    /// The answer to a draw offer.
    Draw(DrawAnswer),
    /// A position of the record.
    Position(Box<Stepped>),
    /// An analysis started.
    AnalysisStarted,
    /// The other player is asked (two humans).
    Asked(Ask),
    /// The other player answered.
    Answered(Answered),
    /// The engine is started afresh.
    EngineRestarted,
}

/// Runs `call` against the board. `render` makes the HTTP edge's answer
/// from the result while the board is still locked (the state it shows
/// is the one the call left); then the pages are told of any change and
/// the engine's turn starts if it is to move.
pub fn run<T>(
    shared: &Arc<Shared>,
    call: Call,
    render: impl FnOnce(&Result<Reply, ApiError>, &App) -> T,
) -> T {
    let mut app = shared.app();
    let before = app.session.generation;
    let resets = matches!(call, Call::NewGame(_) | Call::OpenRecord { .. });
    let announce = resets || matches!(call, Call::Setup { .. } | Call::Draw | Call::Analyse);
    let undo = matches!(call, Call::Undo | Call::Answer { .. });
    let announce = announce || matches!(call, Call::RestartEngine);
    let result = dispatch(shared, &mut app, call);
    if resets && result.is_ok() {
        app.game_id += 1;
        app.analysis = None;
        app.last_eval = None;
        app.down = false;
        app.restarts = 0;
        app.review = None;
        app.review_error = None;
        if app.status.state != EngineState::Thinking {
            app.status.state = EngineState::Idle;
            app.status.message.clear();
        }
    }
    if let (true, Ok(Reply::Undone(_) | Reply::Answered(Answered::Undone(_)))) = (undo, &result) {
        app.down = false;
        // The engine's report was of a position that is gone.
        app.analysis = None;
        app.last_eval = None;
    }
    let changed = app.session.generation != before;
    shared.publish_generation(&app);
    let answer = render(&result, &app);
    if changed || announce {
        shared.events.state(&app);
    }
    drop(app);
    engine::turns::schedule(shared);
    answer
}

fn dispatch(shared: &Arc<Shared>, app: &mut App, call: Call) -> Result<Reply, ApiError> {
    let s = &mut app.session;
    Ok(match call {
        Call::NewGame(settings) => {
            s.new_game(settings);
            Reply::Done
        }
        Call::Setup { side, choice } => {
            let random = app.random();
            app.session.choose_setup(side, choice, random)?;
            Reply::Done
        }
        Call::Moves { from } => Reply::Destinations(from, s.destinations(from)?),
        Call::Move(mv) => Reply::Played(s.play_human(mv)?),
        Call::Pass => Reply::Played(s.play_human(janggi_core::Move::PASS)?),
        Call::Undo => match s.ask_undo()? {
            Some(n) => Reply::Undone(n),
            None => Reply::Asked(Ask::Undo),
        },
        Call::Answer { accept } => Reply::Answered(s.answer(accept)?),
        Call::RestartEngine => {
            engine::turns::restart(app);
            Reply::EngineRestarted
        }
        Call::Resign => {
            s.resign()?;
            Reply::Done
        }
        Call::Draw => {
            let eval = app.last_eval;
            Reply::Draw(app.session.offer_draw(eval)?)
        }
        Call::Position { ply } => Reply::Position(Box::new(s.position_at(ply)?)),
        Call::OpenRecord { index } => {
            open_record(app, index)?;
            Reply::Done
        }
        Call::Analyse => {
            engine::analysis::start(shared, app)?;
            Reply::AnalysisStarted
        }
    })
}

/// `index` of the loaded file becomes the board's game (two humans;
/// step through it, analyse it, play on).
fn open_record(app: &mut App, index: Option<u64>) -> Result<(), ApiError> {
    let n = app.loaded.len();
    if n == 0 {
        return Err(crate::session::PhaseError::NoRecordLoaded.into());
    }
    let record = index
        .and_then(|i| usize::try_from(i).ok())
        .and_then(|i| app.loaded.get(i))
        .ok_or(ApiError::NoSuchGame { games: n })?;
    let mut s = Session::from_record(record)?;
    s.generation = app.session.generation + 1;
    app.session = s;
    Ok(())
}

/// An uploaded record file: its games are kept for opening (the current
/// game is not touched) and listed.
///
/// # Errors
/// [`ApiError::NoGame`] when not one game could be read.
pub fn load_records(shared: &Shared, bytes: &[u8]) -> Result<Vec<Listing>, ApiError> {
    let (games, list) = records::read_file(bytes)?;
    shared.app().loaded = games;
    Ok(list)
}

/// The current game as a file.
///
/// # Errors
/// The game has not started, or GIB cannot say it.
pub fn save_record(shared: &Shared, format: RecordFormat) -> Result<SavedFile, ApiError> {
    let app = shared.app();
    records::save(&app.session, app.status.name.as_deref(), format)
}

/// The clock's watch: ends the game on time when the side to move lets
/// its byoyomi run out (called a few times a second).
pub fn tick(shared: &Shared) {
    let mut app = shared.app();
    engine::turns::watch_idle(shared, &mut app);
    if app.session.flag_fall(std::time::Instant::now()) {
        shared.publish_generation(&app);
        shared.events.state(&app);
    }
}
