//! The pages' event streams (server-sent events): every open page has a
//! bounded queue; the board sends typed events here (the state, an
//! engine `info`, an engine crash, analysis progress) and this module
//! writes them as the page reads them (`crate::view`).

use crate::app::{App, InfoReport};
use crate::view;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender, TrySendError};
use std::sync::Mutex;
use std::time::Duration;

/// Most pages listening at once.
pub const MAX_SUBSCRIBERS: usize = 32;
/// Events queued for one page before newer ones are dropped for it.
const QUEUE: usize = 256;

/// The open event streams, and the version that orders the page's views.
pub struct Hub {
    /// Each open stream's number, queue, and whether its client is still
    /// there.
    subscribers: Mutex<Vec<Subscriber>>,
    next_id: AtomicU64,
    version: AtomicU64,
}

/// An open stream as the hub sees it.
struct Subscriber {
    id: u64,
    tx: SyncSender<String>,
    alive: Box<dyn Fn() -> bool + Send>,
}

/// One open stream's queue; its slot is freed when it is dropped (its
/// page went), not at some later event.
pub struct Subscription<'a> {
    hub: &'a Hub,
    id: u64,
    rx: Receiver<String>,
}

impl Subscription<'_> {
    /// The next event's text, waiting at most `timeout`.
    ///
    /// # Errors
    /// [`RecvTimeoutError`].
    pub fn recv_timeout(&self, timeout: Duration) -> Result<String, RecvTimeoutError> {
        self.rx.recv_timeout(timeout)
    }
}

impl Drop for Subscription<'_> {
    fn drop(&mut self) {
        crate::app::lock(&self.hub.subscribers).retain(|s| s.id != self.id);
    }
}

impl Hub {
    /// No page yet; views start at version 1.
    pub fn new() -> Hub {
        Hub {
            subscribers: Mutex::new(Vec::new()),
            next_id: AtomicU64::new(0),
            version: AtomicU64::new(1),
        }
    }

    /// A new page's queue, or `None` when [`MAX_SUBSCRIBERS`] listen.
    /// `alive` tells whether the page is still there: when every slot is
    /// taken, those of pages gone (whose streams have not noticed yet)
    /// are freed first.
    pub fn subscribe(&self, alive: impl Fn() -> bool + Send + 'static) -> Option<Subscription<'_>> {
        let mut subs = crate::app::lock(&self.subscribers);
        if subs.len() >= MAX_SUBSCRIBERS {
            subs.retain(|s| (s.alive)());
        }
        if subs.len() >= MAX_SUBSCRIBERS {
            return None;
        }
        let (tx, rx) = mpsc::sync_channel(QUEUE);
        let id = self.next_id.fetch_add(1, Ordering::SeqCst);
        subs.push(Subscriber {
            id,
            tx,
            alive: Box::new(alive),
        });
        Some(Subscription { hub: self, id, rx })
    }

    /// The page's view of `app`; its version orders views made at
    /// different times (a reply to a POST may reach the page after a
    /// newer pushed state).
    pub fn state_json(&self, app: &App) -> Value {
        view::state(app, self.version.fetch_add(1, Ordering::SeqCst))
    }

    /// The `state` event's text, for a page that just opened its stream.
    pub fn state_text(&self, app: &App) -> String {
        frame("state", &self.state_json(app))
    }

    /// Tells every page the state.
    pub fn state(&self, app: &App) {
        self.send("state", &self.state_json(app));
    }

    /// Tells every page the engine's report.
    pub fn info(&self, info: &InfoReport) {
        self.send("info", &view::info(info));
    }

    /// Tells every page the engine crashed or hung (`gave_up`: for good).
    pub fn engine_crash(&self, app: &App, gave_up: bool) {
        self.send(
            "engine",
            &json!({"crashes": app.status.crashes, "message": app.status.last_crash, "gaveUp": gave_up}),
        );
    }

    /// Tells every page how far the analysis is.
    pub fn analysis_progress(&self, done: usize, total: usize) {
        self.send("analysis", &json!({"done": done, "total": total}));
    }

    fn send(&self, event: &str, data: &Value) {
        let text = frame(event, data);
        crate::app::lock(&self.subscribers).retain(|s| match s.tx.try_send(text.clone()) {
            Ok(()) | Err(TrySendError::Full(_)) => true,
            Err(TrySendError::Disconnected(_)) => false,
        });
    }
}

impl Default for Hub {
    fn default() -> Self {
        Hub::new()
    }
}

fn frame(event: &str, data: &Value) -> String {
    format!("event: {event}\ndata: {data}\n\n")
}
