//! One search request as the search thread runs it: the game it searches,
//! its limits and controls, and the reporting of its result through the
//! id gate (see the [module docs](super)).

use super::{Gate, Report, Reporter, WAIT_POLL, WON_BY_RULE_CP};
use crate::search::{Info, Limits, Progress, ReportScore, SearchControl, SearchResult, Searcher};
use janggi_core::{Color, Game, Move};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;

/// Everything one search needs.
pub(super) struct Job {
    pub(super) id: u64,
    pub(super) game: Game,
    pub(super) limits: Limits,
    pub(super) control: SearchControl,
    pub(super) gate: Arc<Gate>,
    pub(super) reporter: Reporter,
}

/// Reporting helpers shared by the thread and the no-thread fallback.
pub(super) struct JobReport<'a> {
    pub(super) id: u64,
    pub(super) game: &'a Game,
    pub(super) gate: &'a Gate,
}

impl JobReport<'_> {
    pub(super) fn emit(&self, reporter: &(dyn Fn(&Game, Report<'_>) + Send + Sync), r: Report<'_>) {
        if matches!(r, Report::BestMove { .. }) {
            self.gate.answer(self.id, || reporter(self.game, r));
        } else {
            self.gate.emit(self.id, || reporter(self.game, r));
        }
    }

    /// Checks the search's answer against the legal moves and prints the
    /// final lines. `best` comes from the search; it is replaced by a legal
    /// move if it is not one (which would be a search bug).
    pub(super) fn finish(
        &self,
        legal: &[Move],
        best: Option<Move>,
        ponder: Option<Move>,
        reporter: &(dyn Fn(&Game, Report<'_>) + Send + Sync),
    ) {
        let Some(&first) = legal.first() else {
            self.emit(
                reporter,
                Report::BestMove {
                    best: None,
                    ponder: None,
                },
            );
            return;
        };
        let (best, ponder) = match best {
            Some(m) if legal.contains(&m) => (m, ponder),
            Some(_) => {
                self.emit(
                    reporter,
                    Report::Message("search returned an illegal move; playing a legal one instead"),
                );
                (first, None)
            }
            None => (first, None),
        };
        let ponder = ponder.filter(|&p| {
            let mut g = self.game.clone();
            g.play(best).is_ok() && g.is_legal(p)
        });
        self.emit(
            reporter,
            Report::BestMove {
                best: Some(best),
                ponder,
            },
        );
    }
}

/// Whether a search with `limits` runs until `stop` (`infinite`, or no
/// limit at all, as a bare `go`): commands that would wait for it are
/// refused instead, since the input thread would never read the `stop`.
pub(super) fn waits_for_stop(limits: &Limits) -> bool {
    limits.infinite
        || (limits.depth.is_none()
            && limits.nodes.is_none()
            && limits.mate.is_none()
            && limits.movetime.is_none()
            && limits.clock.is_none())
}

/// The score of a finished game from the side to move's point of view.
pub(super) fn no_move_score(game: &Game) -> ReportScore {
    let stm: Color = game.side_to_move();
    match game.outcome() {
        Some(o) => match o.winner {
            None => ReportScore::Cp(0),
            Some(w) if w == stm => ReportScore::Cp(WON_BY_RULE_CP),
            Some(_) => ReportScore::Mate(0),
        },
        None if game.position().in_check() => ReportScore::Mate(0),
        None => ReportScore::Cp(0),
    }
}

impl Job {
    /// Runs the search on `searcher` and reports it; returns whether the
    /// searcher is still sound (false after the search panicked: the
    /// caller replaces it).
    pub(super) fn run(self, searcher: &mut Searcher) -> bool {
        let Job {
            id,
            game,
            limits,
            control,
            gate,
            reporter,
        } = self;
        let rep = JobReport {
            id,
            game: &game,
            gate: &gate,
        };
        let legal: Vec<Move> = game.legal_moves().iter().copied().collect();
        let mut keep_searcher = true;
        let mut result: Option<SearchResult> = None;
        if legal.is_empty() {
            rep.emit(
                &*reporter,
                Report::NoMove {
                    score: no_move_score(&game),
                },
            );
        } else {
            let started = Instant::now();
            let mut last: Option<Info> = None;
            let searched = catch_unwind(AssertUnwindSafe(|| {
                let mut on_progress = |p: Progress<'_>| match p {
                    Progress::Info(info) => {
                        if info.multipv <= 1 {
                            last = Some(info.clone());
                        }
                        rep.emit(&*reporter, Report::Info(info));
                    }
                    Progress::CurrMove(c) => rep.emit(&*reporter, Report::CurrMove(c)),
                };
                searcher.search_with_progress(&game, &limits, &control, &mut on_progress)
            }));
            match searched {
                Ok(r) => {
                    // The protocol wants an `info` line on stop too: if the
                    // search ended after its last report (stopped inside an
                    // iteration), repeat that report with the final counts.
                    if let Some(mut info) = last.filter(|i| r.nodes > i.nodes) {
                        let ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
                        info.nodes = r.nodes;
                        info.time_ms = ms.max(info.time_ms);
                        info.nps = r.nodes.saturating_mul(1000) / info.time_ms.max(1);
                        rep.emit(&*reporter, Report::Info(&info));
                    }
                    result = Some(r);
                }
                Err(_) => {
                    keep_searcher = false;
                    rep.emit(
                        &*reporter,
                        Report::Message("error: the search failed; playing a legal move"),
                    );
                }
            }
        }
        // UCI: in `infinite` and ponder mode the answer waits for `stop`
        // (or `ponderhit`), even if the search itself has ended.
        while !control.stop.load(Ordering::SeqCst)
            && (limits.infinite || control.pondering.load(Ordering::SeqCst))
        {
            std::thread::park_timeout(WAIT_POLL);
        }
        let (best, ponder) = result.map_or((None, None), |r| (r.best, r.ponder));
        rep.finish(&legal, best, ponder, &*reporter);
        keep_searcher
    }
}
