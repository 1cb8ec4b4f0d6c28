//! HTTP/1.1 on one connection, under the [`Limits`]: the request head is
//! read within [`Limits::head_timeout`] and at most
//! [`Limits::max_head_bytes`] bytes and [`Limits::max_headers`] header
//! lines (parsed by `httparse`), a body within [`Limits::body_timeout`]
//! and its route's size limit, and one response is written
//! (`Connection: close`: one request per connection). Nothing here knows
//! the board's routes; a refusal is a typed [`WireError`].

use crate::Limits;
use std::io::{self, ErrorKind, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::time::{Duration, Instant};

/// How long a closed connection's unread input is still read and dropped
/// (so the client reads the refusal before the socket is reset), and at
/// most how much of it.
const LINGER: Duration = Duration::from_secs(1);
const LINGER_BYTES: usize = 64 * 1024 * 1024;

/// A request's head.
#[derive(Debug)]
pub struct Head {
    /// `GET`, `POST`, …
    pub method: String,
    /// The request target (path and query), as sent.
    pub target: String,
    headers: Vec<(String, String)>,
    /// Bytes of the body that came with the head.
    rest: Vec<u8>,
}

impl Head {
    /// The first header called `name` (any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// A request the connection cannot serve as sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WireError {
    /// The head did not arrive within the head timeout (408).
    HeadTimeout,
    /// The body did not arrive within the body timeout (408).
    BodyTimeout,
    /// The request line alone is longer than the head may be (414).
    UriTooLong,
    /// The head is longer than allowed (431).
    HeadTooLarge,
    /// More header lines than allowed (431).
    TooManyHeaders,
    /// Not an HTTP/1.x request (400).
    Malformed,
    /// A body without one plain `Content-Length` (chunked, or lengths that
    /// disagree) (411).
    NoLength,
    /// As many connections as allowed are open already (503).
    TooManyConnections,
    /// The client went away, or the socket failed: nothing is answered.
    Closed,
}

impl WireError {
    /// The HTTP status.
    pub fn status(self) -> u16 {
        match self {
            WireError::HeadTimeout | WireError::BodyTimeout => 408,
            WireError::UriTooLong => 414,
            WireError::HeadTooLarge | WireError::TooManyHeaders => 431,
            WireError::Malformed | WireError::Closed => 400,
            WireError::NoLength => 411,
            WireError::TooManyConnections => 503,
        }
    }
}

impl std::fmt::Display for WireError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            WireError::HeadTimeout => "the request head did not arrive in time",
            WireError::BodyTimeout => "the request body did not arrive in time",
            WireError::UriTooLong => "the request line is too long",
            WireError::HeadTooLarge => "the request head is too large",
            WireError::TooManyHeaders => "too many header lines",
            WireError::Malformed => "not an HTTP/1.1 request",
            WireError::NoLength => "a body needs one Content-Length (no chunked bodies)",
            WireError::TooManyConnections => "too many connections are open",
            WireError::Closed => "the connection closed",
        })
    }
}

impl std::error::Error for WireError {}

/// The time left until `deadline` as a read timeout, or `None` once it
/// has passed.
fn left(deadline: Instant) -> Option<Duration> {
    deadline
        .checked_duration_since(Instant::now())
        .filter(|d| !d.is_zero())
}

/// One read before `deadline`: `Ok(None)` when it passed first.
fn read_before(
    stream: &mut TcpStream,
    buf: &mut [u8],
    deadline: Instant,
) -> io::Result<Option<usize>> {
    loop {
        let Some(timeout) = left(deadline) else {
            return Ok(None);
        };
        stream.set_read_timeout(Some(timeout))?;
        match stream.read(buf) {
            Ok(n) => return Ok(Some(n)),
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

/// Whether `buf` holds the blank line that ends a head (CRLF or bare LF
/// line ends), looking only at what `from` on could have completed.
fn head_ends(buf: &[u8], from: usize) -> bool {
    let tail = &buf[from.saturating_sub(3)..];
    tail.windows(2).any(|w| w == b"\n\n") || tail.windows(3).any(|w| w == b"\n\r\n")
}

/// Reads one request head under the limits.
///
/// # Errors
/// [`WireError`]: too slow, too large, too many headers, not HTTP, or the
/// client went away.
pub fn read_head(stream: &mut TcpStream, limits: &Limits) -> Result<Head, WireError> {
    let deadline = Instant::now() + limits.head_timeout;
    let mut buf = Vec::with_capacity(2048);
    let mut chunk = [0u8; 4096];
    loop {
        let room = limits.max_head_bytes.saturating_sub(buf.len());
        if room == 0 {
            return Err(if buf.contains(&b'\n') {
                WireError::HeadTooLarge
            } else {
                WireError::UriTooLong
            });
        }
        let want = room.min(chunk.len());
        let n = match read_before(stream, &mut chunk[..want], deadline) {
            Ok(None) => return Err(WireError::HeadTimeout),
            Ok(Some(0)) | Err(_) => return Err(WireError::Closed),
            Ok(Some(n)) => n,
        };
        let from = buf.len();
        buf.extend_from_slice(&chunk[..n]);
        if head_ends(&buf, from) {
            return parse_head(&buf, limits.max_headers);
        }
    }
}

fn parse_head(buf: &[u8], max_headers: usize) -> Result<Head, WireError> {
    let mut headers = vec![httparse::EMPTY_HEADER; max_headers];
    let mut req = httparse::Request::new(&mut headers);
    let end = match req.parse(buf) {
        Ok(httparse::Status::Complete(n)) => n,
        Ok(httparse::Status::Partial) => return Err(WireError::Malformed),
        Err(httparse::Error::TooManyHeaders) => return Err(WireError::TooManyHeaders),
        Err(_) => return Err(WireError::Malformed),
    };
    let (Some(method), Some(target)) = (req.method, req.path) else {
        return Err(WireError::Malformed);
    };
    Ok(Head {
        method: method.to_string(),
        target: target.to_string(),
        headers: req
            .headers
            .iter()
            .map(|h| {
                (
                    h.name.to_string(),
                    String::from_utf8_lossy(h.value).trim().to_string(),
                )
            })
            .collect(),
        rest: buf[end..].to_vec(),
    })
}

/// What a body may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyError {
    /// Announced or sent larger than the route takes (bytes).
    TooLarge(u64),
    /// Refused on the wire.
    Wire(WireError),
}

/// The body's length: its `Content-Length` (none: 0).
fn body_length(head: &Head) -> Result<u64, WireError> {
    if head.header("Transfer-Encoding").is_some() {
        return Err(WireError::NoLength);
    }
    let mut lengths = head
        .headers
        .iter()
        .filter(|(n, _)| n.eq_ignore_ascii_case("Content-Length"))
        .map(|(_, v)| v.parse::<u64>().map_err(|_| WireError::NoLength));
    let Some(first) = lengths.next().transpose()? else {
        return Ok(0);
    };
    for other in lengths {
        if other? != first {
            return Err(WireError::NoLength);
        }
    }
    Ok(first)
}

/// Reads the request's body: at most `max` bytes (a larger announced
/// length is refused before anything is read), all of it within the
/// body timeout.
///
/// # Errors
/// [`BodyError`].
pub fn read_body(
    stream: &mut TcpStream,
    head: &Head,
    max: u64,
    limits: &Limits,
) -> Result<Vec<u8>, BodyError> {
    let length = body_length(head).map_err(BodyError::Wire)?;
    if length > max {
        return Err(BodyError::TooLarge(max));
    }
    // `length <= max`, and `max` is a route's limit of a few MiB.
    let length = usize::try_from(length).map_err(|_| BodyError::TooLarge(max))?;
    let mut body = head.rest.clone();
    body.truncate(length);
    if body.len() < length
        && head
            .header("Expect")
            .is_some_and(|e| e.eq_ignore_ascii_case("100-continue"))
    {
        stream
            .write_all(b"HTTP/1.1 100 Continue\r\n\r\n")
            .map_err(|_| BodyError::Wire(WireError::Closed))?;
    }
    let deadline = Instant::now() + limits.body_timeout;
    let mut chunk = vec![0u8; 64 * 1024];
    while body.len() < length {
        let want = (length - body.len()).min(chunk.len());
        match read_before(stream, &mut chunk[..want], deadline) {
            Ok(None) => return Err(BodyError::Wire(WireError::BodyTimeout)),
            Ok(Some(0)) | Err(_) => return Err(BodyError::Wire(WireError::Closed)),
            Ok(Some(n)) => body.extend_from_slice(&chunk[..n]),
        }
    }
    Ok(body)
}

/// One response.
#[derive(Clone, Debug)]
pub struct Response {
    /// The status.
    pub status: u16,
    /// Headers besides `Content-Length` and `Connection`.
    pub headers: Vec<(&'static str, String)>,
    /// The body.
    pub body: Vec<u8>,
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        204 => "No Content",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        409 => "Conflict",
        411 => "Length Required",
        413 => "Content Too Large",
        414 => "URI Too Long",
        422 => "Unprocessable Content",
        431 => "Request Header Fields Too Large",
        503 => "Service Unavailable",
        _ => "Unknown",
    }
}

/// The status line and headers of `status` with `headers`; `length`: a
/// `Content-Length` to send.
pub fn head_text(status: u16, headers: &[(&'static str, String)], length: Option<usize>) -> String {
    let mut text = format!("HTTP/1.1 {status} {}\r\n", reason(status));
    for (name, value) in headers {
        text.push_str(&format!("{name}: {value}\r\n"));
    }
    if let Some(n) = length {
        text.push_str(&format!("Content-Length: {n}\r\n"));
    }
    text.push_str("Connection: close\r\n\r\n");
    text
}

/// `response` as it goes on the wire.
fn bytes(response: &Response) -> Vec<u8> {
    let length = (response.status != 204).then_some(response.body.len());
    let mut out = head_text(response.status, &response.headers, length).into_bytes();
    out.extend_from_slice(&response.body);
    out
}

/// Writes `response` and closes the connection ([`close`]).
pub fn respond(stream: TcpStream, response: &Response) {
    respond_within(stream, response, LINGER);
}

/// [`respond`], the connection's input read and dropped for at most
/// `linger`.
pub fn respond_within(mut stream: TcpStream, response: &Response, linger: Duration) {
    if stream
        .write_all(&bytes(response))
        .and_then(|()| stream.flush())
        .is_ok()
    {
        close(stream, linger);
    }
}

/// Closes the connection: its sending side first, then whatever the
/// client still sends is read and dropped for a moment (`linger`, at most
/// [`LINGER_BYTES`]), so that a client still sending a refused request
/// reads the refusal rather than a reset.
fn close(mut stream: TcpStream, linger: Duration) {
    if stream.shutdown(Shutdown::Write).is_err() {
        return;
    }
    let deadline = Instant::now() + linger;
    let mut sink = [0u8; 16 * 1024];
    let mut dropped = 0;
    while dropped < LINGER_BYTES {
        match read_before(&mut stream, &mut sink, deadline) {
            Ok(Some(n)) if n > 0 => dropped += n,
            _ => return,
        }
    }
}

/// Whether the client closed its side of `stream` (a closed tab sends its
/// FIN at once; a page never sends anything after its request). Looks
/// for at most a millisecond, through the read timeout only, so that a
/// write on another handle of the socket is never affected.
pub fn peer_closed(stream: &TcpStream) -> bool {
    if stream
        .set_read_timeout(Some(Duration::from_millis(1)))
        .is_err()
    {
        return true;
    }
    let mut probe = [0u8; 1];
    match stream.peek(&mut probe) {
        Ok(n) => n == 0,
        Err(e) => !matches!(
            e.kind(),
            ErrorKind::WouldBlock | ErrorKind::TimedOut | ErrorKind::Interrupted
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_head_ends_at_its_blank_line() {
        assert!(head_ends(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n", 20));
        assert!(head_ends(b"GET / HTTP/1.1\nHost: a\n\n", 20));
        assert!(!head_ends(b"GET / HTTP/1.1\r\nHost: a\r\n", 0));
    }

    #[test]
    fn heads_parse_and_too_many_headers_are_refused() {
        let head = parse_head(
            b"POST /api/move?x=1 HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\nabc",
            8,
        )
        .unwrap();
        assert_eq!(
            (head.method.as_str(), head.target.as_str()),
            ("POST", "/api/move?x=1")
        );
        assert_eq!(head.header("host"), Some("h"));
        assert_eq!(body_length(&head), Ok(3));
        assert_eq!(head.rest, b"abc");
        let many = format!("GET / HTTP/1.1\r\n{}\r\n", "a: b\r\n".repeat(9));
        assert_eq!(
            parse_head(many.as_bytes(), 8).unwrap_err(),
            WireError::TooManyHeaders
        );
        assert_eq!(
            parse_head(b"\x16\x03\x01 hello\r\n\r\n", 8).unwrap_err(),
            WireError::Malformed
        );
    }

    #[test]
    fn a_body_needs_one_plain_length() {
        let head = |extra: &str| {
            parse_head(format!("POST / HTTP/1.1\r\n{extra}\r\n").as_bytes(), 8).unwrap()
        };
        assert_eq!(body_length(&head("")), Ok(0));
        assert_eq!(
            body_length(&head("Transfer-Encoding: chunked\r\n")),
            Err(WireError::NoLength)
        );
        assert_eq!(
            body_length(&head("Content-Length: 3\r\nContent-Length: 4\r\n")),
            Err(WireError::NoLength)
        );
        assert_eq!(
            body_length(&head("Content-Length: -1\r\n")),
            Err(WireError::NoLength)
        );
    }
}
