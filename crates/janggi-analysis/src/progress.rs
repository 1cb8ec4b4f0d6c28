//! The progress bar of a long analysis, on stderr (indicatif): positions
//! searched of all, games done, elapsed time and ETA. It draws only when
//! stderr is a terminal (indicatif hides it otherwise) and not at all when
//! made with `quiet`.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A progress bar over the positions of all the games to analyse.
pub struct Progress {
    bar: ProgressBar,
    games: u64,
    done: std::sync::atomic::AtomicU64,
}

impl Progress {
    /// A bar for `positions` positions in `games` games; `quiet` hides it.
    pub fn new(positions: u64, games: u64, quiet: bool) -> Progress {
        let target = if quiet {
            ProgressDrawTarget::hidden()
        } else {
            ProgressDrawTarget::stderr()
        };
        let bar = ProgressBar::with_draw_target(Some(positions), target);
        let style = ProgressStyle::with_template(
            "{bar:30} {pos}/{len} positions, {msg}, {elapsed} elapsed, ETA {eta}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar());
        bar.set_style(style);
        bar.set_message(format!("0/{games} games"));
        Progress {
            bar,
            games,
            done: std::sync::atomic::AtomicU64::new(0),
        }
    }

    /// Whether the bar is drawn (stderr is a terminal, not quiet).
    pub fn is_drawn(&self) -> bool {
        !self.bar.is_hidden()
    }

    /// One more position searched.
    pub fn position(&self) {
        self.bar.inc(1);
    }

    /// One more game done.
    pub fn game_done(&self) {
        let n = self.done.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
        self.bar.set_message(format!("{n}/{} games", self.games));
    }

    /// Prints a line on stderr above the bar.
    pub fn println(&self, line: &str) {
        self.bar.suspend(|| eprintln!("{line}"));
    }

    /// Removes the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
