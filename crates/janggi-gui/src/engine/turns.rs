//! The engine's turns: whenever the engine is to move (and a page is
//! watching), a worker thread starts the engine process if needed, sets
//! it up for the game, sends `position` and `go`, passes its reports to
//! the pages and plays its `bestmove` through the referee. A crash or
//! hang restarts it (up to [`MAX_RESTARTS`] in a row); an illegal move
//! takes it off the board.

use super::{Player, Turn};
use crate::app::{App, EngineState, InfoReport, Shared};
use janggi_core::{Color, KoreanScript, Notation, Position};
use janggi_match::engine_process::{EngineScore, Info, ProcessError, Think};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::thread;
use std::time::Instant;

/// Engine restarts in a row before the board gives up on it.
pub const MAX_RESTARTS: u32 = 3;

/// Starts the engine's turn on a worker thread if the engine is to move.
pub fn schedule(shared: &Arc<Shared>) {
    let mut app = shared.app();
    if app.thinking
        || app.down
        || app.away
        || shared.stop.load(Ordering::SeqCst)
        || !app.session.engine_to_move()
    {
        return;
    }
    app.thinking = true;
    drop(app);
    let s = Arc::clone(shared);
    let spawned = thread::Builder::new()
        .name("engine-turn".into())
        .spawn(move || engine_loop(&s));
    if spawned.is_err() {
        let mut app = shared.app();
        app.thinking = false;
        app.status.state = EngineState::Down;
        app.status.message = "cannot start a thread for the engine".into();
    }
}

/// A principal variation (UCI) in Korean notation from `pos`: `한수쉼`
/// for a pass (`f9f9`), ` 장군` after a check; it stops at the first move
/// that does not read or is not legal there.
pub fn korean_line(pos: &Position, pv: &[String]) -> Vec<String> {
    let mut pos = pos.clone();
    let mut out = Vec::new();
    for text in pv {
        let Ok(mv) = pos.parse_move(text, Notation::Uci) else {
            break;
        };
        if !mv.is_pass() && !pos.is_pseudo_legal(mv) {
            break;
        }
        out.push(pos.korean_marked(mv, KoreanScript::Hangul));
        pos.make(mv);
    }
    out
}

/// An `info` report of the engine playing `side` in `pos`, about `ply`,
/// from Cho's side.
fn report(info: &Info, pos: &Position, ply: usize) -> InfoReport {
    let side = pos.side_to_move();
    let sign = if side == Color::Cho { 1 } else { -1 };
    InfoReport {
        ply,
        depth: info.depth,
        cho_cp: info.score.map(|s| sign * s.to_cp()),
        mate: match info.score {
            Some(EngineScore::Mate(m)) => Some(m * sign),
            _ => None,
        },
        wdl: info.wdl.map(|[w, d, l]| {
            if side == Color::Cho {
                [w, d, l]
            } else {
                [l, d, w]
            }
        }),
        nodes: info.nodes,
        pv: info.pv.clone(),
        pv_korean: korean_line(pos, &info.pv),
    }
}

/// Ends the turn: the engine is not thinking any more.
fn idle(shared: &Shared, app: &mut App) {
    app.thinking = false;
    if app.status.state == EngineState::Thinking {
        app.status.state = EngineState::Idle;
    }
    shared.events.state(app);
}

fn engine_loop(shared: &Arc<Shared>) {
    loop {
        let (gen, position, turn, settings, game_id, engine, searched, ply) = {
            let mut app = shared.app();
            if shared.stop.load(Ordering::SeqCst)
                || app.down
                || app.away
                || !app.session.engine_to_move()
            {
                idle(shared, &mut app);
                return;
            }
            let engine = app.engine.take();
            (
                app.session.generation,
                app.session.position_line(),
                Turn::for_session(&app.session, Instant::now()),
                app.session.settings.clone(),
                app.game_id,
                engine,
                app.session.game.position().clone(),
                app.session.record.len(),
            )
        };
        let mut engine = match engine {
            Some(e) => e,
            None => match Player::start(&shared.engine_cmd, &shared.stop) {
                Ok(e) => e,
                Err(err) => {
                    let spawn = matches!(err, ProcessError::Spawn(_));
                    if engine_failed(shared, &err.to_string(), spawn) {
                        return;
                    }
                    continue;
                }
            },
        };
        if engine.configured != Some(game_id) {
            match engine.configure(&settings, &shared.stop) {
                Ok(note) => {
                    engine.configured = Some(game_id);
                    let mut app = shared.app();
                    app.status.note = note;
                    app.status.name = engine.name();
                }
                Err(err) => {
                    drop(engine);
                    if engine_failed(shared, &err.to_string(), false) {
                        return;
                    }
                    continue;
                }
            }
        }
        {
            let mut app = shared.app();
            app.status.state = EngineState::Thinking;
            shared.events.state(&app);
        }
        let cancelled = || {
            shared.away.load(Ordering::SeqCst) || shared.generation.load(Ordering::SeqCst) != gen
        };
        let mut on_info = |info: &Info| {
            // Only the best line of a MultiPV search is the engine's view;
            // lines without a score or a PV say nothing for the page.
            if !info.is_main_line()
                || info.string.is_some()
                || (info.score.is_none() && info.pv.is_empty())
            {
                return;
            }
            let r = report(info, &searched, ply);
            let mut app = shared.app();
            if app.session.generation == gen {
                if r.cho_cp.is_some() {
                    app.last_eval = r.cho_cp;
                }
                app.analysis = Some(r.clone());
                drop(app);
                shared.events.info(&r);
            }
        };
        let think = engine.think(
            &position,
            &turn,
            shared.grace,
            &shared.stop,
            &cancelled,
            &mut on_info,
        );
        match think {
            Think::Move(reply) | Think::Late(reply) => {
                let best = reply.bestmove;
                let mut app = shared.app();
                app.engine = Some(engine);
                app.restarts = 0;
                if app.session.generation != gen {
                    continue;
                }
                let mv = app.session.game.position().parse_move(&best, Notation::Uci);
                let played = match mv {
                    Ok(mv) => app.session.play(mv, true).map_err(|e| e.to_string()),
                    Err(e) => Err(e.to_string()),
                };
                match played {
                    Ok(_) => {
                        let eval = app.last_eval;
                        if let Some(p) = app.session.record.last_mut() {
                            p.eval = eval;
                        }
                        app.session.generation += 1;
                        shared.publish_generation(&app);
                        shared.events.state(&app);
                    }
                    Err(why) => {
                        app.down = true;
                        app.thinking = false;
                        app.status.state = EngineState::Illegal;
                        app.status.message = format!("엔진이 둘 수 없는 수를 보냈어요 / the engine sent a move that is not legal here: {best:?} ({why})");
                        shared.events.state(&app);
                        return;
                    }
                }
            }
            // Stopped and its answer dropped: the engine is idle again.
            Think::Cancelled(_) => {
                shared.app().engine = Some(engine);
            }
            // The server stops: the engine goes with it.
            Think::Aborted => {}
            Think::NoReply(waited) => {
                drop(engine);
                let why = format!(
                    "no bestmove in {} ms, not even after stop",
                    waited.as_millis()
                );
                if engine_failed(shared, &why, false) {
                    return;
                }
            }
            Think::Crashed(status, _) => {
                drop(engine);
                if engine_failed(shared, &format!("the engine stopped ({status})"), false) {
                    return;
                }
            }
        }
    }
}

/// Records a crash or hang (`err` says which); returns true when the
/// board gives up (too many in a row, or it cannot be started at all).
fn engine_failed(shared: &Shared, err: &str, cannot_start: bool) -> bool {
    let mut app = shared.app();
    app.restarts += 1;
    let give_up = app.restarts > MAX_RESTARTS || cannot_start;
    if give_up {
        app.down = true;
        app.thinking = false;
        app.status.state = EngineState::Down;
        app.status.message = format!("엔진을 쓸 수 없어요 / engine unavailable: {err}");
    } else {
        app.status.state = EngineState::Restarting;
    }
    app.status.crashes += 1;
    // One message, the same in the status line and the message box.
    app.status.last_crash = Some(if give_up {
        app.status.message.clone()
    } else {
        format!(
            "엔진이 멈춰서 다시 시작했어요 / the engine stopped and is restarted, the game is kept: {err}"
        )
    });
    shared.events.engine_crash(&app, give_up);
    shared.events.state(&app);
    give_up
}

/// The restart-engine button: the board tries the engine again from
/// scratch (the restart count starts over; an idle process is replaced,
/// the old one shut down on a thread of its own). A search under way goes
/// on.
pub fn restart(app: &mut App) {
    app.down = false;
    app.restarts = 0;
    if !app.thinking {
        if let Some(old) = app.engine.take() {
            let _ = thread::Builder::new()
                .name("engine-shutdown".into())
                .spawn(move || drop(old));
        }
        app.status.state = EngineState::Idle;
    }
    app.status.message.clear();
    app.status.last_crash = None;
}

/// Notices an idle engine that went away (killed, crashed between
/// moves): the board says so at once and starts it again for its next
/// turn.
pub fn watch_idle(shared: &Shared, app: &mut App) {
    let dead = app.engine.as_mut().is_some_and(|e| !e.process.is_alive());
    if !dead {
        return;
    }
    app.engine = None;
    app.status.crashes += 1;
    app.status.last_crash = Some(
        "엔진이 쉬는 동안 멈췄어요: 다음 차례에 다시 시작해요 / the engine stopped while idle; it is started again for its next move"
            .to_string(),
    );
    shared.events.engine_crash(app, false);
    shared.events.state(app);
}

#[cfg(test)]
mod tests {
    use super::*;
    use janggi_core::Move;

    /// The engine's line in Korean: a pass (the general's point twice,
    /// `e9e9` for Han at the start) reads 한수쉼; the line stops at the
    /// first move that is not legal or does not read.
    #[test]
    fn the_principal_variation_reads_in_korean() {
        let pos = Position::startpos();
        let a4a5 = pos.parse_move("a4a5", Notation::Uci).unwrap();
        let first = pos.korean_marked(a4a5, KoreanScript::Hangul);
        let mut after = pos.clone();
        after.make(a4a5);
        assert_eq!(after.parse_move("e9e9", Notation::Uci), Ok(Move::PASS));
        let line = |pv: &[&str]| {
            let pv: Vec<String> = pv.iter().map(|s| s.to_string()).collect();
            korean_line(&pos, &pv)
        };
        assert_eq!(
            line(&["a4a5", "e9e9"]),
            [first.clone(), "한수쉼".to_string()]
        );
        assert_eq!(
            line(&["a4a5", "a1a9", "e9e9"]),
            std::slice::from_ref(&first)
        );
        assert_eq!(line(&["a4a5", "zz", "e9e9"]), [first]);
        assert!(line(&[]).is_empty());
    }
}
