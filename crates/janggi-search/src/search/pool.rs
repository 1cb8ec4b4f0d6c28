//! Lazy SMP's helper threads, kept across searches: a [`Searcher`] with
//! `Threads` N owns N − 1 helper threads, started once (and again when
//! `Threads` changes), not per search. Each search hands every helper one
//! task (its own iterative deepening over the shared hash table) and
//! waits until all of them are over before it returns.
//!
//! [`Searcher`]: super::Searcher

use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread::JoinHandle;

/// One helper's work for one search.
pub(crate) type Task = Box<dyn FnOnce() + Send + 'static>;

/// Sends one completion when dropped, so that a task that panicked still
/// counts as over.
struct Finished(Sender<()>);

impl Drop for Finished {
    fn drop(&mut self) {
        let _ = self.0.send(());
    }
}

/// One long-lived helper thread.
struct Helper {
    tasks: Sender<(Task, Finished)>,
    handle: JoinHandle<()>,
}

impl Helper {
    fn spawn(index: usize) -> Option<Helper> {
        let (tx, rx) = mpsc::channel::<(Task, Finished)>();
        let handle = std::thread::Builder::new()
            .name(format!("search-helper-{index}"))
            .spawn(move || {
                while let Ok((task, finished)) = rx.recv() {
                    // A helper's panic ends only its own part of the search
                    // (the main thread's result stands); the thread lives on.
                    let _ = catch_unwind(AssertUnwindSafe(task));
                    drop(finished);
                }
            })
            .ok()?;
        Some(Helper { tasks: tx, handle })
    }
}

/// The helper threads of one searcher.
#[derive(Default)]
pub(crate) struct HelperPool {
    helpers: Vec<Helper>,
}

impl fmt::Debug for HelperPool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HelperPool")
            .field("helpers", &self.helpers.len())
            .finish()
    }
}

/// The tasks of one search in flight: [`Running::wait`] returns once every
/// one of them is over.
#[must_use = "wait for the helpers before the search returns"]
pub(crate) struct Running {
    finished: Receiver<()>,
    count: usize,
}

impl Running {
    /// Waits until every task handed out is over.
    pub(crate) fn wait(self) {
        for _ in 0..self.count {
            if self.finished.recv().is_err() {
                break;
            }
        }
    }
}

impl HelperPool {
    /// Keeps `n` helper threads (fewer if the system refuses threads).
    pub(crate) fn resize(&mut self, n: usize) {
        self.helpers.truncate(n);
        while self.helpers.len() < n {
            match Helper::spawn(self.helpers.len() + 1) {
                Some(h) => self.helpers.push(h),
                None => break,
            }
        }
    }

    /// The number of helper threads.
    pub(crate) fn len(&self) -> usize {
        self.helpers.len()
    }

    /// Hands task `i` to helper `i` (a helper that has died is started
    /// again; a task no thread takes is dropped, not run).
    pub(crate) fn run(&mut self, tasks: Vec<Task>) -> Running {
        let (tx, rx) = mpsc::channel();
        let mut count = 0;
        for (i, task) in tasks.into_iter().enumerate() {
            if self.helpers.get(i).is_some_and(|h| h.handle.is_finished()) {
                match Helper::spawn(i + 1) {
                    Some(h) => self.helpers[i] = h,
                    None => continue,
                }
            }
            let Some(helper) = self.helpers.get(i) else {
                break;
            };
            if helper.tasks.send((task, Finished(tx.clone()))).is_ok() {
                count += 1;
            }
        }
        Running {
            finished: rx,
            count,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    #[test]
    fn helpers_live_across_runs_and_survive_a_panic() {
        let mut pool = HelperPool::default();
        pool.resize(2);
        let ids = Arc::new(std::sync::Mutex::new(Vec::new()));
        let count = Arc::new(AtomicUsize::new(0));
        for round in 0..3 {
            let tasks: Vec<Task> = (0..2)
                .map(|i| {
                    let (ids, count) = (Arc::clone(&ids), Arc::clone(&count));
                    Box::new(move || {
                        ids.lock().unwrap().push(std::thread::current().id());
                        count.fetch_add(1, Ordering::SeqCst);
                        assert!(!(round == 1 && i == 0), "a helper's task panics");
                    }) as Task
                })
                .collect();
            pool.run(tasks).wait();
        }
        assert_eq!(count.load(Ordering::SeqCst), 6);
        let mut distinct = ids.lock().unwrap().clone();
        distinct.sort_by_key(|id| format!("{id:?}"));
        distinct.dedup();
        assert_eq!(distinct.len(), 2, "the same two threads ran every round");
        pool.resize(1);
        assert_eq!(pool.len(), 1);
    }
}
