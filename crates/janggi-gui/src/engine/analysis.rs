//! The board's game analysis: a second process of the board's engine
//! command analyses the current game on its own thread with
//! janggi-analysis (the implementation `janggi-engine analyse` uses);
//! progress and the result reach the pages as events.

use crate::app::{App, Review, Shared};
use crate::error::ApiError;
use crate::session::PhaseError;
use janggi_analysis::{AnalysisError, Eval, Evaluator, Score};
use janggi_core::Rules;
use janggi_match::engine_process::{EngineProcess, EngineScore, ProcessError, Think};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

/// Starts analysing the current game.
///
/// # Errors
/// An analysis already runs, the game has no moves, or no thread.
pub fn start(shared: &Arc<Shared>, app: &mut App) -> Result<(), ApiError> {
    if app.analysing.is_some() {
        return Err(PhaseError::AnalysisRunning.into());
    }
    if app.session.record.is_empty() {
        return Err(PhaseError::NothingToAnalyse.into());
    }
    let rec = app.session.to_record(None);
    let uci: Vec<String> = app.session.record.iter().map(|p| p.uci.clone()).collect();
    let game_id = app.game_id;
    app.analysing = Some((0, rec.plies.len() + 1));
    app.review_error = None;
    let s = Arc::clone(shared);
    let spawned = thread::Builder::new()
        .name("analysis".into())
        .spawn(move || {
            let result = AnalysisEngine::start(&s, &rec.rules).and_then(|mut e| {
                janggi_analysis::analyse(&rec, &mut e, &mut |done, total| {
                    let mut app = s.app();
                    app.analysing = Some((done, total));
                    s.events.analysis_progress(done, total);
                    drop(app);
                })
            });
            let mut app = s.app();
            app.analysing = None;
            match result {
                Ok(analysis) => {
                    let svg = janggi_analysis::svg_graph(&analysis, "");
                    app.review = Some(Review {
                        game_id,
                        uci,
                        analysis,
                        svg,
                    });
                }
                Err(e) => {
                    app.review_error =
                        Some(format!("분석하지 못했어요 / the analysis failed: {e}"));
                }
            }
            s.events.state(&app);
        });
    if spawned.is_err() {
        app.analysing = None;
        return Err(ApiError::NoThread("the analysis"));
    }
    Ok(())
}

/// The engine of the board's game analysis: a second process of the
/// board's engine command, driven by the match runner's
/// [`EngineProcess`], set up for the game's rules as the playing engine
/// is (`UCI_Variant` when the rules are a preset and the engine has it,
/// else this engine's rule options, else `UCI_Variant janggi`), each
/// position searched `go movetime N`. `janggi_analysis::analyse` runs
/// over it (the trait [`Evaluator`]), as `janggi-engine analyse` does.
struct AnalysisEngine {
    process: EngineProcess,
    shared: Arc<Shared>,
}

impl AnalysisEngine {
    fn start(shared: &Arc<Shared>, rules: &Rules) -> Result<AnalysisEngine, AnalysisError> {
        let start = |e: ProcessError| AnalysisError::Start(e.to_string());
        let timeout = super::HANDSHAKE_TIMEOUT;
        let launch = shared.engine_cmd.launch();
        let mut p = EngineProcess::start(&launch, "analysis", false, timeout, &shared.stop)
            .map_err(start)?;
        p.set_rules(rules).map_err(start)?;
        p.new_game(timeout, &shared.stop).map_err(start)?;
        Ok(AnalysisEngine {
            process: p,
            shared: Arc::clone(shared),
        })
    }
}

impl Evaluator for AnalysisEngine {
    fn evaluate(&mut self, fen: &str, moves: &[String]) -> Result<Eval, AnalysisError> {
        let mut position = format!("position fen {fen}");
        if !moves.is_empty() {
            position.push_str(" moves ");
            position.push_str(&moves.join(" "));
        }
        let ms = self.shared.tuning.analysis_movetime_ms;
        let think = self.process.think(
            &position,
            &janggi_uci::Go::movetime(ms),
            Duration::from_millis(ms) + self.shared.grace,
            self.shared.grace,
            &self.shared.stop,
        );
        match think {
            Think::Move(r) | Think::Late(r) => Ok(Eval {
                score: match r.score {
                    Some(EngineScore::Cp(c)) => Score::Cp(c),
                    Some(EngineScore::Mate(n)) => Score::Mate(n),
                    None => Score::Cp(0),
                },
                best: r.bestmove,
            }),
            other => Err(AnalysisError::NoAnswer(format!("{other:?}"))),
        }
    }
}
