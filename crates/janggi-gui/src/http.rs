//! The HTTP edge: the only module that sees [`tiny_http`]. Each request
//! is checked (its `Host` and `Origin` must be this server's, else 403),
//! routed by method and path ([`Route`]), its body read under a size
//! limit and parsed once into a typed request ([`Call`],
//! [`RecordFormat`], a record file's bytes); the board answers typed
//! values that [`crate::view`] turns into the page's JSON. The event
//! stream is written here too. Nothing is ever read from the file
//! system: the page's files are embedded, so no path can reach outside.

use crate::app::{self, Shared};
use crate::error::ApiError;
use crate::presence::PageGuard;
use crate::request::{Asset, Call, Method, RecordFormat, Route, MAX_BODY, MAX_RECORD_FILE};
use crate::view;
use serde_json::Value;
use std::io::{Cursor, Read, Write};
use std::sync::atomic::Ordering;
use std::sync::mpsc::RecvTimeoutError;
use std::sync::Arc;
use tiny_http::{Header, Request, Response, StatusCode};

const INDEX_HTML: &str = include_str!("../assets/index.html");
const APP_JS: &str = crate::assets::APP_JS;
const STYLE_CSS: &str = include_str!("../assets/style.css");

type Reply = Response<Cursor<Vec<u8>>>;

/// Serves one request (on its own thread).
pub fn handle(shared: &Arc<Shared>, mut req: Request) {
    if !origin_ok(shared, &req) {
        let _ = req.respond(error_response(&ApiError::Forbidden));
        return;
    }
    let url = req.url().to_string();
    let (path, query) = url.split_once('?').unwrap_or((url.as_str(), ""));
    let method = match req.method() {
        tiny_http::Method::Get => Method::Get,
        tiny_http::Method::Post => Method::Post,
        _ => Method::Other,
    };
    let response = match Route::parse(method, path) {
        Err(e) => error_response(&e.into()),
        Ok(Route::Asset(a)) => asset(a),
        Ok(Route::State) => {
            let app = shared.app();
            json_response(200, &shared.events.state_json(&app))
        }
        Ok(Route::Events) => {
            serve_events(shared, req);
            return;
        }
        Ok(Route::SaveRecord) => RecordFormat::from_query(query)
            .map_err(ApiError::from)
            .and_then(|format| app::save_record(shared, format))
            .map_or_else(
                |e| error_response(&e),
                |file| {
                    let mut r = with_type(Response::from_data(file.data), file.content_type);
                    if let Ok(h) = Header::from_bytes(
                        &b"Content-Disposition"[..],
                        format!("attachment; filename=\"{}\"", file.file_name).as_bytes(),
                    ) {
                        r.add_header(h);
                    }
                    r
                },
            ),
        Ok(Route::ParseRecords) => read_body(&mut req, MAX_RECORD_FILE)
            .and_then(|bytes| {
                if bytes.iter().all(u8::is_ascii_whitespace) {
                    return Err(crate::request::BadRequest::EmptyFile.into());
                }
                app::load_records(shared, &bytes)
            })
            .map_or_else(
                |e| error_response(&e),
                |list| json_response(200, &view::listings(&list)),
            ),
        Ok(Route::Call(kind, path)) => {
            match read_body(&mut req, MAX_BODY)
                .and_then(|body| Call::parse(kind, &path, &body).map_err(ApiError::from))
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
    let _ = req.respond(response);
}

fn header(req: &Request, name: &'static str) -> Option<String> {
    req.headers()
        .iter()
        .find(|h| h.field.equiv(name))
        .map(|h| h.value.as_str().to_string())
}

/// The `Host` must be this server's (a browser always sends it; DNS
/// rebinding sends a foreign one); an `Origin`, when sent, must be
/// `http://` and this server too (another site's page posting here).
fn origin_ok(shared: &Shared, req: &Request) -> bool {
    let Some(host) = header(req, "Host") else {
        return false;
    };
    if !shared.is_own_host(host.trim()) {
        return false;
    }
    match header(req, "Origin") {
        None => true,
        Some(o) => o
            .trim()
            .strip_prefix("http://")
            .is_some_and(|h| shared.is_own_host(h.trim_end_matches('/'))),
    }
}

/// The body, refused past `max` bytes (only `max + 1` are ever read).
fn read_body(req: &mut Request, max: u64) -> Result<Vec<u8>, ApiError> {
    use crate::request::BadRequest;
    let mut buf = Vec::new();
    req.as_reader()
        .take(max + 1)
        .read_to_end(&mut buf)
        .map_err(|e| BadRequest::Unreadable(e.to_string()))?;
    if buf.len() as u64 > max {
        return Err(BadRequest::TooLarge(max).into());
    }
    Ok(buf)
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

fn with_type(mut r: Reply, ctype: &str) -> Reply {
    for h in content_type(ctype) {
        r.add_header(h);
    }
    r
}

fn text_response(body: &str, ctype: &str) -> Reply {
    with_type(Response::from_data(body.as_bytes().to_vec()), ctype)
}

fn json_response(status: u16, v: &Value) -> Reply {
    text_response(&v.to_string(), "application/json; charset=utf-8")
        .with_status_code(StatusCode(status))
}

fn error_response(e: &ApiError) -> Reply {
    json_response(e.status(), &view::error(e))
}

fn asset(a: Asset) -> Reply {
    match a {
        Asset::Index => text_response(INDEX_HTML, "text/html; charset=utf-8"),
        Asset::AppJs => text_response(APP_JS, "text/javascript; charset=utf-8"),
        Asset::StyleCss => text_response(STYLE_CSS, "text/css; charset=utf-8"),
        Asset::Favicon => Response::from_data(Vec::new()).with_status_code(204),
        Asset::Font => with_type(
            Response::from_data(crate::font::FONT_TTF.to_vec()),
            "font/ttf",
        ),
        Asset::FontLicense => text_response(crate::font::FONT_LICENSE, "text/plain; charset=utf-8"),
    }
}

/// The event stream: tiny_http parses the request; the response head is
/// written here and every event is flushed as it comes (tiny_http's own
/// chunked writer would hold small events back in its buffer).
fn serve_events(shared: &Arc<Shared>, req: Request) {
    let Some(rx) = shared.events.subscribe() else {
        let _ = req.respond(error_response(&ApiError::Busy));
        return;
    };
    let first = {
        let app = shared.app();
        shared.events.state_text(&app)
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
