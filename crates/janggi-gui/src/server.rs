//! The HTTP side: routes, the Host/Origin check, JSON bodies, server-sent
//! events, and the engine's turns on a worker thread.

use crate::engine::{Engine, EngineCommand, EngineError, Info};
use crate::session::{ApiError, Session, Settings};
use janggi_core::{Color, Notation};
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
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
/// Most pages listening at once.
const MAX_SUBSCRIBERS: usize = 32;
/// Engine restarts in a row before the board gives up on it.
const MAX_RESTARTS: u32 = 3;
/// SSE keep-alive interval.
const PING: Duration = Duration::from_secs(15);

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
    engine: Option<Engine>,
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
            }),
            generation: AtomicU64::new(0),
            version: AtomicU64::new(1),
            subscribers: Mutex::new(Vec::new()),
            engine_cmd,
            grace,
            allowed_hosts,
            wildcard_port,
            stop: AtomicBool::new(false),
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
        (_, "/" | "/index.html" | "/app.js" | "/style.css" | "/api/state" | "/api/events") => {
            json_response(
                405,
                &json!({"error": {"code": "methodNotAllowed", "en": "method not allowed", "ko": "허용되지 않는 요청이에요"}}),
            )
        }
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

fn read_json(req: &mut Request) -> Result<Value, ApiError> {
    let mut buf = Vec::new();
    req.as_reader()
        .take(MAX_BODY + 1)
        .read_to_end(&mut buf)
        .map_err(|e| ApiError::Bad(format!("cannot read the body: {e}")))?;
    if buf.len() as u64 > MAX_BODY {
        return Err(ApiError::Bad("the body is too large".into()));
    }
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
            app.session
                .offer_draw(eval)
                .map(|a| json!({"ok": true, "accepted": a}))
        }
        _ => Err(ApiError::Bad(format!("no such call: {path}"))),
    };
    if path == "/api/new" && result.is_ok() {
        app.game_id += 1;
        app.analysis = None;
        app.last_eval = None;
        app.down = false;
        app.restarts = 0;
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
    if changed || path == "/api/setup" || path == "/api/new" || path == "/api/draw" {
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
        let chunk = match rx.recv_timeout(PING) {
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

/// Rule options for engines that have them, from the rules' own text
/// (`bikjang=kjf repetition=forbid …`).
fn rule_options(settings: &Settings) -> Vec<(String, String)> {
    let map = |k: &str| match k {
        "bikjang" => Some("Bikjang"),
        "repetition" => Some("Repetition"),
        "scoring" => Some("Scoring"),
        "allowPass" => Some("AllowPass"),
        "moveLimit" => Some("MoveLimit"),
        "noCaptureLimit" => Some("NoCaptureLimit"),
        _ => None,
    };
    settings
        .rules
        .to_string()
        .split_whitespace()
        .filter_map(|kv| {
            let (k, v) = kv.split_once('=')?;
            Some((map(k)?.to_string(), v.to_string()))
        })
        .collect()
}

/// Sends the game's options: the variant or the rule options, the skill
/// level and WDL, then `ucinewgame`. Returns a note for the page when the
/// engine cannot play the chosen rules exactly.
fn configure(e: &mut Engine, settings: &Settings) -> Result<Option<String>, EngineError> {
    let mut note = None;
    let has_rules = e.option("Bikjang").is_some() && e.option("Repetition").is_some();
    let variant_opt = e.option("UCI_Variant");
    if let (Some(v), Some(opt)) = (settings.variant, &variant_opt) {
        e.send(&format!("setoption name {opt} value {v}"))?;
    } else if has_rules {
        for (k, v) in rule_options(settings) {
            if let Some(name) = e.option(&k) {
                e.send(&format!("setoption name {name} value {v}"))?;
            }
        }
    } else if let Some(opt) = &variant_opt {
        e.send(&format!("setoption name {opt} value janggi"))?;
        note = Some(
            "엔진은 Fairy-Stockfish의 janggi 규칙으로 둡니다 (판정은 고른 규칙으로) / the engine plays Fairy-Stockfish's janggi rules; the board referees with the chosen ones"
                .to_string(),
        );
    }
    if let Some(opt) = e.option("Skill Level") {
        e.send(&format!("setoption name {opt} value {}", settings.skill))?;
    }
    if let Some(opt) = e.option("UCI_ShowWDL") {
        e.send(&format!("setoption name {opt} value true"))?;
    }
    e.send("ucinewgame")?;
    e.sync()?;
    Ok(note)
}

fn info_json(info: &Info, side: Color, ply: usize) -> (Value, Option<i32>) {
    let sign = if side == Color::Cho { 1 } else { -1 };
    let cho_cp = info.cp.map(|c| c * sign).or_else(|| {
        info.mate
            .map(|m| sign * if m > 0 { 100_000 - m } else { -100_000 - m })
    });
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
            "mate": info.mate.map(|m| m * sign),
            "wdl": wdl,
            "nodes": info.nodes,
            "pv": info.pv,
        }),
        cho_cp,
    )
}

fn engine_loop(shared: &Arc<Shared>) {
    loop {
        let (gen, position, movetime, settings, game_id, engine, side, ply) = {
            let mut app = lock(&shared.app);
            if shared.stop.load(Ordering::SeqCst) || app.down || !app.session.engine_to_move() {
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
                app.session.settings.movetime_ms,
                app.session.settings.clone(),
                app.game_id,
                engine,
                app.session.game.side_to_move(),
                app.session.record.len(),
            )
        };
        let mut engine = match engine {
            Some(e) => e,
            None => match Engine::start(&shared.engine_cmd) {
                Ok(e) => e,
                Err(err) => {
                    if engine_failed(shared, &err) {
                        return;
                    }
                    continue;
                }
            },
        };
        if engine.configured != Some(game_id) {
            match configure(&mut engine, &settings) {
                Ok(note) => {
                    engine.configured = Some(game_id);
                    let mut app = lock(&shared.app);
                    app.status.note = note;
                    app.status.name.clone_from(&engine.name);
                }
                Err(err) => {
                    drop(engine);
                    if engine_failed(shared, &err) {
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
            shared.stop.load(Ordering::SeqCst) || shared.generation.load(Ordering::SeqCst) != gen
        };
        let mut on_info = |info: Info| {
            let (v, cp) = info_json(&info, side, ply);
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
        let result = engine.think(&position, movetime, shared.grace, &cancelled, &mut on_info);
        match result {
            Ok(best) => {
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
            Err(EngineError::Cancelled) => {
                lock(&shared.app).engine = Some(engine);
            }
            Err(err) => {
                drop(engine);
                if engine_failed(shared, &err) {
                    return;
                }
            }
        }
    }
}

/// Records a crash or hang; returns true when the board gives up.
fn engine_failed(shared: &Shared, err: &EngineError) -> bool {
    let mut app = lock(&shared.app);
    app.restarts += 1;
    let give_up = app.restarts > MAX_RESTARTS || matches!(err, EngineError::Spawn(_));
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
