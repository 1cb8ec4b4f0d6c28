//! The HTTP side: routes, the Host/Origin check, JSON bodies, server-sent
//! events, and the engine's turns on a worker thread.

use crate::engine::{EngineCommand, Player};
use crate::session::{ApiError, Session};
use crate::Tuning;
use janggi_analysis::{AnalysisError, Eval, Evaluator, GameAnalysis, Mark, Score};
use janggi_core::game::Rules;
use janggi_core::{Color, Notation};
use janggi_match::engine_process::{EngineProcess, EngineScore, Info, ProcessError, Think};
use janggi_records::Record;
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, SyncSender, TrySendError};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread;
use std::time::Duration;
use tiny_http::{Header, Method, Request, Response, StatusCode};

const INDEX_HTML: &str = include_str!("../assets/index.html");
const APP_JS: &str = include_str!("../assets/app.js");
const STYLE_CSS: &str = include_str!("../assets/style.css");

/// Largest accepted request body.
const MAX_BODY: u64 = 64 * 1024;
/// Largest record file the page may upload.
const MAX_RECORD_FILE: u64 = 8 * 1024 * 1024;
/// Most games kept from one uploaded file.
const MAX_LOADED_GAMES: usize = 2000;
/// Most pages listening at once.
const MAX_SUBSCRIBERS: usize = 32;
/// Engine restarts in a row before the board gives up on it.
const MAX_RESTARTS: u32 = 3;

/// The engine's state as the page shows it.
#[derive(Clone, Debug, Default)]
struct EngineStatus {
    state: &'static str,
    message: String,
    name: Option<String>,
    note: Option<String>,
    /// Crashes or hangs noticed in this server's life.
    crashes: u32,
    /// The last one, for the page.
    last_crash: Option<String>,
}

struct App {
    session: Session,
    engine: Option<Player>,
    thinking: bool,
    /// Bumped by every new game (the engine is configured per game).
    game_id: u64,
    status: EngineStatus,
    /// The last `info` report as JSON.
    analysis: Option<Value>,
    /// The last evaluation, centipawns from Cho's side.
    last_eval: Option<i32>,
    restarts: u32,
    /// The engine gave up (too many crashes, or an illegal move).
    down: bool,
    seed: u64,
    /// Every page went away (its event stream closed): the engine does
    /// not think and the clock is stopped until a page comes back.
    away: bool,
    /// The games of the last record file the page sent.
    loaded: Vec<Record>,
    /// The analysis of the current game, once run.
    review: Option<Review>,
    /// An analysis in progress: positions done, of how many.
    analysing: Option<(usize, usize)>,
    /// Why the last analysis failed.
    review_error: Option<String>,
}

/// A finished analysis, for the game it was made of.
struct Review {
    game_id: u64,
    /// The moves analysed (UCI), so it is shown only while the record
    /// still begins with them.
    uci: Vec<String>,
    analysis: GameAnalysis,
    svg: String,
}

/// State shared by the request threads and the engine thread.
pub struct Shared {
    app: Mutex<App>,
    generation: AtomicU64,
    version: AtomicU64,
    subscribers: Mutex<Vec<SyncSender<String>>>,
    engine_cmd: EngineCommand,
    grace: Duration,
    allowed_hosts: Vec<String>,
    /// On 0.0.0.0 / `::`: the port, and any IP-literal `Host` with it is ours.
    wildcard_port: Option<u16>,
    /// Set when the server stops.
    pub stop: AtomicBool,
    /// Pages listening on the event stream now.
    pages: AtomicUsize,
    /// Bumped whenever the last page leaves or a page arrives: the pause
    /// after [`crate::Tuning::away_grace`] happens only if nothing came
    /// between.
    page_epoch: AtomicU64,
    /// Mirrors `App::away` for the engine's cancel check.
    away: AtomicBool,
    tuning: Tuning,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
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
                status: EngineStatus {
                    state: "idle",
                    ..EngineStatus::default()
                },
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
            version: AtomicU64::new(1),
            subscribers: Mutex::new(Vec::new()),
            engine_cmd,
            grace,
            allowed_hosts,
            wildcard_port,
            stop: AtomicBool::new(false),
            pages: AtomicUsize::new(0),
            page_epoch: AtomicU64::new(0),
            away: AtomicBool::new(false),
            tuning,
        }
    }

    /// The page's view; `version` orders views made at different times
    /// (a reply to a POST may reach the page after a newer pushed state).
    fn full_state(&self, app: &App) -> Value {
        let mut v = app.session.view();
        if let Some(obj) = v.as_object_mut() {
            obj.insert(
                "version".into(),
                json!(self.version.fetch_add(1, Ordering::SeqCst)),
            );
            obj.insert(
                "engine".into(),
                json!({
                    "state": app.status.state,
                    "message": app.status.message,
                    "name": app.status.name,
                    "note": app.status.note,
                    "thinking": app.thinking,
                    "crashes": app.status.crashes,
                    "lastCrash": app.status.last_crash,
                }),
            );
            obj.insert(
                "analysis".into(),
                app.analysis.clone().unwrap_or(Value::Null),
            );
            obj.insert("away".into(), json!(app.away));
            obj.insert("review".into(), review_json(app));
        }
        v
    }

    fn broadcast(&self, event: &str, data: &Value) {
        let text = format!("event: {event}\ndata: {data}\n\n");
        lock(&self.subscribers).retain(|tx| match tx.try_send(text.clone()) {
            Ok(()) | Err(TrySendError::Full(_)) => true,
            Err(TrySendError::Disconnected(_)) => false,
        });
    }

    fn broadcast_state(&self, app: &App) {
        self.broadcast("state", &self.full_state(app));
    }
}

/// Serves one request (on its own thread).
pub fn handle(shared: &Arc<Shared>, mut req: Request) {
    if !origin_ok(shared, &req) {
        let _ = req.respond(json_response(
            403,
            &json!({"error": {"code": "forbidden", "en": "this server answers only its own page (Host/Origin)", "ko": "이 서버의 페이지에서만 쓸 수 있어요"}}),
        ));
        return;
    }
    let url = req.url().split('?').next().unwrap_or("").to_string();
    let method = req.method().clone();
    let response = match (&method, url.as_str()) {
        (Method::Get, "/") | (Method::Get, "/index.html") => {
            text_response(INDEX_HTML, "text/html; charset=utf-8")
        }
        (Method::Get, "/app.js") => text_response(APP_JS, "text/javascript; charset=utf-8"),
        (Method::Get, "/style.css") => text_response(STYLE_CSS, "text/css; charset=utf-8"),
        (Method::Get, "/favicon.ico") => Response::from_data(Vec::new()).with_status_code(204),
        (Method::Get, "/fonts/janggi-board.ttf") => {
            let mut r = Response::from_data(crate::font::FONT_TTF.to_vec());
            for h in content_type("font/ttf") {
                r.add_header(h);
            }
            r
        }
        (Method::Get, "/fonts/LICENSE.txt") => {
            text_response(crate::font::FONT_LICENSE, "text/plain; charset=utf-8")
        }
        (Method::Get, "/api/records/save") => {
            let query = req.url().split_once('?').map_or("", |(_, q)| q).to_string();
            let app = lock(&shared.app);
            match save_record(&app, &query) {
                Ok(r) => r,
                Err(e) => json_response(e.status(), &e.body()),
            }
        }
        (Method::Post, "/api/records/parse") => match read_bytes(&mut req, MAX_RECORD_FILE) {
            Ok(bytes) => parse_records(shared, &bytes),
            Err(e) => json_response(e.status(), &e.body()),
        },
        (Method::Get, "/api/state") => {
            let app = lock(&shared.app);
            json_response(200, &shared.full_state(&app))
        }
        (Method::Get, "/api/events") => {
            serve_events(shared, req);
            return;
        }
        (Method::Post, path) if path.starts_with("/api/") => match read_json(&mut req) {
            Ok(body) => api(shared, path, &body),
            Err(e) => json_response(e.status(), &e.body()),
        },
        (
            _,
            "/"
            | "/index.html"
            | "/app.js"
            | "/style.css"
            | "/api/state"
            | "/api/events"
            | "/api/records/save"
            | "/fonts/janggi-board.ttf",
        ) => json_response(
            405,
            &json!({"error": {"code": "methodNotAllowed", "en": "method not allowed", "ko": "허용되지 않는 요청이에요"}}),
        ),
        _ => json_response(
            404,
            &json!({"error": {"code": "notFound", "en": format!("no such page: {url}"), "ko": "없는 페이지예요"}}),
        ),
    };
    let _ = req.respond(response);
}

fn header(req: &Request, name: &'static str) -> Option<String> {
    req.headers()
        .iter()
        .find(|h| h.field.equiv(name))
        .map(|h| h.value.as_str().to_string())
}

/// Whether `host` (a `Host` value) is an IP literal with our port: what a
/// browser on another machine sends to a server on 0.0.0.0. A name is
/// never accepted that way (DNS rebinding goes through names).
fn ip_host_with_port(host: &str, port: u16) -> bool {
    host.parse::<std::net::SocketAddr>()
        .is_ok_and(|a| a.port() == port)
}

fn origin_ok(shared: &Shared, req: &Request) -> bool {
    let allowed = |h: &str| {
        shared
            .allowed_hosts
            .iter()
            .any(|a| a.eq_ignore_ascii_case(h))
            || shared
                .wildcard_port
                .is_some_and(|p| ip_host_with_port(h, p))
    };
    let Some(host) = header(req, "Host") else {
        return false;
    };
    if !allowed(host.trim()) {
        return false;
    }
    match header(req, "Origin") {
        None => true,
        Some(o) => o
            .trim()
            .strip_prefix("http://")
            .is_some_and(|h| allowed(h.trim_end_matches('/'))),
    }
}

fn read_bytes(req: &mut Request, max: u64) -> Result<Vec<u8>, ApiError> {
    let mut buf = Vec::new();
    req.as_reader()
        .take(max + 1)
        .read_to_end(&mut buf)
        .map_err(|e| ApiError::Bad(format!("cannot read the body: {e}")))?;
    if buf.len() as u64 > max {
        return Err(ApiError::Bad(format!(
            "the body is too large (at most {} KiB)",
            max / 1024
        )));
    }
    Ok(buf)
}

fn read_json(req: &mut Request) -> Result<Value, ApiError> {
    let buf = read_bytes(req, MAX_BODY)?;
    if buf.iter().all(u8::is_ascii_whitespace) {
        return Ok(json!({}));
    }
    let v: Value =
        serde_json::from_slice(&buf).map_err(|e| ApiError::Bad(format!("bad JSON: {e}")))?;
    if !v.is_object() {
        return Err(ApiError::Bad("the body must be a JSON object".into()));
    }
    Ok(v)
}

fn content_type(value: &str) -> Vec<Header> {
    [
        Header::from_bytes(&b"Content-Type"[..], value.as_bytes()).ok(),
        Header::from_bytes(&b"Cache-Control"[..], &b"no-store"[..]).ok(),
        Header::from_bytes(&b"X-Content-Type-Options"[..], &b"nosniff"[..]).ok(),
    ]
    .into_iter()
    .flatten()
    .collect()
}

fn text_response(body: &str, ctype: &str) -> Response<std::io::Cursor<Vec<u8>>> {
    let mut r = Response::from_data(body.as_bytes().to_vec());
    for h in content_type(ctype) {
        r.add_header(h);
    }
    r
}

fn json_response(status: u16, v: &Value) -> Response<std::io::Cursor<Vec<u8>>> {
    text_response(&v.to_string(), "application/json; charset=utf-8")
        .with_status_code(StatusCode(status))
}

fn api(shared: &Arc<Shared>, path: &str, body: &Value) -> Response<std::io::Cursor<Vec<u8>>> {
    let mut app = lock(&shared.app);
    let seed = {
        app.seed = app
            .seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        app.seed >> 33
    };
    let before = app.session.generation;
    let result: Result<Value, ApiError> = match path {
        "/api/new" => app.session.new_game(body).map(|()| json!({"ok": true})),
        "/api/setup" => app
            .session
            .choose_setup(body, seed)
            .map(|()| json!({"ok": true})),
        "/api/moves" => app.session.destinations(body),
        "/api/move" => app
            .session
            .play_json(body)
            .map(|ev| json!({"ok": true, "events": ev})),
        "/api/pass" => app
            .session
            .pass(body)
            .map(|ev| json!({"ok": true, "events": ev})),
        "/api/undo" => app.session.undo().map(|n| json!({"ok": true, "undone": n})),
        "/api/resign" => app.session.resign().map(|()| json!({"ok": true})),
        "/api/draw" => {
            let eval = app.last_eval;
            app.session.offer_draw(eval).map(|a| {
                let why = app.session.draw_answer;
                json!({"ok": true, "accepted": a, "reason": why.map(|w| w.reason.name()), "ko": why.map(|w| w.reason.ko()), "en": why.map(|w| w.reason.en())})
            })
        }
        "/api/position" => app.session.position_at(body),
        "/api/records/open" => open_record(&mut app, body),
        "/api/analyse" => start_analysis(shared, &mut app),
        _ => Err(ApiError::Bad(format!("no such call: {path}"))),
    };
    if matches!(path, "/api/new" | "/api/records/open") && result.is_ok() {
        app.game_id += 1;
        app.analysis = None;
        app.last_eval = None;
        app.down = false;
        app.restarts = 0;
        app.review = None;
        app.review_error = None;
        if app.status.state != "thinking" {
            app.status.state = "idle";
            app.status.message.clear();
        }
    }
    if path == "/api/undo" && result.is_ok() {
        app.down = false;
    }
    let changed = app.session.generation != before;
    shared
        .generation
        .store(app.session.generation, Ordering::SeqCst);
    let response = match result {
        Ok(mut v) => {
            if let Some(o) = v.as_object_mut() {
                o.insert("state".into(), shared.full_state(&app));
            }
            json_response(200, &v)
        }
        Err(e) => json_response(e.status(), &e.body()),
    };
    if changed
        || matches!(
            path,
            "/api/setup" | "/api/new" | "/api/draw" | "/api/records/open" | "/api/analyse"
        )
    {
        shared.broadcast_state(&app);
    }
    drop(app);
    schedule(shared);
    response
}

/// The event stream: tiny_http parses the request; the response head is
/// written here and every event is flushed as it comes (tiny_http's own
/// chunked writer would hold small events back in its buffer).
fn serve_events(shared: &Arc<Shared>, req: Request) {
    let (tx, rx) = mpsc::sync_channel::<String>(256);
    {
        let mut subs = lock(&shared.subscribers);
        if subs.len() >= MAX_SUBSCRIBERS {
            drop(subs);
            let _ = req.respond(json_response(
                503,
                &json!({"error": {"code": "busy", "en": "too many pages are open", "ko": "열린 페이지가 너무 많아요"}}),
            ));
            return;
        }
        subs.push(tx);
    }
    let first = {
        let app = lock(&shared.app);
        format!("event: state\ndata: {}\n\n", shared.full_state(&app))
    };
    let _page = PageGuard::new(shared);
    let mut w = req.into_writer();
    let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n";
    if w.write_all(head.as_bytes())
        .and_then(|()| w.write_all(first.as_bytes()))
        .and_then(|()| w.flush())
        .is_err()
    {
        return;
    }
    loop {
        if shared.stop.load(Ordering::SeqCst) {
            return;
        }
        let chunk = match rx.recv_timeout(shared.tuning.ping) {
            Ok(text) => text,
            Err(RecvTimeoutError::Timeout) => ": ping\n\n".to_string(),
            Err(RecvTimeoutError::Disconnected) => return,
        };
        if w.write_all(chunk.as_bytes())
            .and_then(|()| w.flush())
            .is_err()
        {
            // The tab was closed: the sender is dropped from the list at the
            // next broadcast.
            return;
        }
    }
}

/// Starts the engine's turn on a worker thread if the engine is to move.
pub fn schedule(shared: &Arc<Shared>) {
    let mut app = lock(&shared.app);
    if app.thinking
        || app.down
        || app.away
        || shared.stop.load(Ordering::SeqCst)
        || !app.session.engine_to_move()
    {
        return;
    }
    app.thinking = true;
    drop(app);
    let s = Arc::clone(shared);
    let spawned = thread::Builder::new()
        .name("engine-turn".into())
        .spawn(move || engine_loop(&s));
    if spawned.is_err() {
        let mut app = lock(&shared.app);
        app.thinking = false;
        app.status.state = "down";
        app.status.message = "cannot start a thread for the engine".into();
    }
}

fn info_json(info: &Info, side: Color, ply: usize) -> (Value, Option<i32>) {
    let sign = if side == Color::Cho { 1 } else { -1 };
    let cho_cp = info.score.map(|s| sign * s.to_cp());
    let mate = match info.score {
        Some(EngineScore::Mate(m)) => Some(m * sign),
        _ => None,
    };
    let wdl = info.wdl.map(|[w, d, l]| {
        if side == Color::Cho {
            [w, d, l]
        } else {
            [l, d, w]
        }
    });
    (
        json!({
            "ply": ply,
            "depth": info.depth,
            "cp": cho_cp,
            "mate": mate,
            "wdl": wdl,
            "nodes": info.nodes,
            "pv": info.pv,
        }),
        cho_cp,
    )
}

fn engine_loop(shared: &Arc<Shared>) {
    loop {
        let (gen, position, go, settings, game_id, engine, side, ply) = {
            let mut app = lock(&shared.app);
            if shared.stop.load(Ordering::SeqCst)
                || app.down
                || app.away
                || !app.session.engine_to_move()
            {
                app.thinking = false;
                if app.status.state == "thinking" {
                    app.status.state = "idle";
                }
                shared.broadcast_state(&app);
                return;
            }
            let engine = app.engine.take();
            (
                app.session.generation,
                app.session.position_line(),
                app.session.go(std::time::Instant::now()),
                app.session.settings.clone(),
                app.game_id,
                engine,
                app.session.game.side_to_move(),
                app.session.record.len(),
            )
        };
        let mut engine = match engine {
            Some(e) => e,
            None => match Player::start(&shared.engine_cmd, &shared.stop) {
                Ok(e) => e,
                Err(err) => {
                    let spawn = matches!(err, ProcessError::Spawn(_));
                    if engine_failed(shared, &err.to_string(), spawn) {
                        return;
                    }
                    continue;
                }
            },
        };
        if engine.configured != Some(game_id) {
            match engine.configure(&settings, &shared.stop) {
                Ok(note) => {
                    engine.configured = Some(game_id);
                    let mut app = lock(&shared.app);
                    app.status.note = note;
                    app.status.name = engine.name();
                }
                Err(err) => {
                    drop(engine);
                    if engine_failed(shared, &err.to_string(), false) {
                        return;
                    }
                    continue;
                }
            }
        }
        {
            let mut app = lock(&shared.app);
            app.status.state = "thinking";
            shared.broadcast_state(&app);
        }
        let cancelled = || {
            shared.away.load(Ordering::SeqCst) || shared.generation.load(Ordering::SeqCst) != gen
        };
        let mut on_info = |info: &Info| {
            // Only the best line of a MultiPV search is the engine's view;
            // lines without a score or a PV say nothing for the page.
            if !info.is_main_line()
                || info.string.is_some()
                || (info.score.is_none() && info.pv.is_empty())
            {
                return;
            }
            let (v, cp) = info_json(info, side, ply);
            let mut app = lock(&shared.app);
            if app.session.generation == gen {
                app.analysis = Some(v.clone());
                if cp.is_some() {
                    app.last_eval = cp;
                }
                drop(app);
                shared.broadcast("info", &v);
            }
        };
        let think = engine.think(
            &position,
            &go,
            shared.grace,
            &shared.stop,
            &cancelled,
            &mut on_info,
        );
        match think {
            Think::Move(reply) | Think::Late(reply) => {
                let best = reply.bestmove;
                let mut app = lock(&shared.app);
                app.engine = Some(engine);
                app.restarts = 0;
                if app.session.generation != gen {
                    continue;
                }
                let mv = app.session.game.position().parse_move(&best, Notation::Uci);
                let played = match mv {
                    Ok(mv) => app.session.play(mv, true).map_err(|e| e.to_string()),
                    Err(e) => Err(e.to_string()),
                };
                match played {
                    Ok(_) => {
                        let eval = app.last_eval;
                        if let Some(p) = app.session.record.last_mut() {
                            p.eval = eval;
                        }
                        app.session.generation += 1;
                        shared
                            .generation
                            .store(app.session.generation, Ordering::SeqCst);
                        shared.broadcast_state(&app);
                    }
                    Err(why) => {
                        app.down = true;
                        app.thinking = false;
                        app.status.state = "illegal";
                        app.status.message = format!("엔진이 둘 수 없는 수를 보냈어요 / the engine sent a move that is not legal here: {best:?} ({why})");
                        shared.broadcast_state(&app);
                        return;
                    }
                }
            }
            // Stopped and its answer dropped: the engine is idle again.
            Think::Cancelled(_) => {
                lock(&shared.app).engine = Some(engine);
            }
            // The server stops: the engine goes with it.
            Think::Aborted => {}
            Think::NoReply(waited) => {
                drop(engine);
                let why = format!(
                    "no bestmove in {} ms, not even after stop",
                    waited.as_millis()
                );
                if engine_failed(shared, &why, false) {
                    return;
                }
            }
            Think::Crashed(status, _) => {
                drop(engine);
                if engine_failed(shared, &format!("the engine stopped ({status})"), false) {
                    return;
                }
            }
        }
    }
}

/// Records a crash or hang (`err` says which); returns true when the
/// board gives up (too many in a row, or it cannot be started at all).
fn engine_failed(shared: &Shared, err: &str, cannot_start: bool) -> bool {
    let mut app = lock(&shared.app);
    app.restarts += 1;
    let give_up = app.restarts > MAX_RESTARTS || cannot_start;
    if give_up {
        app.down = true;
        app.thinking = false;
        app.status.state = "down";
        app.status.message = format!("엔진을 쓸 수 없어요 / engine unavailable: {err}");
    } else {
        app.status.state = "restarting";
    }
    app.status.crashes += 1;
    app.status.last_crash = Some(format!(
        "엔진이 멈춰서 다시 시작했어요 / the engine stopped and is restarted, the game is kept: {err}"
    ));
    let note =
        json!({"crashes": app.status.crashes, "message": app.status.last_crash, "gaveUp": give_up});
    shared.broadcast("engine", &note);
    shared.broadcast_state(&app);
    give_up
}

/// The clock's watch: ends the game on time when the side to move lets
/// its byoyomi run out (called a few times a second).
pub fn tick(shared: &Arc<Shared>) {
    let mut app = lock(&shared.app);
    if app.session.flag_fall(std::time::Instant::now()) {
        shared
            .generation
            .store(app.session.generation, Ordering::SeqCst);
        shared.broadcast_state(&app);
    }
}

/// Counts a page's event stream while it is open: when the last one
/// closes and none is back within [`crate::Tuning::away_grace`], the
/// engine and the clock stop ([`page_gone`]); the first one back starts
/// them again ([`page_back`]).
struct PageGuard<'a>(&'a Arc<Shared>);

impl<'a> PageGuard<'a> {
    fn new(shared: &'a Arc<Shared>) -> PageGuard<'a> {
        shared.page_epoch.fetch_add(1, Ordering::SeqCst);
        if shared.pages.fetch_add(1, Ordering::SeqCst) == 0 {
            page_back(shared);
        }
        PageGuard(shared)
    }
}

impl Drop for PageGuard<'_> {
    fn drop(&mut self) {
        let shared = self.0;
        if shared.pages.fetch_sub(1, Ordering::SeqCst) != 1 {
            return;
        }
        let epoch = shared.page_epoch.fetch_add(1, Ordering::SeqCst) + 1;
        let grace = shared.tuning.away_grace;
        let s = Arc::clone(shared);
        let later = move || {
            thread::sleep(grace);
            page_gone(&s, epoch);
        };
        if grace.is_zero()
            || thread::Builder::new()
                .name("page-grace".into())
                .spawn(later)
                .is_err()
        {
            page_gone(shared, epoch);
        }
    }
}

/// No page is watching any more (the tab was closed or lost its
/// connection): the engine stops thinking and the side to move's clock
/// stops; the game is kept as it is.
/// Only if still no page is there and none came and went since the
/// last one left (`epoch`); checked under the lock [`page_back`] takes.
fn page_gone(shared: &Arc<Shared>, epoch: u64) {
    let mut app = lock(&shared.app);
    if shared.stop.load(Ordering::SeqCst)
        || shared.pages.load(Ordering::SeqCst) != 0
        || shared.page_epoch.load(Ordering::SeqCst) != epoch
    {
        return;
    }
    app.away = true;
    shared.away.store(true, Ordering::SeqCst);
    app.session.pause_clock(std::time::Instant::now());
    shared
        .generation
        .store(app.session.generation, Ordering::SeqCst);
}

/// A page is back: the clock runs again and the engine, if it is to
/// move, thinks again.
fn page_back(shared: &Arc<Shared>) {
    {
        let mut app = lock(&shared.app);
        if !app.away {
            return;
        }
        app.away = false;
        shared.away.store(false, Ordering::SeqCst);
        app.session.resume_clock(std::time::Instant::now());
    }
    schedule(shared);
}

fn mark_text(m: Option<Mark>) -> Option<&'static str> {
    m.map(|m| match m {
        Mark::Inaccuracy => "?!",
        Mark::Mistake => "?",
        Mark::Blunder => "??",
    })
}

/// The analysis for the page, while it is the current game's.
fn review_json(app: &App) -> Value {
    let running = app
        .analysing
        .map(|(done, total)| json!({"done": done, "total": total}));
    let Some(r) = app.review.as_ref().filter(|r| {
        r.game_id == app.game_id
            && r.uci.len() <= app.session.record.len()
            && r.uci
                .iter()
                .zip(&app.session.record)
                .all(|(a, b)| *a == b.uci)
    }) else {
        return json!({"running": running, "error": app.review_error});
    };
    let moves: Vec<Value> = r
        .analysis
        .moves
        .iter()
        .map(|m| {
            json!({
                "ply": m.ply,
                "mark": mark_text(m.mark),
                "markName": m.mark.map(Mark::name),
                "loss": (m.loss * 10.0).round() / 10.0,
                "after": m.after.eval_tag(),
                "best": m.best.as_ref().map(|b| &b.2),
            })
        })
        .collect();
    let side = |i: usize| {
        let s = &r.analysis.sides[i];
        json!({
            "accuracy": (s.accuracy * 10.0).round() / 10.0,
            "averageLoss": (s.average_loss * 10.0).round() / 10.0,
            "inaccuracies": s.marks[0],
            "mistakes": s.marks[1],
            "blunders": s.marks[2],
        })
    };
    json!({
        "running": running,
        "error": app.review_error,
        "moves": moves,
        "cho": side(0),
        "han": side(1),
        "svg": r.svg,
    })
}

/// `POST /api/analyse`: analyses the current game on a thread with a
/// second engine process of the same command (janggi-analysis, the
/// implementation `janggi-engine analyse` uses); progress and the result
/// reach the page as `state` events.
fn start_analysis(shared: &Arc<Shared>, app: &mut App) -> Result<Value, ApiError> {
    if app.analysing.is_some() {
        return Err(ApiError::Phase("an analysis is already running"));
    }
    if app.session.record.is_empty() {
        return Err(ApiError::Phase("there are no moves to analyse"));
    }
    let rec = app.session.to_record(None);
    let uci: Vec<String> = app.session.record.iter().map(|p| p.uci.clone()).collect();
    let game_id = app.game_id;
    app.analysing = Some((0, rec.plies.len() + 1));
    app.review_error = None;
    let s = Arc::clone(shared);
    let spawned = thread::Builder::new()
        .name("analysis".into())
        .spawn(move || {
            let result = AnalysisEngine::start(&s, &rec.rules).and_then(|mut e| {
                janggi_analysis::analyse(&rec, &mut e, &mut |done, total| {
                    let mut app = lock(&s.app);
                    app.analysing = Some((done, total));
                    s.broadcast("analysis", &json!({"done": done, "total": total}));
                    drop(app);
                })
            });
            let mut app = lock(&s.app);
            app.analysing = None;
            match result {
                Ok(analysis) => {
                    let svg = janggi_analysis::svg_graph(&analysis, "");
                    app.review = Some(Review {
                        game_id,
                        uci,
                        analysis,
                        svg,
                    });
                }
                Err(e) => {
                    app.review_error =
                        Some(format!("분석하지 못했어요 / the analysis failed: {e}"));
                }
            }
            s.broadcast_state(&app);
        });
    if spawned.is_err() {
        app.analysing = None;
        return Err(ApiError::Bad(
            "cannot start a thread for the analysis".into(),
        ));
    }
    Ok(json!({"ok": true, "started": true}))
}

fn record_summary(index: usize, r: &Record) -> Value {
    json!({
        "index": index,
        "ok": true,
        "cho": r.cho_player(),
        "han": r.han_player(),
        "event": r.tag_any(&["대회명", "Event"]),
        "date": r.tag_any(&["대국일자", "Date"]),
        "result": r.result.pgn(),
        "plies": r.plies.len(),
        "warnings": r.warnings.iter().map(ToString::to_string).collect::<Vec<_>>(),
    })
}

/// `POST /api/records/parse`: a GIB or PGN file's bytes (any encoding the
/// records crate reads). Lists its games (and why a broken one could not
/// be read); the current game is not touched.
fn parse_records(shared: &Arc<Shared>, bytes: &[u8]) -> Response<std::io::Cursor<Vec<u8>>> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        let e = ApiError::Bad("the file is empty".into());
        return json_response(e.status(), &e.body());
    }
    let games = janggi_records::read_any(bytes);
    let mut list = Vec::new();
    let mut good = Vec::new();
    for (i, g) in games.into_iter().take(MAX_LOADED_GAMES).enumerate() {
        match g {
            Ok(r) => {
                list.push(record_summary(good.len(), &r));
                good.push(r);
            }
            Err(e) => list.push(json!({"ok": false, "game": i + 1, "error": e.to_string()})),
        }
    }
    if good.is_empty() {
        let en = if list.is_empty() {
            "no game found: not a GIB or PGN record".to_string()
        } else {
            format!(
                "no game could be read: {}",
                list.iter()
                    .filter_map(|g| g["error"].as_str())
                    .take(3)
                    .collect::<Vec<_>>()
                    .join("; ")
            )
        };
        return json_response(
            422,
            &json!({"error": {"code": "noGame", "ko": "읽을 수 있는 대국이 없어요", "en": en}, "games": list}),
        );
    }
    let mut app = lock(&shared.app);
    app.loaded = good;
    json_response(200, &json!({"ok": true, "games": list}))
}

/// `POST /api/records/open {index}`: one game of the loaded file becomes
/// the board's game (two humans; step through it, analyse it, play on).
fn open_record(app: &mut App, body: &Value) -> Result<Value, ApiError> {
    let n = app.loaded.len();
    if n == 0 {
        return Err(ApiError::Phase("no record file is loaded"));
    }
    let i = body
        .get("index")
        .and_then(Value::as_u64)
        .filter(|&i| i < n as u64)
        .ok_or_else(|| ApiError::Bad(format!("`index` must be 0 … {}", n - 1)))?
        as usize;
    let mut s = Session::from_record(&app.loaded[i])?;
    s.generation = app.session.generation + 1;
    app.session = s;
    Ok(json!({"ok": true}))
}

/// `GET /api/records/save?format=gib|pgn`: the current game as a file.
fn save_record(app: &App, query: &str) -> Result<Response<std::io::Cursor<Vec<u8>>>, ApiError> {
    let format = query
        .split('&')
        .find_map(|kv| kv.strip_prefix("format="))
        .unwrap_or("pgn");
    if matches!(app.session.phase, crate::session::Phase::Setup { .. }) {
        return Err(ApiError::Phase("the game has not started"));
    }
    let rec = app.session.to_record(app.status.name.as_deref());
    let (data, ctype, name) = match format {
        "pgn" => (
            janggi_records::pgn::write_pgn(&rec, janggi_records::pgn::MoveStyle::San).into_bytes(),
            "application/x-chess-pgn; charset=utf-8",
            "janggi.pgn",
        ),
        "gib" => {
            let text = janggi_records::gib::write_gib(&rec)
                .map_err(|e| ApiError::Bad(format!("cannot write GIB: {e}")))?;
            (
                janggi_records::gib::encode_cp949(&text),
                "application/octet-stream",
                "janggi.gib",
            )
        }
        other => {
            return Err(ApiError::Bad(format!(
                "unknown format {other:?} (gib or pgn)"
            )))
        }
    };
    let mut r = Response::from_data(data);
    for h in content_type(ctype) {
        r.add_header(h);
    }
    if let Ok(h) = Header::from_bytes(
        &b"Content-Disposition"[..],
        format!("attachment; filename=\"{name}\"").as_bytes(),
    ) {
        r.add_header(h);
    }
    Ok(r)
}

/// The engine of the board's game analysis: a second process of the
/// board's engine command, driven by the match runner's
/// [`EngineProcess`], set up for the game's rules as the playing engine
/// is (`UCI_Variant` when the rules are a preset and the engine has it,
/// else this engine's rule options, else `UCI_Variant janggi`), each
/// position searched `go movetime N`. `janggi_analysis::analyse` runs
/// over it (the trait [`Evaluator`]), as `janggi-engine analyse` does.
struct AnalysisEngine {
    process: EngineProcess,
    shared: Arc<Shared>,
}

impl AnalysisEngine {
    fn start(shared: &Arc<Shared>, rules: &Rules) -> Result<AnalysisEngine, AnalysisError> {
        let start = |e: ProcessError| AnalysisError::Start(e.to_string());
        let timeout = crate::engine::HANDSHAKE_TIMEOUT;
        let launch = shared.engine_cmd.launch();
        let mut p = EngineProcess::start(&launch, "analysis", false, timeout, &shared.stop)
            .map_err(start)?;
        p.set_rules(rules).map_err(start)?;
        p.new_game(timeout, &shared.stop).map_err(start)?;
        Ok(AnalysisEngine {
            process: p,
            shared: Arc::clone(shared),
        })
    }
}

impl Evaluator for AnalysisEngine {
    fn evaluate(&mut self, fen: &str, moves: &[String]) -> Result<Eval, AnalysisError> {
        let mut position = format!("position fen {fen}");
        if !moves.is_empty() {
            position.push_str(" moves ");
            position.push_str(&moves.join(" "));
        }
        let ms = self.shared.tuning.analysis_movetime_ms;
        let think = self.process.think(
            &position,
            &format!("go movetime {ms}"),
            Duration::from_millis(ms) + self.shared.grace,
            self.shared.grace,
            &self.shared.stop,
        );
        match think {
            Think::Move(r) | Think::Late(r) => Ok(Eval {
                score: match r.score {
                    Some(EngineScore::Cp(c)) => Score::Cp(c),
                    Some(EngineScore::Mate(n)) => Score::Mate(n),
                    None => Score::Cp(0),
                },
                best: r.bestmove,
            }),
            other => Err(AnalysisError::NoAnswer(format!("{other:?}"))),
        }
    }
}
