//! The listener: accepts connections and serves each on its own thread,
//! at most [`crate::Limits::max_connections`] at once (one more is
//! answered 503 at once and closed by a single refusing thread, so that
//! no number of clients can make the server start more threads). Each
//! connection's head is read under the limits ([`crate::wire`]) and
//! handed to the routes ([`crate::http`]).

use crate::app::Shared;
use crate::error::ApiError;
use crate::http;
use crate::wire::{self, WireError};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, SyncSender};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

/// Counts a connection while it is served.
struct Slot(Arc<AtomicUsize>);

impl Slot {
    /// A slot, or `None` when `max` are taken.
    fn take(open: &Arc<AtomicUsize>, max: usize) -> Option<Slot> {
        open.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
            (n < max).then_some(n + 1)
        })
        .ok()
        .map(|_| Slot(Arc::clone(open)))
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Refused connections waiting for their answer; past these, one more is
/// dropped without one.
const REFUSALS_QUEUED: usize = 16;
/// How long a refused connection's request is read and dropped after the
/// answer.
const REFUSAL_LINGER: Duration = Duration::from_millis(200);

/// How long the listener waits after a failed accept.
const ACCEPT_PAUSE: Duration = Duration::from_millis(20);

/// Accepts connections until the server stops.
pub fn serve(listener: &TcpListener, shared: &Arc<Shared>) {
    let open = Arc::new(AtomicUsize::new(0));
    let limits = &shared.tuning.limits;
    let refusals = refuser();
    for stream in listener.incoming() {
        if shared.stop.load(Ordering::SeqCst) {
            return;
        }
        let Ok(stream) = stream else {
            // Out of file descriptors, say: wait for some to close rather
            // than spin.
            thread::sleep(ACCEPT_PAUSE);
            continue;
        };
        let _ = stream.set_write_timeout(Some(limits.write_timeout));
        let _ = stream.set_nodelay(true);
        let Some(slot) = Slot::take(&open, limits.max_connections) else {
            if let Some(tx) = &refusals {
                // A full queue drops the connection unanswered.
                let _ = tx.try_send(stream);
            }
            continue;
        };
        let sh = Arc::clone(shared);
        let spawned = thread::Builder::new()
            .name("gui-connection".into())
            .spawn(move || {
                let _slot = slot;
                connection(&sh, stream);
            });
        // No thread (the system is out of them): the connection is dropped
        // with its closure.
        drop(spawned);
    }
}

/// The one thread that answers connections past the bound (503), so that
/// no number of clients makes the server start more threads.
fn refuser() -> Option<SyncSender<TcpStream>> {
    let (tx, rx) = mpsc::sync_channel::<TcpStream>(REFUSALS_QUEUED);
    let busy = http::error_response(&ApiError::Wire(WireError::TooManyConnections));
    thread::Builder::new()
        .name("gui-refuse".into())
        .spawn(move || {
            for stream in rx {
                wire::respond_within(stream, &busy, REFUSAL_LINGER);
            }
        })
        .ok()
        .map(|_| tx)
}

/// Serves one connection: one request.
fn connection(shared: &Arc<Shared>, mut stream: TcpStream) {
    match wire::read_head(&mut stream, &shared.tuning.limits) {
        Ok(head) => http::handle(shared, stream, &head),
        Err(WireError::Closed) => {}
        Err(e) => wire::respond(stream, &http::error_response(&ApiError::Wire(e))),
    }
}

/// Where to connect to reach a listener on `addr` (a wildcard address is
/// reached on loopback).
pub fn wake_address(addr: SocketAddr) -> SocketAddr {
    let ip = match addr.ip() {
        IpAddr::V4(v4) if v4.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
        IpAddr::V6(v6) if v6.is_unspecified() => IpAddr::V6(Ipv6Addr::LOCALHOST),
        ip => ip,
    };
    SocketAddr::new(ip, addr.port())
}
