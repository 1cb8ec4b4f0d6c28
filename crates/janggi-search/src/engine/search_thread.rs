//! The engine's search thread: one thread that lives as long as the
//! engine and runs one search after another on the engine's searcher
//! (hash table, histories, network), instead of a new thread per `go`.

use super::job::Job;
use super::lock;
use crate::search::Searcher;
use std::io;
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::{JoinHandle, Thread};
use std::time::{Duration, Instant};

/// The end of one search: set by the search thread when the job is over
/// (also when it panicked), waited for by the engine.
#[derive(Debug, Default)]
pub(super) struct Done {
    flag: Mutex<bool>,
    cv: Condvar,
}

impl Done {
    fn set(&self) {
        *lock(&self.flag) = true;
        self.cv.notify_all();
    }

    /// Whether the job is over.
    pub(super) fn is_set(&self) -> bool {
        *lock(&self.flag)
    }

    /// Waits until the job is over.
    pub(super) fn wait(&self) {
        let mut g = lock(&self.flag);
        while !*g {
            g = self.cv.wait(g).unwrap_or_else(|p| p.into_inner());
        }
    }

    /// Waits at most `grace`; returns whether the job is over.
    pub(super) fn wait_for(&self, grace: Duration) -> bool {
        let deadline = Instant::now() + grace;
        let mut g = lock(&self.flag);
        while !*g {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            g = self
                .cv
                .wait_timeout(g, left)
                .map(|(g, _)| g)
                .unwrap_or_else(|p| p.into_inner().0);
        }
        true
    }
}

/// Sets [`Done`] when dropped, so a job that unwinds still ends.
struct SetOnDrop(Arc<Done>);

impl Drop for SetOnDrop {
    fn drop(&mut self) {
        self.0.set();
    }
}

/// A job and its end signal.
pub(super) type Request = (Box<Job>, Arc<Done>);

/// The long-lived search thread.
pub(super) struct SearchThread {
    jobs: Option<Sender<Request>>,
    handle: Option<JoinHandle<()>>,
}

impl SearchThread {
    /// Starts the thread; it searches on `searcher`, replacing it with
    /// `fresh()` after a search that panicked.
    pub(super) fn spawn(
        searcher: Arc<Mutex<Searcher>>,
        fresh: impl Fn() -> Searcher + Send + 'static,
    ) -> io::Result<SearchThread> {
        let (tx, rx) = mpsc::channel::<Request>();
        let handle = std::thread::Builder::new()
            .name("search".to_string())
            .spawn(move || {
                while let Ok((job, done)) = rx.recv() {
                    let _end = SetOnDrop(done);
                    let mut s = lock(&searcher);
                    if !job.run(&mut s) {
                        *s = fresh();
                    }
                }
            })?;
        Ok(SearchThread {
            jobs: Some(tx),
            handle: Some(handle),
        })
    }

    /// The thread (to wake it from a wait for `stop` or `ponderhit`).
    pub(super) fn thread(&self) -> Option<Thread> {
        self.handle.as_ref().map(|h| h.thread().clone())
    }

    /// Hands a job over; gives it back when the thread is gone.
    pub(super) fn submit(&self, request: Request) -> Result<(), Request> {
        match (&self.jobs, &self.handle) {
            (Some(tx), Some(h)) if !h.is_finished() => tx.send(request).map_err(|e| e.0),
            _ => Err(request),
        }
    }

    /// Ends the thread once it is idle: it finishes the job it has and
    /// exits. Joins it when `idle` (its last job is over), else leaves it
    /// behind (the process is exiting).
    pub(super) fn shut_down(&mut self, idle: bool) {
        self.jobs = None;
        if let Some(h) = self.handle.take() {
            if idle {
                let _ = h.join();
            }
        }
    }
}
