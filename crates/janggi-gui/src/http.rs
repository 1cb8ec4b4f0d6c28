//! The board's routes: each request is checked (its `Host` and `Origin`
//! must be this server's, else 403), routed by method and path
//! ([`Route`]), its body read under a size limit and parsed once into a
//! typed request ([`Call`], [`RecordFormat`], a record file's bytes); the
//! board answers typed values that [`crate::view`] turns into the page's
//! JSON. The event stream is written here too; it is opened only with
//! the board's page token ([`crate::presence::PageToken`]). Nothing is
//! ever read from the file system: the page's files are embedded, so no
//! path can reach outside. The wire itself (limits, timeouts) is
//! [`crate::wire`]'s.

use crate::app::{self, Shared};
use crate::error::ApiError;
use crate::presence::PageGuard;
use crate::request::{
    Asset, BadRequest, Call, Method, RecordFormat, Route, MAX_BODY, MAX_RECORD_FILE,
};
use crate::view;
use crate::wire::{self, BodyError, Head, Response};
use serde_json::{json, Value};
use std::io::Write;
use std::net::TcpStream;
use std::sync::atomic::Ordering;
use std::sync::mpsc::RecvTimeoutError;
use std::sync::Arc;

const INDEX_HTML: &str = include_str!("../assets/index.html");
const APP_JS: &str = crate::assets::APP_JS;
const STYLE_CSS: &str = include_str!("../assets/style.css");

type Reply = Response;

/// Serves one request whose head was read; answers and closes.
pub fn handle(shared: &Arc<Shared>, mut stream: TcpStream, head: &Head) {
    if !origin_ok(shared, head) {
        wire::respond(stream, &error_response(&ApiError::Forbidden));
        return;
    }
    let (path, query) = head
        .target
        .split_once('?')
        .unwrap_or((head.target.as_str(), ""));
    let method = match head.method.as_str() {
        "GET" => Method::Get,
        "POST" => Method::Post,
        _ => Method::Other,
    };
    let response = match Route::parse(method, path) {
        Err(e) => error_response(&e.into()),
        Ok(Route::Asset(a)) => asset(a),
        Ok(Route::State) => {
            let app = shared.app();
            json_response(200, &shared.events.state_json(&app))
        }
        Ok(Route::Token) => json_response(200, &json!({"token": shared.token.as_str()})),
        Ok(Route::Events) => {
            serve_events(shared, stream, query);
            return;
        }
        Ok(Route::SaveRecord) => RecordFormat::from_query(query)
            .map_err(ApiError::from)
            .and_then(|format| app::save_record(shared, format))
            .map_or_else(
                |e| error_response(&e),
                |file| {
                    let mut r = with_type(file.data, file.content_type);
                    r.headers.push((
                        "Content-Disposition",
                        format!("attachment; filename=\"{}\"", file.file_name),
                    ));
                    r
                },
            ),
        Ok(Route::ParseRecords) => read_body(shared, &mut stream, head, MAX_RECORD_FILE)
            .and_then(|bytes| {
                if bytes.iter().all(u8::is_ascii_whitespace) {
                    return Err(BadRequest::EmptyFile.into());
                }
                app::load_records(shared, &bytes)
            })
            .map_or_else(
                |e| error_response(&e),
                |list| json_response(200, &view::listings(&list)),
            ),
        Ok(Route::Call(kind)) => {
            match read_body(shared, &mut stream, head, MAX_BODY)
                .and_then(|body| Call::parse(kind, &body).map_err(ApiError::from))
            {
                Err(e) => error_response(&e),
                Ok(call) => app::run(shared, call, |result, app| match result {
                    Ok(r) => json_response(
                        200,
                        &view::with_state(view::reply(r), shared.events.state_json(app)),
                    ),
                    Err(e) => error_response(e),
                }),
            }
        }
    };
    wire::respond(stream, &response);
}

/// The `Host` must be this server's (a browser always sends it; DNS
/// rebinding sends a foreign one); an `Origin`, when sent, must be
/// `http://` and this server too (another site's page posting here).
fn origin_ok(shared: &Shared, head: &Head) -> bool {
    let Some(host) = head.header("Host") else {
        return false;
    };
    if !shared.is_own_host(host) {
        return false;
    }
    match head.header("Origin") {
        None => true,
        Some(o) => o
            .strip_prefix("http://")
            .is_some_and(|h| shared.is_own_host(h.trim_end_matches('/'))),
    }
}

/// The body, at most `max` bytes, within the body timeout.
fn read_body(
    shared: &Shared,
    stream: &mut TcpStream,
    head: &Head,
    max: u64,
) -> Result<Vec<u8>, ApiError> {
    wire::read_body(stream, head, max, &shared.tuning.limits).map_err(|e| match e {
        BodyError::TooLarge(max) => BadRequest::TooLarge(max).into(),
        BodyError::Wire(w) => ApiError::Wire(w),
    })
}

fn content_type(value: &str) -> Vec<(&'static str, String)> {
    vec![
        ("Content-Type", value.to_string()),
        ("Cache-Control", "no-store".to_string()),
        ("X-Content-Type-Options", "nosniff".to_string()),
    ]
}

fn with_type(body: Vec<u8>, ctype: &str) -> Reply {
    Response {
        status: 200,
        headers: content_type(ctype),
        body,
    }
}

fn text_response(body: &str, ctype: &str) -> Reply {
    with_type(body.as_bytes().to_vec(), ctype)
}

fn json_response(status: u16, v: &Value) -> Reply {
    Response {
        status,
        ..text_response(&v.to_string(), "application/json; charset=utf-8")
    }
}

/// The JSON answer of a refusal (the path asked for is never in it).
pub fn error_response(e: &ApiError) -> Reply {
    let mut r = json_response(e.status(), &view::error(e));
    if e.status() == 503 {
        r.headers.push(("Retry-After", "1".to_string()));
    }
    r
}

fn asset(a: Asset) -> Reply {
    match a {
        Asset::Index => text_response(INDEX_HTML, "text/html; charset=utf-8"),
        Asset::AppJs => text_response(APP_JS, "text/javascript; charset=utf-8"),
        Asset::StyleCss => text_response(STYLE_CSS, "text/css; charset=utf-8"),
        Asset::Favicon => Response {
            status: 204,
            headers: Vec::new(),
            body: Vec::new(),
        },
        Asset::Font => with_type(crate::font::FONT_TTF.to_vec(), "font/ttf"),
        Asset::FontLicense => text_response(crate::font::FONT_LICENSE, "text/plain; charset=utf-8"),
    }
}

/// The `token=` of a query.
fn query_token(query: &str) -> &str {
    query
        .split('&')
        .find_map(|kv| kv.strip_prefix("token="))
        .unwrap_or("")
}

/// The event stream: only with the board's token (a foreign page's
/// `<img src=/api/events>` is refused and does not count as a page);
/// every event is written and flushed as it comes; the client is looked
/// at every ping and event (its stream ends when it has gone), and when
/// every slot is taken, the slots of clients gone since are freed first.
fn serve_events(shared: &Arc<Shared>, mut stream: TcpStream, query: &str) {
    if !shared.token.matches(query_token(query)) {
        wire::respond(stream, &error_response(&ApiError::NoToken));
        return;
    }
    let probe = stream.try_clone().ok();
    let alive = move || probe.as_ref().is_some_and(|s| !wire::peer_closed(s));
    let Some(subscription) = shared.events.subscribe(alive) else {
        wire::respond(stream, &error_response(&ApiError::Busy));
        return;
    };
    let first = {
        let app = shared.app();
        shared.events.state_text(&app)
    };
    let _page = PageGuard::new(shared);
    let head = wire::head_text(200, &content_type("text/event-stream; charset=utf-8"), None);
    if stream
        .write_all(head.as_bytes())
        .and_then(|()| stream.write_all(first.as_bytes()))
        .and_then(|()| stream.flush())
        .is_err()
    {
        return;
    }
    loop {
        if shared.stop.load(Ordering::SeqCst) {
            return;
        }
        let chunk = match subscription.recv_timeout(shared.tuning.ping) {
            Ok(text) => text,
            Err(RecvTimeoutError::Timeout) => ": ping\n\n".to_string(),
            Err(RecvTimeoutError::Disconnected) => return,
        };
        if wire::peer_closed(&stream)
            || stream
                .write_all(chunk.as_bytes())
                .and_then(|()| stream.flush())
                .is_err()
        {
            return;
        }
    }
}
