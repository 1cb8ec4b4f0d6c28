//! Ctrl-C as a flag, shared by the long-running tools: the first SIGINT
//! sets the flag and the tool stops cleanly (the match runner writes the
//! finished games, writes the games in progress unfinished, `*`, and shuts
//! the engines down; datagen stops its workers after their current move
//! and keeps the finished games); a second one kills the process at once.
//!
//! `std` has no signal API and the project takes no new crates, so this
//! binds the C library's `signal()` directly (Unix only; elsewhere Ctrl-C
//! simply ends the process: the match runner's PGN file, flushed after
//! each game, holds every finished game, and a datagen file too, a part
//! game at its tail being cut off when the run resumes). The handler only
//! stores to an atomic and re-arms the default action, both
//! async-signal-safe.

use std::sync::atomic::{AtomicBool, Ordering};

/// Set by the SIGINT handler.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Whether Ctrl-C was pressed since [`install`].
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

#[cfg(unix)]
mod imp {
    use std::os::raw::c_int;
    use std::sync::atomic::Ordering;

    const SIGINT: c_int = 2;
    const SIG_DFL: usize = 0;

    extern "C" {
        fn signal(signum: c_int, handler: usize) -> usize;
    }

    extern "C" fn on_sigint(_: c_int) {
        super::INTERRUPTED.store(true, Ordering::SeqCst);
        // SAFETY: `signal` is async-signal-safe (POSIX); restoring the
        // default action makes a second Ctrl-C terminate the process.
        unsafe {
            signal(SIGINT, SIG_DFL);
        }
    }

    pub fn install() {
        let handler: extern "C" fn(c_int) = on_sigint;
        // SAFETY: `signal` is the C library's, with its C signature; the
        // handler is an `extern "C" fn(c_int)` that only touches an atomic
        // and calls `signal` again, both allowed in a signal handler.
        unsafe {
            signal(SIGINT, handler as usize);
        }
    }
}

/// Installs the handler and clears the flag.
pub fn install() {
    INTERRUPTED.store(false, Ordering::SeqCst);
    #[cfg(unix)]
    imp::install();
}
