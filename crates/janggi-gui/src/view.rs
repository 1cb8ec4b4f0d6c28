//! What the page reads, as JSON: the game's view (§8.3), the engine's
//! status and report, the review, the replies to the API's calls and the
//! errors. The shapes are the page's (assets/app.js); only this module
//! (and the event stream's small notes) writes JSON.

use crate::app::{App, InfoReport, Reply};
use crate::error::{ApiError, Listing};
use crate::session::{
    bikjang_warning, pass_warning, Answered, Hints, Mode, Phase, Session, Source, Warning,
};
use janggi_analysis::Mark;
use janggi_core::{
    piece_name, Color, Event, KoreanScript, Move, PieceKind, Position, Setup, Square,
    REPETITION_WARNING,
};
use serde_json::{json, Map, Value};
use std::time::Instant;

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Cho => "cho",
        Color::Han => "han",
    }
}

fn event_name(e: Event) -> &'static str {
    match e {
        Event::BikjangCalled => "bikjang",
        Event::RepetitionWarning => "repetitionWarning",
        Event::Check => "check",
        Event::CheckAnswered => "checkAnswered",
        Event::GameOver => "gameOver",
    }
}

fn event_names(events: &[Event]) -> Vec<&'static str> {
    events.iter().copied().map(event_name).collect()
}

fn points_text(p: f64) -> String {
    if (p.fract()).abs() < 1e-9 {
        format!("{p:.0}")
    } else {
        format!("{p:.1}")
    }
}

fn sq(s: Square) -> String {
    s.uci().as_str().to_string()
}

fn move_json(m: Move) -> Value {
    json!({"from": sq(m.from()), "to": sq(m.to())})
}

/// The pieces of `pos` as the page draws them.
fn board(pos: &Position) -> Vec<Value> {
    Square::ALL
        .iter()
        .filter_map(|&s| {
            let p = pos.piece_at(s)?;
            Some(json!({
                "sq": sq(s),
                "f": s.file(),
                "r": s.rank(),
                "side": color_name(p.color),
                "kind": p.kind.english(),
                "hanja": piece_name(p.kind, p.color, KoreanScript::Hanja),
                "hangul": piece_name(p.kind, p.color, KoreanScript::Hangul),
                "big": matches!(p.kind, PieceKind::Chariot | PieceKind::Cannon | PieceKind::Horse | PieceKind::Elephant),
            }))
        })
        .collect()
}

/// The board during the setup phase: once Han has chosen, Han's pieces
/// as arranged and Cho's without the horses and elephants Cho still
/// chooses; before that, the start position.
fn setup_board(han: Option<Setup>, start: &Position) -> Vec<Value> {
    let Some(h) = han else {
        return board(start);
    };
    let pos = Position::from_setups(h, Setup::Mssm);
    board(&pos)
        .into_iter()
        .filter(|p| p["side"] == "han" || !(p["kind"] == "horse" || p["kind"] == "elephant"))
        .collect()
}

fn warning(w: &Warning, bikjang: bool) -> Value {
    json!({
        "atOnce": w.at_once,
        "ko": w.ko(bikjang),
        "en": w.en(bikjang),
        "winner": w.outcome.winner.map(color_name),
        "scores": {"cho": w.outcome.cho_points, "han": w.outcome.han_points},
    })
}

fn source(s: &Source) -> Value {
    json!({
        "cho": s.cho,
        "han": s.han,
        "event": s.event,
        "date": s.date,
        "result": s.result,
        "plies": s.plies,
    })
}

fn clock(session: &Session) -> Value {
    let Some(c) = session.clock_reading(Instant::now()) else {
        return Value::Null;
    };
    let side = |col: Color| json!({"mainMs": c.main_ms[col.index()], "periodsLeft": c.periods[col.index()]});
    json!({
        "cho": side(Color::Cho),
        "han": side(Color::Han),
        "periodMs": c.period_ms,
        "running": c.running.map(color_name),
        "elapsedMs": c.elapsed_ms,
        "deadlineInMs": c.deadline_in_ms,
    })
}

/// The public view of the game (§8.3).
pub fn session(s: &Session) -> Value {
    let game = &s.game;
    let pos = game.position();
    let (cho, han) = (game.score(Color::Cho), game.score(Color::Han));
    let phase = match s.phase {
        Phase::Setup { .. } => "setup",
        Phase::Playing if game.outcome().is_some() => "finished",
        Phase::Playing => "playing",
    };
    let setup = match s.phase {
        Phase::Setup { han } => json!({
            "han": han.map(|s| s.name()),
            "cho": Value::Null,
            "next": if han.is_none() { "han" } else { "cho" },
        }),
        Phase::Playing => json!({
            "han": s.setups.map(|s| s.0.name()),
            "cho": s.setups.map(|s| s.1.name()),
            "next": Value::Null,
        }),
    };
    let result = game.outcome().map(|o| {
        json!({
            "winner": o.winner.map(color_name),
            "reason": o.reason.name(),
            "summaryKo": o.summary_ko(),
            "summaryEn": o.summary_en(),
            "scores": {"cho": o.cho_points, "han": o.han_points},
            "moveCount": o.move_count,
        })
    });
    let side = game.side_to_move();
    let threatened: Vec<String> = s.threatened().into_iter().map(sq).collect();
    let moves: Vec<Value> = s
        .record
        .iter()
        .enumerate()
        .map(|(i, p)| {
            json!({
                "ply": i + 1,
                "side": color_name(p.side),
                "uci": p.uci,
                "korean": p.korean,
                "events": event_names(&p.events),
                "eval": p.eval,
            })
        })
        .collect();
    let last = game.moves().last().copied().filter(|m| !m.is_pass());
    let mut settings = Map::new();
    let (mode, human) = match s.settings.mode {
        Mode::HumanVsEngine(h) => ("hve", Some(color_name(h))),
        Mode::HumanVsHuman => ("hvh", None),
        Mode::EngineVsEngine => ("eve", None),
    };
    settings.insert("mode".into(), json!(mode));
    settings.insert("human".into(), json!(human));
    settings.insert("level".into(), json!(s.settings.level.name()));
    settings.insert("skill".into(), json!(s.settings.skill));
    settings.insert("rules".into(), json!(s.settings.rules.to_string()));
    settings.insert("variant".into(), json!(s.settings.variant));
    settings.insert(
        "hints".into(),
        json!(match s.settings.hints {
            Hints::Off => "off",
            Hints::Moves => "moves",
            Hints::MovesAndThreats => "movesAndThreats",
        }),
    );
    settings.insert("allowPass".into(), json!(s.settings.rules.allow_pass));
    settings.insert("drawOffer".into(), json!(s.settings.draw_offer));
    json!({
        "phase": phase,
        "setup": setup,
        "sideToMove": color_name(side),
        "humanToMove": phase == "playing" && s.is_human(side),
        "ply": s.record.len(),
        "board": match s.phase {
            Phase::Setup { han } => setup_board(han, pos),
            Phase::Playing => board(pos),
        },
        "score": {"cho": cho, "han": han, "text": format!("초 {} : 한 {}", points_text(cho), points_text(han))},
        "inCheck": phase == "playing" && game.in_check(),
        "pendingBikjang": game.pending_bikjang().is_some(),
        "firstCapturePly": game.first_capture_ply(),
        "repetitionCount": game.repetition_count(),
        "repetitionWarning": phase == "playing" && game.repetition_count() >= REPETITION_WARNING,
        "threatened": threatened,
        "moves": moves,
        "lastMove": last.map(move_json),
        "result": result,
        "settings": settings,
        "undoLeft": s.settings.undo_limit.map(|l| l.saturating_sub(s.undo_used)),
        "drawAnswer": s.draw_answer.map(|a| json!({
            "accepted": a.accept,
            "reason": a.reason.name(),
            "ko": a.reason.ko(),
            "en": a.reason.en(),
        })),
        "source": s.source.as_ref().map(source),
        "pending": s.pending.map(|p| json!({
            "ask": p.ask.name(),
            "by": color_name(p.by),
            "ko": p.ask.ko(),
            "en": p.ask.en(),
        })),
        "passWarning": (phase == "playing" && s.is_human(side))
            .then(|| pass_warning(game))
            .flatten()
            .map(|w| warning(&w, false)),
        "bikjangWarning": bikjang_warning(game).map(|w| warning(&w, true)),
        "clock": clock(s),
    })
}

/// The page's whole state: the game's view with the engine's status and
/// report, whether every page was away, the review, and `version`.
pub fn state(app: &App, version: u64) -> Value {
    let mut v = session(&app.session);
    if let Some(obj) = v.as_object_mut() {
        obj.insert("version".into(), json!(version));
        obj.insert(
            "engine".into(),
            json!({
                "state": app.status.state.name(),
                "message": app.status.message,
                "name": app.status.name,
                "note": app.status.note,
                "thinking": app.thinking,
                "crashes": app.status.crashes,
                "lastCrash": app.status.last_crash,
            }),
        );
        obj.insert(
            "analysis".into(),
            app.analysis.as_ref().map_or(Value::Null, info),
        );
        obj.insert("away".into(), json!(app.away));
        obj.insert("review".into(), review(app));
    }
    v
}

/// The engine's report.
pub fn info(i: &InfoReport) -> Value {
    json!({
        "ply": i.ply,
        "depth": i.depth,
        "cp": i.cho_cp,
        "mate": i.mate,
        "wdl": i.wdl,
        "nodes": i.nodes,
        "pv": i.pv,
        "pvKorean": i.pv_korean,
    })
}

fn mark_text(m: Option<Mark>) -> Option<&'static str> {
    m.map(|m| match m {
        Mark::Inaccuracy => "?!",
        Mark::Mistake => "?",
        Mark::Blunder => "??",
    })
}

/// The analysis for the page, while it is the current game's.
fn review(app: &App) -> Value {
    let running = app
        .analysing
        .map(|(done, total)| json!({"done": done, "total": total}));
    let Some(r) = app.review.as_ref().filter(|r| {
        r.game_id == app.game_id
            && r.uci.len() <= app.session.record.len()
            && r.uci
                .iter()
                .zip(&app.session.record)
                .all(|(a, b)| *a == b.uci)
    }) else {
        return json!({"running": running, "error": app.review_error});
    };
    let moves: Vec<Value> = r
        .analysis
        .moves
        .iter()
        .map(|m| {
            json!({
                "ply": m.ply,
                "mark": mark_text(m.mark),
                "markName": m.mark.map(Mark::name),
                "loss": (m.loss * 10.0).round() / 10.0,
                "after": m.after.eval_tag(),
                "best": m.best.as_ref().map(|b| &b.2),
            })
        })
        .collect();
    let side = |i: usize| {
        let s = &r.analysis.sides[i];
        json!({
            "accuracy": (s.accuracy * 10.0).round() / 10.0,
            "averageLoss": (s.average_loss * 10.0).round() / 10.0,
            "inaccuracies": s.marks[0],
            "mistakes": s.marks[1],
            "blunders": s.marks[2],
        })
    };
    json!({
        "running": running,
        "error": app.review_error,
        "moves": moves,
        "cho": side(0),
        "han": side(1),
        "svg": r.svg,
    })
}

/// A call's answer (the page's state is added by [`with_state`]).
pub fn reply(r: &Reply) -> Value {
    match r {
        Reply::Done => json!({"ok": true}),
        Reply::Destinations(from, list) => {
            let list: Vec<Value> = list
                .iter()
                .map(|d| {
                    json!({
                        "to": sq(d.to),
                        "capture": d.capture,
                        "screen": d.screen.map(sq),
                    })
                })
                .collect();
            json!({"from": sq(*from), "destinations": list})
        }
        Reply::Played(events) => json!({"ok": true, "events": event_names(events)}),
        Reply::Undone(n) => json!({"ok": true, "undone": n}),
        Reply::Draw(a) => json!({
            "ok": true,
            "accepted": a.accept,
            "reason": a.reason.name(),
            "ko": a.reason.ko(),
            "en": a.reason.en(),
        }),
        Reply::Position(p) => {
            let g = &p.game;
            json!({
                "ply": p.ply,
                "plies": p.plies,
                "board": board(g.position()),
                "sideToMove": color_name(g.side_to_move()),
                "score": {"cho": g.score(Color::Cho), "han": g.score(Color::Han)},
                "inCheck": g.in_check(),
                "lastMove": p.last.map(move_json),
                "move": p.played.as_ref().map(|m| json!({"korean": m.korean, "uci": m.uci})),
            })
        }
        Reply::AnalysisStarted => json!({"ok": true, "started": true}),
        Reply::Asked(a) => json!({"ok": true, "asked": a.name()}),
        Reply::Answered(a) => json!({
            "ok": true,
            "accepted": !matches!(a, Answered::Declined(_)),
            "ko": a.ko(),
            "en": a.en(),
        }),
        Reply::EngineRestarted => json!({"ok": true}),
    }
}

/// `reply` with the page's `state` in it.
pub fn with_state(mut reply: Value, state: Value) -> Value {
    if let Some(o) = reply.as_object_mut() {
        o.insert("state".into(), state);
    }
    reply
}

fn listing(l: &Listing) -> Value {
    match l {
        Listing::Game {
            index,
            source: s,
            warnings,
        } => {
            let mut v = source(s);
            if let Some(o) = v.as_object_mut() {
                o.insert("index".into(), json!(index));
                o.insert("ok".into(), json!(true));
                o.insert("warnings".into(), json!(warnings));
            }
            v
        }
        Listing::Broken { game, error } => json!({"ok": false, "game": game, "error": error}),
    }
}

/// The games of an uploaded record file.
pub fn listings(list: &[Listing]) -> Value {
    json!({"ok": true, "games": list.iter().map(listing).collect::<Vec<_>>()})
}

/// An error as the page reads it: `{"error": {code, en, ko}}` (with the
/// file's list for a record file without a game).
pub fn error(e: &ApiError) -> Value {
    let (code, ko) = e.code_ko();
    let mut v = json!({"error": {"code": code, "en": e.to_string(), "ko": ko}});
    if let (ApiError::NoGame(list), Some(o)) = (e, v.as_object_mut()) {
        o.insert(
            "games".into(),
            Value::Array(list.iter().map(listing).collect()),
        );
    }
    v
}
