//! # janggi-analysis — where did the game turn?
//!
//! Every position of a game is searched by a UCI engine ([`Evaluator`];
//! [`UciEngine`] drives any UCI engine as a child process, this engine
//! included). Each move gets the evaluation before and after, the engine's
//! best move when it differs, and a mark from the **win-probability loss**
//! of the mover:
//!
//! * the win probability of a score is the expected score of the WDL model
//!   this engine reports with `UCI_ShowWDL` (src/protocol/wdl.rs):
//!   `W = σ((cp − 60)/150)`, `L = σ((−cp − 60)/150)`, `D = 1 − W − L`,
//!   `P = W + D/2`; a mate is certain (1 or 0);
//! * the loss of a move is `P(before, mover's view) − P(after, mover's
//!   view)`, at least 0, in percentage points;
//! * marks (as lichess draws them): **inaccuracy** `?!` from 10 points,
//!   **mistake** `?` from 20, **blunder** `??` from 30;
//! * accuracy of a move (lichess's formula on the same loss):
//!   `103.1668 · e^(−0.04354 · loss) − 3.1669`, clamped to 0–100; a side's
//!   accuracy is the mean over its moves, beside its mean loss.
//!
//! Output: PGN with `{[%eval …]}` comments and NAGs and a per-side summary
//! ([`annotated_pgn`]), JSON ([`to_json`]) and an SVG evaluation graph with
//! the mistakes marked ([`svg_graph`]). Many games: [`batch`] (in parallel,
//! in input order; shards).

use janggi_core::{Color, Game, KoreanScript, Notation, Rules};
use janggi_match::engine_process::{EngineProcess, EngineProtocol, Launch, RulesSetup, Think};
use janggi_records::san::write_san_in;
use janggi_records::Record;
use janggi_uci::Go;
use std::fmt;
use std::fmt::Write as _;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// An engine's score, from the side to move's point of view: the wire's
/// own [`janggi_uci::Score`] (centipawns or mate), with
/// [`flip`](Score::flip) and [`eval_tag`](Score::eval_tag); the win
/// probability of the analysis' model is [`WinProbability`].
pub use janggi_uci::Score;

/// The win probability of a [`Score`] under the engine's WDL model (see
/// the crate docs).
pub trait WinProbability {
    /// Win probability (expected score, 0–1) for the side whose view this
    /// is.
    fn win_probability(self) -> f64;
}

impl WinProbability for Score {
    fn win_probability(self) -> f64 {
        match self {
            Score::Mate(n) if n > 0 => 1.0,
            Score::Mate(_) => 0.0,
            Score::Cp(cp) => {
                let cp = f64::from(cp);
                let s = |x: f64| 1.0 / (1.0 + (-x / WDL_SCALE_CP).exp());
                let w = s(cp - WDL_DRAW_MARGIN_CP);
                let l = s(-cp - WDL_DRAW_MARGIN_CP);
                w + (1.0 - w - l) / 2.0
            }
        }
    }
}

/// The WDL model's scale (src/protocol/wdl.rs `WDL_SCALE_CP`).
pub const WDL_SCALE_CP: f64 = 150.0;
/// The WDL model's draw margin (src/protocol/wdl.rs `WDL_DRAW_MARGIN_CP`).
pub const WDL_DRAW_MARGIN_CP: f64 = 60.0;

/// Win-probability loss (percentage points) from which a move is an
/// inaccuracy.
pub const INACCURACY: f64 = 10.0;
/// … a mistake.
pub const MISTAKE: f64 = 20.0;
/// … a blunder.
pub const BLUNDER: f64 = 30.0;

/// A move's mark.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mark {
    /// `?!`
    Inaccuracy,
    /// `?`
    Mistake,
    /// `??`
    Blunder,
}

impl Mark {
    /// The mark for a loss in percentage points.
    pub fn of_loss(loss: f64) -> Option<Mark> {
        if loss >= BLUNDER {
            Some(Mark::Blunder)
        } else if loss >= MISTAKE {
            Some(Mark::Mistake)
        } else if loss >= INACCURACY {
            Some(Mark::Inaccuracy)
        } else {
            None
        }
    }
    /// `inaccuracy`, `mistake`, `blunder`.
    pub fn name(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }
    /// The PGN NAG (`$6`, `$2`, `$4`).
    pub fn nag(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "$6",
            Mark::Mistake => "$2",
            Mark::Blunder => "$4",
        }
    }
}

/// lichess's per-move accuracy for a loss in percentage points.
pub fn accuracy(loss: f64) -> f64 {
    (103.1668 * (-0.04354 * loss).exp() - 3.1669).clamp(0.0, 100.0)
}

/// What an engine said about one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Eval {
    /// The score, side to move's view.
    pub score: Score,
    /// The best move in UCI (empty when none).
    pub best: String,
}

/// Something that searches positions.
pub trait Evaluator {
    /// Searches the position after `moves` (UCI) from `fen`.
    ///
    /// # Errors
    /// [`AnalysisError`] when no answer comes.
    fn evaluate(&mut self, fen: &str, moves: &[String]) -> Result<Eval, AnalysisError>;

    /// Called before each game ([`analyse`]) with the record's rules: a
    /// UCI engine is told them (`UCI_Variant` or rule options, see
    /// [`EngineProcess::set_rules`]) and gets `ucinewgame` (its hash is
    /// cleared), so a game's analysis does not depend on the games the
    /// same engine analysed before it.
    ///
    /// # Errors
    /// [`AnalysisError`] when the engine does not answer.
    fn new_game(&mut self, rules: &Rules) -> Result<(), AnalysisError> {
        let _ = rules;
        Ok(())
    }

    /// After [`Evaluator::new_game`] with `rules`: why this engine's
    /// scores are not exactly under them, if they are not (see
    /// [`RulesSetup::caveat`]). `None` by default.
    fn rules_caveat(&self, rules: &Rules) -> Option<String> {
        let _ = rules;
        None
    }
}

/// Why an analysis stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnalysisError {
    /// The engine could not be started.
    Start(String),
    /// The engine gave no usable answer (with what happened).
    NoAnswer(String),
    /// The record's moves do not replay (index of the move).
    BadRecord(usize),
}

impl fmt::Display for AnalysisError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnalysisError::Start(e) => write!(f, "engine did not start: {e}"),
            AnalysisError::NoAnswer(e) => write!(f, "engine gave no answer: {e}"),
            AnalysisError::BadRecord(i) => write!(f, "move {} does not replay", i + 1),
        }
    }
}

impl std::error::Error for AnalysisError {}

/// How long each position is searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// `go movetime MS`.
    MoveTime(u64),
    /// `go nodes N`.
    Nodes(u64),
    /// `go depth D`.
    Depth(u32),
}

impl Limit {
    /// The `go` that searches one position under this limit.
    pub fn go(self) -> Go {
        match self {
            Limit::MoveTime(ms) => Go::movetime(ms),
            Limit::Nodes(n) => Go::nodes(n),
            Limit::Depth(d) => Go::depth(d),
        }
    }
}

/// A UCI engine as a child process.
pub struct UciEngine {
    process: EngineProcess,
    limit: Limit,
    stop: AtomicBool,
    /// How the last game's rules were told to it.
    setup: Option<RulesSetup>,
}

impl UciEngine {
    /// Starts `cmd args…` and does the UCI handshake; `threads` sets
    /// `Threads` when the engine has it.
    ///
    /// # Errors
    /// [`AnalysisError::Start`].
    pub fn start(
        cmd: &str,
        args: &[String],
        limit: Limit,
        threads: Option<u32>,
    ) -> Result<UciEngine, AnalysisError> {
        let launch = Launch {
            cmd: cmd.to_string(),
            args: args.to_vec(),
            dir: None,
            protocol: EngineProtocol::Uci,
        };
        let stop = AtomicBool::new(false);
        let mut process =
            EngineProcess::start(&launch, "analysis", false, Duration::from_secs(30), &stop)
                .map_err(|e| AnalysisError::Start(e.to_string()))?;
        if let Some(t) = threads {
            if process.option("Threads").is_some() {
                let _ = process.set_option("Threads", &t.to_string());
            }
        }
        process
            .new_game(Duration::from_secs(30), &stop)
            .map_err(|e| AnalysisError::Start(e.to_string()))?;
        Ok(UciEngine {
            process,
            limit,
            stop,
            setup: None,
        })
    }

    /// How the last game's rules were told to the engine
    /// ([`RulesSetup::Nearest`]: it analyses under Fairy-Stockfish's
    /// `janggi`, not exactly the record's rules).
    pub fn rules_setup(&self) -> Option<&RulesSetup> {
        self.setup.as_ref()
    }
}

impl Drop for UciEngine {
    fn drop(&mut self) {
        self.process.shutdown();
    }
}

impl Evaluator for UciEngine {
    fn new_game(&mut self, rules: &Rules) -> Result<(), AnalysisError> {
        let setup = self
            .process
            .set_rules(rules)
            .map_err(|e| AnalysisError::NoAnswer(e.to_string()))?;
        self.setup = Some(setup);
        self.process
            .new_game(Duration::from_secs(30), &self.stop)
            .map_err(|e| AnalysisError::NoAnswer(e.to_string()))
    }

    fn rules_caveat(&self, rules: &Rules) -> Option<String> {
        let setup = self.setup.as_ref()?;
        setup.caveat(rules)
    }

    fn evaluate(&mut self, fen: &str, moves: &[String]) -> Result<Eval, AnalysisError> {
        let mut position = format!("position fen {fen}");
        if !moves.is_empty() {
            position.push_str(" moves ");
            position.push_str(&moves.join(" "));
        }
        let deadline = match self.limit {
            Limit::MoveTime(ms) => Duration::from_millis(ms * 3 + 5_000),
            _ => Duration::from_secs(600),
        };
        match self.process.think(
            &position,
            &self.limit.go(),
            deadline,
            Duration::from_secs(5),
            &self.stop,
        ) {
            Think::Move(r) | Think::Late(r) => {
                // No score at all (an engine that sends none): even.
                let score = r.score.unwrap_or(Score::Cp(0));
                Ok(Eval {
                    score,
                    best: r.bestmove,
                })
            }
            other => Err(AnalysisError::NoAnswer(format!("{other:?}"))),
        }
    }
}

/// One analysed move.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveAnalysis {
    /// Ply number from 1.
    pub ply: usize,
    /// Who moved.
    pub side: Color,
    /// The move in UCI, SAN and Korean (Hangul).
    pub uci: String,
    /// SAN.
    pub san: String,
    /// Korean notation (`79졸78`).
    pub korean: String,
    /// The score before the move, Cho's view.
    pub before: Score,
    /// The score after the move, Cho's view.
    pub after: Score,
    /// The engine's best move (UCI, SAN, Korean) when it differs from the
    /// move played.
    pub best: Option<(String, String, String)>,
    /// The mover's win-probability loss, percentage points.
    pub loss: f64,
    /// The mark.
    pub mark: Option<Mark>,
}

/// Per side: mean loss and accuracy, and the marks' counts.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SideSummary {
    /// Moves.
    pub moves: usize,
    /// Mean win-probability loss, percentage points.
    pub average_loss: f64,
    /// Mean accuracy (0–100).
    pub accuracy: f64,
    /// Inaccuracies, mistakes, blunders.
    pub marks: [usize; 3],
}

/// A game's analysis.
#[derive(Clone, Debug, PartialEq)]
pub struct GameAnalysis {
    /// Every move.
    pub moves: Vec<MoveAnalysis>,
    /// The score of the start position, Cho's view.
    pub start: Score,
    /// Cho's and Han's summaries.
    pub sides: [SideSummary; 2],
    /// Set when the engine did not search under exactly the record's rules
    /// ([`Evaluator::rules_caveat`]); the annotated record and the JSON
    /// say so.
    pub rules_caveat: Option<String>,
    /// The record's result.
    pub result: janggi_records::GameResult,
    /// The rules the record was read and analysed under.
    pub rules: Rules,
    /// Whether the moves end the game (mate, bikjang, …); else the result
    /// came from outside the moves (resignation, time, agreement).
    pub ended_by_moves: bool,
}

/// Analyses `rec` with `engine`: every position searched once (the final
/// one only if the game is not over; a finished game's last position is
/// scored by its result). `progress` is called after each position.
///
/// # Errors
/// [`AnalysisError`].
pub fn analyse(
    rec: &Record,
    engine: &mut dyn Evaluator,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<GameAnalysis, AnalysisError> {
    engine.new_game(&rec.rules)?;
    let rules_caveat = engine.rules_caveat(&rec.rules);
    let fen = rec.start.fen();
    let mut game = Game::new(rec.start.clone(), rec.rules);
    let mut uci: Vec<String> = Vec::new();
    let total = rec.plies.len() + 1;
    // Scores of each position, Cho's view, and the engine's best move.
    let mut evals: Vec<(Score, String)> = Vec::with_capacity(total);
    let mut texts = Vec::with_capacity(rec.plies.len());
    for i in 0..total {
        let side = game.side_to_move();
        let cho_view = |s: Score| if side == Color::Cho { s } else { s.flip() };
        let e = if let Some(o) = game.outcome() {
            // Decided by the rules: certain.
            let s = match o.winner {
                Some(Color::Cho) => Score::Mate(1),
                Some(Color::Han) => Score::Mate(-1),
                None => Score::Cp(0),
            };
            (s, String::new())
        } else {
            let e = engine.evaluate(&fen, &uci)?;
            (cho_view(e.score), e.best)
        };
        evals.push(e);
        progress(i + 1, total);
        if let Some(p) = rec.plies.get(i) {
            let pos = game.position();
            let best = evals[i].1.clone();
            let best_texts = pos
                .parse_move(&best, Notation::Uci)
                .ok()
                .filter(|&m| m != p.mv && game.is_legal(m))
                .map(|m| {
                    (
                        best.clone(),
                        write_san_in(pos, m, game.model()),
                        pos.korean(m, KoreanScript::Hangul),
                    )
                });
            texts.push((
                pos.move_text(p.mv, Notation::Uci),
                write_san_in(pos, p.mv, game.model()),
                pos.korean(p.mv, KoreanScript::Hangul),
                best_texts,
            ));
            uci.push(pos.move_text(p.mv, Notation::Uci));
            game.play(p.mv).map_err(|_| AnalysisError::BadRecord(i))?;
        }
    }
    let mut sides = [SideSummary::default(), SideSummary::default()];
    let mut moves = Vec::with_capacity(rec.plies.len());
    let mut side = rec.start.side_to_move();
    for (i, (u, san, korean, best)) in texts.into_iter().enumerate() {
        let (before, after) = (evals[i].0, evals[i + 1].0);
        let view = |s: Score| if side == Color::Cho { s } else { s.flip() };
        let loss =
            ((view(before).win_probability() - view(after).win_probability()) * 100.0).max(0.0);
        let mark = Mark::of_loss(loss);
        let s = &mut sides[usize::from(side == Color::Han)];
        s.moves += 1;
        s.average_loss += loss;
        s.accuracy += accuracy(loss);
        if let Some(m) = mark {
            s.marks[m as usize] += 1;
        }
        moves.push(MoveAnalysis {
            ply: i + 1,
            side,
            uci: u,
            san,
            korean,
            before,
            after,
            best,
            loss,
            mark,
        });
        side = !side;
    }
    // A game that ended by resignation, time or agreement rather than by
    // the moves: its last move's loss is the engine's view of a position
    // the players did not play on from, so it is not marked.
    let ended_by_moves = game.is_over();
    if !ended_by_moves && rec.result != janggi_records::GameResult::Unknown {
        if let Some(last) = moves.last_mut() {
            if let Some(m) = last.mark.take() {
                sides[usize::from(last.side == Color::Han)].marks[m as usize] -= 1;
            }
        }
    }
    for s in &mut sides {
        if s.moves > 0 {
            s.average_loss /= s.moves as f64;
            s.accuracy /= s.moves as f64;
        }
    }
    Ok(GameAnalysis {
        moves,
        start: evals[0].0,
        sides,
        rules_caveat,
        result: rec.result,
        rules: rec.rules,
        ended_by_moves,
    })
}

fn comment_safe(s: &str) -> String {
    s.replace('}', ")").replace('{', "(")
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

impl SideSummary {
    /// As lichess sums a side up: `accuracy 87.3, average loss 4.1%, 2
    /// inaccuracies, 1 mistake, 0 blunders`.
    pub fn text(&self) -> String {
        format!(
            "accuracy {:.1}, average loss {:.1}%, {}, {}, {}",
            self.accuracy,
            self.average_loss,
            plural(self.marks[0], "inaccuracy", "inaccuracies"),
            plural(self.marks[1], "mistake", "mistakes"),
            plural(self.marks[2], "blunder", "blunders"),
        )
    }
}

/// The per-side summary before the first move: `Cho (name): accuracy 87.3,
/// average loss 4.1%, 2 inaccuracies, 1 mistake, 0 blunders. Han (name):
/// …` (the name when the record has one).
pub fn summary_text(rec: &Record, a: &GameAnalysis) -> String {
    let side = |label: &str, name: Option<&str>, s: &SideSummary| match name {
        Some(n) if !n.is_empty() && n != "?" => format!("{label} ({n}): {}.", s.text()),
        _ => format!("{label}: {}.", s.text()),
    };
    format!(
        "{} {}",
        side("Cho", rec.cho_player(), &a.sides[0]),
        side("Han", rec.han_player(), &a.sides[1])
    )
}

/// The tags [`annotated`] adds, per side (`White` is Cho, `Black` Han, as
/// in the PGN roster): `Annotator`, then `WhiteAccuracy`,
/// `WhiteAverageLoss` (percentage points), `WhiteInaccuracies`,
/// `WhiteMistakes`, `WhiteBlunders` and the same for `Black`.
pub fn summary_tags(a: &GameAnalysis) -> Vec<(String, String)> {
    let mut tags = vec![("Annotator".to_string(), "janggi-engine analyse".to_string())];
    for (side, s) in [("White", &a.sides[0]), ("Black", &a.sides[1])] {
        tags.push((format!("{side}Accuracy"), format!("{:.1}", s.accuracy)));
        tags.push((
            format!("{side}AverageLoss"),
            format!("{:.1}", s.average_loss),
        ));
        tags.push((format!("{side}Inaccuracies"), s.marks[0].to_string()));
        tags.push((format!("{side}Mistakes"), s.marks[1].to_string()));
        tags.push((format!("{side}Blunders"), s.marks[2].to_string()));
    }
    tags
}

/// The record with the analysis in its comments: after each move
/// `[%eval …]` (Cho's view, as lichess writes it), the mark and the best
/// move; the mark's NAG is added to the comment's front as text
/// (`?!`, `?`, `??`) so any PGN reader keeps it. The per-side summary is
/// the comment before the first move ([`summary_text`]) and header tags
/// ([`summary_tags`]). Write it with `janggi_records::pgn::write_pgn`.
pub fn annotated(rec: &Record, a: &GameAnalysis) -> Record {
    let mut out = rec.clone();
    for (k, v) in summary_tags(a) {
        out.set_tag(&k, &v);
    }
    let mut summary = summary_text(rec, a);
    if let Some(c) = &a.rules_caveat {
        summary = format!("Caution: {}. {summary}", comment_safe(c));
    }
    out.intro = Some(match &rec.intro {
        Some(old) => format!("{summary} {}", comment_safe(old)),
        None => summary,
    });
    for (p, m) in out.plies.iter_mut().zip(&a.moves) {
        let mut c = format!("[%eval {}]", m.after.eval_tag());
        if let Some(mark) = m.mark {
            let sym = match mark {
                Mark::Inaccuracy => "?!",
                Mark::Mistake => "?",
                Mark::Blunder => "??",
            };
            let _ = write!(c, " {sym} {} ({:.0}%)", mark.name(), m.loss);
        }
        if let Some((_, san, korean)) = &m.best {
            if m.mark.is_some() {
                let _ = write!(c, " best {san} ({korean})");
            }
        }
        if let Some(old) = &p.comment {
            c = format!("{} {c}", comment_safe(old));
        }
        p.comment = Some(c);
    }
    out
}

/// [`annotated`] written as PGN (SAN moves).
pub fn annotated_pgn(rec: &Record, a: &GameAnalysis) -> String {
    janggi_records::pgn::write_pgn(&annotated(rec, a), janggi_records::pgn::MoveStyle::San)
}

fn json_str(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn json_score(s: Score) -> String {
    match s {
        Score::Cp(c) => format!("{{\"cp\":{c}}}"),
        Score::Mate(n) => format!("{{\"mate\":{n}}}"),
    }
}

/// The analysis as JSON:
/// `{"start":…,"moves":[…],"rules_caveat":null|"…","cho":{…},"han":{…}}`,
/// scores as `{"cp":N}` or `{"mate":N}` from Cho's view.
pub fn to_json(a: &GameAnalysis) -> String {
    let mut out = format!("{{\"start\":{},\"moves\":[", json_score(a.start));
    for (i, m) in a.moves.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(
            out,
            "{{\"ply\":{},\"side\":{},\"uci\":{},\"san\":{},\"korean\":{},\"before\":{},\"after\":{},\"loss\":{:.2},\"mark\":{}",
            m.ply,
            json_str(if m.side == Color::Cho { "cho" } else { "han" }),
            json_str(&m.uci),
            json_str(&m.san),
            json_str(&m.korean),
            json_score(m.before),
            json_score(m.after),
            m.loss,
            m.mark.map_or("null".to_string(), |k| json_str(k.name())),
        );
        match &m.best {
            Some((u, s, k)) => {
                let _ = write!(
                    out,
                    ",\"best\":{{\"uci\":{},\"san\":{},\"korean\":{}}}}}",
                    json_str(u),
                    json_str(s),
                    json_str(k)
                );
            }
            None => out.push_str(",\"best\":null}"),
        }
    }
    out.push(']');
    let caveat = a
        .rules_caveat
        .as_deref()
        .map_or("null".to_string(), json_str);
    let _ = write!(out, ",\"rules_caveat\":{caveat}");
    for (name, s) in [("cho", &a.sides[0]), ("han", &a.sides[1])] {
        let _ = write!(
            out,
            ",\"{name}\":{{\"moves\":{},\"average_loss\":{:.2},\"accuracy\":{:.1},\"inaccuracies\":{},\"mistakes\":{},\"blunders\":{}}}",
            s.moves, s.average_loss, s.accuracy, s.marks[0], s.marks[1], s.marks[2]
        );
    }
    out.push('}');
    out
}

pub mod batch;
mod graph;
pub use graph::{graph_title, svg_graph};
#[cfg(feature = "png")]
pub mod png;
#[cfg(feature = "progress")]
pub mod progress;

#[cfg(test)]
mod tests;
