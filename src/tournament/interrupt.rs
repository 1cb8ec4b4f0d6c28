//! Ctrl-C: the first SIGINT asks the match to stop cleanly (finished games
//! are already written; games in progress are written unfinished, `*`, and
//! the engines are shut down); a second one kills the runner at once.
//!
//! `std` has no signal API and the project takes no new crates, so this
//! binds the C library's `signal()` directly (Unix only; elsewhere Ctrl-C
//! simply ends the process and the PGN file holds every finished game,
//! since it is flushed after each one). The handler only stores to an
//! atomic and re-arms the default action, both async-signal-safe.

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
