//! A search: `position` and `go` out, `info` lines and `bestmove` in,
//! with a deadline, `stop`, and a cancel.

use super::{EngineProcess, Info, Line, POLL};
use janggi_uci::{Answer, BestMove, Score};
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

/// What an engine said while thinking, up to `bestmove`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reply {
    /// The answer after `bestmove` as the engine wrote it (a move,
    /// `resign`, `(none)`; empty if there was none): see [`Reply::answer`].
    pub bestmove: String,
    /// Wall time from `go` to `bestmove`.
    pub elapsed: Duration,
    /// The last score of the best line (`multipv 1` or none).
    pub score: Option<Score>,
    /// The last depth of the best line.
    pub depth: Option<u32>,
    /// The last principal variation of the best line.
    pub pv: Vec<String>,
    /// The last win/draw/loss (permille) of the best line, if the engine
    /// reports it (`UCI_ShowWDL`).
    pub wdl: Option<[u32; 3]>,
}

impl Reply {
    /// The answer, typed: a move (as text), `resign` or `(none)`.
    pub fn answer(&self) -> Answer {
        Answer::from_word(&self.bestmove)
    }

    /// Takes in one `info` report: only the best line's (see
    /// [`Info::is_main_line`]) counts; a field the line does not have
    /// keeps its earlier value.
    pub fn absorb(&mut self, info: &Info) {
        if !info.is_main_line() || info.string.is_some() {
            return;
        }
        if info.depth.is_some() {
            self.depth = info.depth;
        }
        if info.score.is_some() {
            self.score = info.score;
        }
        if !info.pv.is_empty() {
            self.pv.clone_from(&info.pv);
        }
        if info.wdl.is_some() {
            self.wdl = info.wdl;
        }
    }
}

/// How a `go` ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Think {
    /// `bestmove` before the deadline.
    Move(Reply),
    /// `bestmove` only after the deadline (after `stop`).
    Late(Reply),
    /// Nothing, not even after `stop`.
    NoReply(Duration),
    /// The engine exited (with how and after how long).
    Crashed(String, Duration),
    /// The runner is shutting down (`stop` was sent, the answer not
    /// awaited).
    Aborted,
    /// [`Watch::cancel`] said so: `stop` was sent and the engine's answer
    /// read (and dropped by the caller), so the engine is idle again and
    /// the next `go` gets a fresh answer.
    Cancelled(Reply),
}

/// What [`EngineProcess::think_with`] is told while the engine thinks.
pub struct Watch<'a> {
    /// Asked while waiting (every few milliseconds); once it says yes the
    /// search is stopped (`stop`) and its answer awaited (`stop_wait`), so
    /// that no stale `bestmove` reaches the next search.
    pub cancel: &'a dyn Fn() -> bool,
    /// Every `info` line, parsed, as it comes (all of them: the caller
    /// looks at [`Info::is_main_line`] if it wants the best line only).
    pub on_info: &'a mut dyn FnMut(&Info),
}

impl EngineProcess {
    /// Sends `position` and `go` (a [`janggi_uci::Go`], or a `go` line as
    /// text), then waits for `bestmove` until `deadline` after `go`; past
    /// it sends `stop` and waits `stop_wait` more for a (late) answer.
    /// ([`EngineProcess::think_with`] without watching.)
    pub fn think(
        &mut self,
        position: &str,
        go: &dyn fmt::Display,
        deadline: Duration,
        stop_wait: Duration,
        stop: &AtomicBool,
    ) -> Think {
        let watch = Watch {
            cancel: &|| false,
            on_info: &mut |_| {},
        };
        self.think_with(position, go, (deadline, stop_wait), stop, watch)
    }

    /// [`EngineProcess::think`], watched: every `info` line goes to
    /// [`Watch::on_info`] as it is read, and [`Watch::cancel`] can stop the
    /// search early ([`Think::Cancelled`]). `limits` is (`deadline`,
    /// `stop_wait`) as for `think`; `stop` aborts at once
    /// ([`Think::Aborted`], the answer not awaited).
    pub fn think_with(
        &mut self,
        position: &str,
        go: &dyn fmt::Display,
        limits: (Duration, Duration),
        stop: &AtomicBool,
        watch: Watch<'_>,
    ) -> Think {
        let (deadline, stop_wait) = limits;
        if self.send(position).is_err() {
            return Think::Crashed(self.exit_status(), Duration::ZERO);
        }
        if self.send(&go.to_string()).is_err() {
            return Think::Crashed(self.exit_status(), Duration::ZERO);
        }
        let sent = Instant::now();
        let due = sent + deadline;
        let mut reply = Reply::default();
        // When `stop` was sent (by the deadline or a cancel), and whether
        // it was a cancel.
        let mut stopped: Option<Instant> = None;
        let mut cancelled = false;
        loop {
            if stop.load(Ordering::Relaxed) {
                let _ = self.send("stop");
                return Think::Aborted;
            }
            let now = Instant::now();
            if !cancelled && (watch.cancel)() {
                cancelled = true;
                if stopped.is_none() {
                    stopped = Some(now);
                    let _ = self.send("stop");
                }
            }
            if now >= due && stopped.is_none() {
                stopped = Some(now);
                let _ = self.send("stop");
            }
            // After `stop` (by the deadline or a cancel) the engine has
            // `stop_wait` more to answer.
            let until = match stopped {
                Some(at) => at + stop_wait,
                None => due,
            };
            if stopped.is_some() && now >= until {
                return Think::NoReply(now - sent);
            }
            match self
                .rx
                .recv_timeout(until.saturating_duration_since(now).min(POLL))
            {
                Ok(Line::Text(t, at)) => {
                    if let Ok(info) = t.parse::<Info>() {
                        reply.absorb(&info);
                        (watch.on_info)(&info);
                    } else if t == "bestmove" || t.starts_with("bestmove ") {
                        // A line that is no well-formed `bestmove` keeps its
                        // first word, for the referee to judge.
                        reply.bestmove = match t.parse::<BestMove>() {
                            Ok(b) => b.mv.to_string(),
                            Err(_) => t.split_whitespace().nth(1).unwrap_or("").to_string(),
                        };
                        reply.elapsed = at - sent;
                        // Judge by the time of reading, not by when we looked.
                        return if cancelled {
                            Think::Cancelled(reply)
                        } else if at > due {
                            Think::Late(reply)
                        } else {
                            Think::Move(reply)
                        };
                    }
                }
                Ok(Line::Eof) | Err(RecvTimeoutError::Disconnected) => {
                    let elapsed = sent.elapsed();
                    return Think::Crashed(self.exit_status(), elapsed);
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn absorb(reply: &mut Reply, line: &str) {
        if let Ok(info) = line.parse::<Info>() {
            reply.absorb(&info);
        }
    }

    #[test]
    fn a_reply_keeps_the_last_best_line_fields() {
        let mut r = Reply::default();
        absorb(
            &mut r,
            "info depth 7 seldepth 9 score cp -35 nodes 100 pv a1a2",
        );
        assert_eq!((r.depth, r.score), (Some(7), Some(Score::Cp(-35))));
        assert_eq!(r.pv, vec!["a1a2"]);
        absorb(&mut r, "info depth 8 score mate -3 pv b1c3");
        assert_eq!(r.score, Some(Score::Mate(-3)));
        absorb(&mut r, "info string score cp 999");
        assert_eq!(r.score, Some(Score::Mate(-3)));
        // A malformed line changes nothing.
        absorb(&mut r, "info score cp x depth 20");
        assert_eq!(r.depth, Some(8));
        // A line without a field keeps the earlier value.
        absorb(&mut r, "info depth 9 nodes 5000");
        assert_eq!((r.depth, r.score), (Some(9), Some(Score::Mate(-3))));
        assert_eq!(r.pv, vec!["b1c3"]);
    }

    #[test]
    fn only_the_best_line_of_a_multipv_search_is_the_score() {
        let mut r = Reply::default();
        for line in [
            "info depth 5 multipv 1 score cp 40 pv a1a2",
            "info depth 5 multipv 2 score cp -300 wdl 0 0 1000 pv b1b2",
            "info depth 6 multipv 2 score mate -2 pv c1c2",
            "info depth 6 multipv 1 score cp 35 wdl 300 500 200 pv d1d2 e1e2",
            "info depth 6 multipv 3 score cp -900 pv f1f2",
        ] {
            absorb(&mut r, line);
        }
        assert_eq!(r.score, Some(Score::Cp(35)));
        assert_eq!(r.depth, Some(6));
        assert_eq!(r.pv, vec!["d1d2", "e1e2"]);
        assert_eq!(r.wdl, Some([300, 500, 200]));
    }

    #[test]
    fn the_answer_is_typed() {
        let mut r = Reply::default();
        for (text, answer) in [
            ("b1c3", Answer::Move("b1c3".into())),
            ("resign", Answer::Resign),
            ("(none)", Answer::NoMove),
            ("", Answer::Move(String::new())),
        ] {
            r.bestmove = text.to_string();
            assert_eq!(r.answer(), answer);
        }
    }
}
