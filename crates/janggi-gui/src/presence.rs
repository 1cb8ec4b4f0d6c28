//! Whether a page is watching: each open event stream counts as one; when
//! the last one closes and none is back within
//! [`crate::Tuning::away_grace`], the engine and the clock stop
//! ([`page_gone`]); the first one back starts them again ([`page_back`]).

use crate::app::Shared;
use crate::engine::turns::schedule;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::thread;
use std::time::Instant;

/// Counts a page's event stream while it is open.
pub struct PageGuard<'a>(&'a Arc<Shared>);

impl<'a> PageGuard<'a> {
    /// A page opened its stream.
    pub fn new(shared: &'a Arc<Shared>) -> PageGuard<'a> {
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
    let mut app = shared.app();
    if shared.stop.load(Ordering::SeqCst)
        || shared.pages.load(Ordering::SeqCst) != 0
        || shared.page_epoch.load(Ordering::SeqCst) != epoch
    {
        return;
    }
    app.away = true;
    shared.away.store(true, Ordering::SeqCst);
    app.session.pause_clock(Instant::now());
    shared.publish_generation(&app);
}

/// A page is back: the clock runs again and the engine, if it is to
/// move, thinks again.
fn page_back(shared: &Arc<Shared>) {
    {
        let mut app = shared.app();
        if !app.away {
            return;
        }
        app.away = false;
        shared.away.store(false, Ordering::SeqCst);
        app.session.resume_clock(Instant::now());
    }
    schedule(shared);
}
