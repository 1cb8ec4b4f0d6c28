//! Whether a page is watching: each open event stream of a page the
//! board served (it presents the board's [`PageToken`]) counts as one; when
//! the last one closes and none is back within
//! [`crate::Tuning::away_grace`], the engine and the clock stop
//! ([`page_gone`]); the first one back starts them again ([`page_back`]).

use crate::app::Shared;
use crate::engine::turns::schedule;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::thread;
use std::time::Instant;

/// The secret a page of the board's own presents on its event stream:
/// made anew each time the server starts, given only to same-origin
/// scripts (`GET /api/token`: another site's page cannot read the
/// answer, and its `<img src=/api/events>` has no token), so only a page
/// the board served counts as open.
pub struct PageToken(String);

impl PageToken {
    /// 128 random bits from the system (should it have none, a hash
    /// seeded by std's own random keys and the time).
    pub fn new() -> PageToken {
        let mut bytes = [0u8; 16];
        if getrandom::fill(&mut bytes).is_err() {
            use std::hash::{BuildHasher, Hasher};
            for (i, half) in bytes.chunks_mut(8).enumerate() {
                let mut h = std::collections::hash_map::RandomState::new().build_hasher();
                h.write_usize(i);
                h.write_u128(
                    std::time::SystemTime::now()
                        .duration_since(std::time::UNIX_EPOCH)
                        .map_or(0, |d| d.as_nanos()),
                );
                half.copy_from_slice(&h.finish().to_le_bytes());
            }
        }
        PageToken(bytes.iter().map(|b| format!("{b:02x}")).collect())
    }

    /// The token's text (hexadecimal).
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether `candidate` is the token (compared in constant time).
    pub fn matches(&self, candidate: &str) -> bool {
        candidate.len() == self.0.len()
            && candidate
                .bytes()
                .zip(self.0.bytes())
                .fold(0u8, |acc, (a, b)| acc | (a ^ b))
                == 0
    }
}

impl Default for PageToken {
    fn default() -> Self {
        PageToken::new()
    }
}

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

#[cfg(test)]
mod tests {
    use super::PageToken;

    #[test]
    fn a_token_is_random_and_only_itself_matches() {
        let (a, b) = (PageToken::new(), PageToken::new());
        assert_eq!(a.as_str().len(), 32);
        assert_ne!(a.as_str(), b.as_str());
        assert!(a.matches(a.as_str()));
        assert!(!a.matches(b.as_str()));
        assert!(!a.matches(""));
        assert!(!a.matches(&a.as_str()[..31]));
    }
}
