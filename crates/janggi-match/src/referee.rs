//! The referee: plays one game between two engine processes under the game
//! layer's rules, keeps the clocks, and decides every ending.
//!
//! The game layer ([`Game`]) decides checkmate, bikjang, double pass,
//! repetition, move limit and counting. The referee adds what only a
//! runner can see, each a loss for the engine at fault:
//!
//! | termination | when |
//! |---|---|
//! | `illegalMove` | the move parses but is not legal here (also `bestmove (none)` while moves exist) |
//! | `unparseableMove` | the text after `bestmove` is not move text at all |
//! | `timeLoss` | `bestmove` came after the clock (plus the margin) ran out |
//! | `noReply` | no `bestmove` by the deadline and none after `stop` either |
//! | `crash` | the process exited or closed its output |
//! | `resign` | `bestmove resign` (USI) |
//!
//! and the adjudications: `adjudication` (both engines' scores agree
//! beyond a margin for N moves: resign or draw), `noCapture` (`--nocapture
//! N`: N plies in a row without a capture) and `maxMoves` (`--maxmoves N`:
//! a game of N plies). The last two end the game by the rule set's own
//! counting (점수 판정: material points, Han's 1.5 deom included), as its
//! move limit would, or as a draw when the rule set does not score; for
//! rule sets that never end a dead endgame by themselves (no move limit,
//! no n-move rule: `janggikjf`, the default) they are on by default (see
//! [`Adjudication::endless_default`]). A forfeit records the offending text
//! and the position (FEN) it was played in.

use super::clock::{game_clock, go_command, ThinkingLimits};
use super::engine_process::{EngineProcess, EngineProtocol, ProcessError, Think};
use super::openings::Opening;
use super::scoresheet::Scoresheet;
use janggi_core::{Color, EndReason, Game, Move, Outcome, Position, Rules};
use janggi_uci::{Answer, Clock, Score};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Resign adjudication (`--resign movecount=N score=CP [twosided=true]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    /// Consecutive moves.
    pub movecount: u32,
    /// Margin in centipawns.
    pub score: i32,
    /// Whether the winner's engine must agree (default true).
    pub twosided: bool,
}

/// Draw adjudication (`--draw movenumber=M movecount=N score=CP`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    /// First full move number at which it may apply.
    pub movenumber: u32,
    /// Consecutive moves of each engine.
    pub movecount: u32,
    /// Largest absolute score in centipawns.
    pub score: i32,
}

/// Optional adjudications.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Adjudication {
    /// Resign rule.
    pub resign: Option<ResignRule>,
    /// Draw rule.
    pub draw: Option<DrawRule>,
    /// Maximum plies (decided by counting at that length).
    pub max_plies: Option<u32>,
    /// Plies in a row without a capture (decided by counting then).
    pub no_capture: Option<u32>,
}

/// Default `--nocapture` for rule sets without a move limit or n-move
/// rule: 200 plies (100 moves each) without a capture. Fairy-Stockfish's
/// `janggi` n-move rule is 100 plies and `janggimodern`'s 200; a won
/// endgame is converted well within 200 (the issue-17 endgames took
/// 82–133 plies under the 100-ply rule).
pub const DEFAULT_NO_CAPTURE_PLIES: u32 = 200;

/// Default `--maxmoves` for rule sets without a move limit or n-move rule:
/// 1000 plies in all (a game that still captures now and then; ordinary
/// games end long before).
pub const DEFAULT_MAX_PLIES: u32 = 1000;

impl Adjudication {
    /// Whether `rules` can leave a game going forever: no move limit and no
    /// n-move rule (bikjang, repetition and the double pass end only some
    /// games).
    pub fn is_endless(rules: &Rules) -> bool {
        rules.move_limit == 0 && rules.no_capture_limit == 0
    }

    /// The default length adjudication for `rules`: for an endless rule set
    /// [`DEFAULT_NO_CAPTURE_PLIES`] without a capture and
    /// [`DEFAULT_MAX_PLIES`] in all, else none (the rule set's own limit
    /// ends the game).
    pub fn endless_default(rules: &Rules) -> (Option<u32>, Option<u32>) {
        if Adjudication::is_endless(rules) {
            (Some(DEFAULT_NO_CAPTURE_PLIES), Some(DEFAULT_MAX_PLIES))
        } else {
            (None, None)
        }
    }

    /// Whether `termination` is one of the runner's adjudications.
    pub fn adjudicated(termination: Termination) -> bool {
        matches!(
            termination,
            Termination::Adjudication | Termination::MaxMoves | Termination::NoCapture
        )
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Termination {
    /// By the rules (checkmate, bikjang, passes, repetition, move limit, …).
    Rules(EndReason),
    /// The engine resigned (`bestmove resign`).
    Resign,
    /// Out of time.
    TimeLoss,
    /// Illegal move.
    IllegalMove,
    /// Text that is not a move.
    UnparseableMove,
    /// The engine process exited.
    Crash,
    /// No reply at all.
    NoReply,
    /// Score adjudication (win or draw).
    Adjudication,
    /// `--maxmoves` reached: counting.
    MaxMoves,
    /// `--nocapture` plies without a capture: counting.
    NoCapture,
    /// The match was stopped during the game.
    Aborted,
}

impl Termination {
    /// The name used in PGN and logs (`checkmate`, `illegalMove`, …).
    pub fn name(self) -> &'static str {
        match self {
            Termination::Rules(r) => r.name(),
            Termination::Resign => "resign",
            Termination::TimeLoss => "timeLoss",
            Termination::IllegalMove => "illegalMove",
            Termination::UnparseableMove => "unparseableMove",
            Termination::Crash => "crash",
            Termination::NoReply => "noReply",
            Termination::Adjudication => "adjudication",
            Termination::MaxMoves => "maxMoves",
            Termination::NoCapture => "noCapture",
            Termination::Aborted => "aborted",
        }
    }

    /// Parses [`Termination::name`] back (rule reasons through `reasons`).
    pub fn from_name(name: &str) -> Option<Termination> {
        let t = match name {
            "resign" => Termination::Resign,
            "timeLoss" => Termination::TimeLoss,
            "illegalMove" => Termination::IllegalMove,
            "unparseableMove" => Termination::UnparseableMove,
            "crash" => Termination::Crash,
            "noReply" => Termination::NoReply,
            "adjudication" => Termination::Adjudication,
            "maxMoves" => Termination::MaxMoves,
            "noCapture" => Termination::NoCapture,
            "aborted" => Termination::Aborted,
            other => return rule_reason(other).map(Termination::Rules),
        };
        Some(t)
    }

    /// Whether this ending is an engine failure that should restart it.
    pub fn restarts_engine(self) -> bool {
        matches!(self, Termination::Crash | Termination::NoReply)
    }
}

/// The rules' end reasons by name.
fn rule_reason(name: &str) -> Option<EndReason> {
    EndReason::from_name(name)
}

/// The result of one game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameResult {
    /// Winner (`None`: draw, or aborted).
    pub winner: Option<Color>,
    /// How it ended.
    pub termination: Termination,
    /// Korean summary (`초 외통승 (63수)`, `한 반칙승 (불법 수 e5e6, 12수)`).
    pub summary_ko: String,
    /// English summary.
    pub summary_en: String,
    /// For forfeits: what was wrong, the offending text and the position.
    pub detail: Option<String>,
}

impl GameResult {
    /// PGN result: `1-0` (Cho won), `0-1`, `1/2-1/2`, `*` (aborted).
    pub fn pgn_result(&self) -> &'static str {
        match (self.termination, self.winner) {
            (Termination::Aborted, _) => "*",
            (_, Some(Color::Cho)) => "1-0",
            (_, Some(Color::Han)) => "0-1",
            (_, None) => "1/2-1/2",
        }
    }

    fn from_outcome(o: &Outcome, termination: Termination) -> GameResult {
        GameResult {
            winner: o.winner,
            termination,
            summary_ko: o.summary_ko(),
            summary_en: o.summary_en(),
            detail: None,
        }
    }

    /// A loss of `loser` for a runner-side reason.
    pub(crate) fn forfeit(
        loser: Color,
        termination: Termination,
        plies: u32,
        what_ko: &str,
        detail: String,
    ) -> GameResult {
        let w = !loser;
        let (side, name) = (w.korean(), cap(w.name()));
        let kind = match termination {
            Termination::Crash => "기권승",
            Termination::NoReply | Termination::TimeLoss => "시간승",
            _ => "반칙승",
        };
        let l = cap(loser.name());
        let what_en = match termination {
            Termination::IllegalMove => format!("{l} played an illegal move"),
            Termination::UnparseableMove => format!("{l} sent text that is not a move"),
            Termination::Crash => format!("{l}'s engine terminated"),
            Termination::NoReply => format!("{l}'s engine did not reply"),
            _ => format!("{l} forfeits"),
        };
        GameResult {
            winner: Some(w),
            termination,
            summary_ko: format!("{side} {kind} ({what_ko}, {plies}수)"),
            summary_en: format!("{name} wins: {what_en} ({plies} plies)"),
            detail: Some(detail),
        }
    }
}

fn cap(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map_or_else(String::new, |f| f.to_uppercase().chain(c).collect())
}

/// One move as played, with what the engine said about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRecord {
    /// The move.
    pub mv: Move,
    /// UCI text (`b1c3`, `e2e2` for a pass).
    pub text: String,
    /// Score from the mover's point of view.
    pub score: Option<Score>,
    /// Depth.
    pub depth: Option<u32>,
    /// Time used (ms).
    pub elapsed_ms: u64,
    /// Part of the opening, not played by an engine.
    pub book: bool,
}

/// A finished (or aborted) game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Game number (1-based).
    pub number: usize,
    /// Engine names (Cho, Han).
    pub players: [String; 2],
    /// Opening name.
    pub opening: String,
    /// Start FEN.
    pub start_fen: String,
    /// The `--variant` preset name.
    pub variant: String,
    /// The rule set.
    pub rules: Rules,
    /// Moves (opening moves first).
    pub moves: Vec<MoveRecord>,
    /// Result.
    pub result: GameResult,
    /// Final position.
    pub final_fen: String,
    /// Time controls (Cho, Han), as text.
    pub time_controls: [String; 2],
    /// Whether each side's engine must be restarted (crash, no reply).
    pub restart: [bool; 2],
}

/// One side: an engine process and its limits.
pub struct Player<'a> {
    /// Display name.
    pub name: &'a str,
    /// The running engine.
    pub engine: &'a mut EngineProcess,
    /// Its limits.
    pub limits: &'a ThinkingLimits,
}

/// Fixed settings for a game.
pub struct GameSpec<'a> {
    /// Game number.
    pub number: usize,
    /// Opening.
    pub opening: &'a Opening,
    /// Preset name (for PGN).
    pub variant: &'a str,
    /// Rule set.
    pub rules: &'a Rules,
    /// Adjudications.
    pub adjudication: Adjudication,
    /// Handshake / `isready` timeout.
    pub init_timeout: Duration,
    /// Set when the match is shutting down.
    pub stop: &'a AtomicBool,
}

#[derive(Default, Clone, Copy)]
struct Streaks {
    losing: u32,
    winning: u32,
    drawish: u32,
}

struct Referee<'a> {
    spec: &'a GameSpec<'a>,
    sheet: Scoresheet,
    clock: Clock,
    streaks: [Streaks; 2],
    restart: [bool; 2],
}

impl Referee<'_> {
    /// The game decided by counting for a length adjudication.
    fn counting(&self, termination: Termination) -> GameResult {
        let g = &self.sheet.game;
        let o = Outcome::by_counting(
            g.score_halves(Color::Cho),
            g.score_halves(Color::Han),
            g.rules().scoring,
            EndReason::ScoreMoveLimit,
            EndReason::DrawMoveLimit,
            g.ply(),
        );
        let mut r = GameResult::from_outcome(&o, termination);
        let how = if g.rules().scoring {
            "counting"
        } else {
            "a draw (no scoring)"
        };
        r.detail = Some(match termination {
            Termination::NoCapture => format!(
                "no capture for {} plies (--nocapture): {how}, {}",
                g.position().halfmove_clock(),
                score_text(g)
            ),
            _ => format!(
                "maximum game length of {} plies reached (--maxmoves): {how}, {}",
                g.ply(),
                score_text(g)
            ),
        });
        r
    }

    /// Score adjudication after `side` moved with `score`.
    fn adjudicate(&mut self, side: Color, score: Option<Score>) -> Option<GameResult> {
        let adj = self.spec.adjudication;
        let s = &mut self.streaks[side.index()];
        match score.map(Score::to_cp) {
            Some(cp) => {
                let (rs, ds) = (
                    adj.resign.map_or(i32::MAX, |r| r.score),
                    adj.draw.map_or(-1, |d| d.score),
                );
                s.losing = if cp <= -rs { s.losing + 1 } else { 0 };
                s.winning = if cp >= rs { s.winning + 1 } else { 0 };
                s.drawish = if cp.abs() <= ds { s.drawish + 1 } else { 0 };
            }
            None => *s = Streaks::default(),
        }
        let (me, them) = (self.streaks[side.index()], self.streaks[(!side).index()]);
        let plies = self.sheet.game.ply();
        if let Some(r) = adj.resign {
            // Either side may be the one that is lost: the mover's new score
            // can complete the opponent's agreement too.
            let lost = [side, !side].into_iter().find(|&c| {
                let (l, w) = (self.streaks[c.index()], self.streaks[(!c).index()]);
                l.losing >= r.movecount && (!r.twosided || w.winning >= r.movecount)
            });
            if let Some(side) = lost {
                let w = !side;
                return Some(GameResult {
                    winner: Some(w),
                    termination: Termination::Adjudication,
                    summary_ko: format!(
                        "{} 판정승 (점수 판정: 엔진 평가 {}수 연속, {plies}수)",
                        w.korean(),
                        r.movecount
                    ),
                    summary_en: format!("{} wins by adjudication ({plies} plies)", cap(w.name())),
                    detail: Some(format!(
                        "{}'s score at or below -{} cp for {} moves",
                        side.name(),
                        r.score,
                        r.movecount
                    )),
                });
            }
        }
        if let Some(d) = adj.draw {
            if plies >= 2 * d.movenumber && me.drawish >= d.movecount && them.drawish >= d.movecount
            {
                return Some(GameResult {
                    winner: None,
                    termination: Termination::Adjudication,
                    summary_ko: format!("무승부 (점수 판정 합의, {plies}수)"),
                    summary_en: format!("Draw by adjudication ({plies} plies)"),
                    detail: Some(format!(
                        "both scores within {} cp for {} moves",
                        d.score, d.movecount
                    )),
                });
            }
        }
        None
    }

    fn engine_failure(&mut self, side: Color, e: &ProcessError) -> GameResult {
        let plies = self.sheet.game.ply();
        let fen = self.sheet.game.position().fen();
        self.restart[side.index()] = true;
        match e {
            ProcessError::Timeout(_) => GameResult::forfeit(
                side,
                Termination::NoReply,
                plies,
                "무응답",
                format!("{} {e} (position {fen})", side.name()),
            ),
            _ => GameResult::forfeit(
                side,
                Termination::Crash,
                plies,
                "엔진 비정상 종료",
                format!("{} engine {e} (position {fen})", side.name()),
            ),
        }
    }
}

/// `Cho 26 : Han 31.5` (Han's deom included).
fn score_text(g: &Game) -> String {
    format!("Cho {} : Han {}", g.score(Color::Cho), g.score(Color::Han))
}

fn aborted(plies: u32) -> GameResult {
    GameResult {
        winner: None,
        termination: Termination::Aborted,
        summary_ko: format!("중단 ({plies}수)"),
        summary_en: format!("Aborted ({plies} plies)"),
        detail: None,
    }
}

/// Plays one game: `players[0]` is Cho, `players[1]` is Han.
pub fn play_game(spec: &GameSpec<'_>, players: [Player<'_>; 2]) -> GameRecord {
    let mut players = players;
    let start = Position::from_fen(&spec.opening.fen).unwrap_or_else(|_| Position::startpos());
    let mut r = Referee {
        spec,
        sheet: Scoresheet::new(&spec.opening.fen, Game::new(start, *spec.rules)),
        clock: game_clock([players[0].limits, players[1].limits]),
        streaks: [Streaks::default(); 2],
        restart: [false; 2],
    };
    for &mv in &spec.opening.moves {
        if r.sheet.push_move(mv, None).is_err() {
            break;
        }
    }
    let result = run(&mut r, &mut players);
    if result.termination != Termination::Aborted {
        for (i, p) in players.iter_mut().enumerate() {
            if p.engine.protocol() == EngineProtocol::Usi && !r.restart[i] {
                let word = match result.winner {
                    None => "draw",
                    Some(w) if w.index() == i => "win",
                    Some(_) => "lose",
                };
                let _ = p.engine.send(&format!("gameover {word}"));
            }
        }
    }
    GameRecord {
        number: spec.number,
        players: [players[0].name.to_string(), players[1].name.to_string()],
        opening: spec.opening.name.clone(),
        start_fen: spec.opening.fen.clone(),
        variant: spec.variant.to_string(),
        rules: *spec.rules,
        final_fen: r.sheet.game.position().fen(),
        moves: r.sheet.moves,
        result,
        time_controls: [players[0].limits.describe(), players[1].limits.describe()],
        restart: r.restart,
    }
}

fn run(r: &mut Referee<'_>, players: &mut [Player<'_>; 2]) -> GameResult {
    let spec = r.spec;
    for side in Color::BOTH {
        if let Err(e) = players[side.index()]
            .engine
            .new_game(spec.init_timeout, spec.stop)
        {
            if matches!(e, ProcessError::Aborted) {
                return aborted(r.sheet.game.ply());
            }
            return r.engine_failure(side, &e);
        }
    }
    loop {
        if let Some(o) = r.sheet.game.outcome() {
            return GameResult::from_outcome(o, Termination::Rules(o.reason));
        }
        if spec
            .adjudication
            .no_capture
            .is_some_and(|n| r.sheet.game.position().halfmove_clock() >= n)
        {
            return r.counting(Termination::NoCapture);
        }
        if spec
            .adjudication
            .max_plies
            .is_some_and(|m| r.sheet.game.ply() >= m)
        {
            return r.counting(Termination::MaxMoves);
        }
        let side = r.sheet.game.side_to_move();
        let player = &mut players[side.index()];
        let limits = player.limits;
        let protocol = player.engine.protocol();
        let position = r.sheet.position_command(protocol);
        let go = go_command(protocol, limits, side, &r.clock);
        let deadline_ms = match (r.clock.allowed_ms(side), limits.movetime_ms) {
            (Some(allowed), _) => allowed,
            (None, Some(st)) => st,
            (None, None) => limits.timeout_ms.saturating_sub(limits.margin()),
        }
        .saturating_add(limits.margin());
        let think = player.engine.think(
            position,
            &go,
            Duration::from_millis(deadline_ms),
            Duration::from_millis(limits.stop_wait_ms),
            spec.stop,
        );
        let plies = r.sheet.game.ply();
        let fen = r.sheet.game.position().fen();
        let reply = match think {
            // The runner never cancels (`think` watches nothing).
            Think::Aborted | Think::Cancelled(_) => return aborted(plies),
            Think::Crashed(status, _) => {
                r.restart[side.index()] = true;
                return GameResult::forfeit(
                    side,
                    Termination::Crash,
                    plies,
                    "엔진 비정상 종료",
                    format!(
                        "{} engine terminated while thinking ({status}) in position {fen}",
                        side.name()
                    ),
                );
            }
            Think::NoReply(waited) => {
                r.restart[side.index()] = true;
                return GameResult::forfeit(
                    side,
                    Termination::NoReply,
                    plies,
                    "무응답",
                    format!(
                        "{} engine gave no bestmove in {} ms (not even after stop) in position {fen}",
                        side.name(),
                        waited.as_millis()
                    ),
                );
            }
            Think::Late(reply) => {
                let _ = r.sheet.game.lose_on_time(side);
                let mut res = match r.sheet.game.outcome() {
                    Some(o) => GameResult::from_outcome(o, Termination::TimeLoss),
                    None => aborted(plies),
                };
                res.detail = Some(format!(
                    "{} engine answered bestmove {} after {} ms, past its deadline of {} ms, in position {fen}",
                    side.name(),
                    reply.bestmove,
                    reply.elapsed.as_millis(),
                    deadline_ms
                ));
                return res;
            }
            Think::Move(reply) => reply,
        };
        let used = reply.elapsed.as_millis() as u64;
        let over = match (r.clock.side(side), limits.movetime_ms) {
            (Some(_), _) => r
                .clock
                .charge_with_margin(side, used, limits.margin())
                .err()
                .map(|f| f.allowed_ms),
            (None, Some(st)) => (used > st + limits.margin()).then_some(st),
            (None, None) => None,
        };
        if let Some(allowed) = over {
            let _ = r.sheet.game.lose_on_time(side);
            let mut res = match r.sheet.game.outcome() {
                Some(o) => GameResult::from_outcome(o, Termination::TimeLoss),
                None => aborted(plies),
            };
            res.detail = Some(format!(
                "{} engine used {used} ms with {allowed} ms (+{} ms margin) on its clock, in position {fen}",
                side.name(),
                limits.margin()
            ));
            return res;
        }
        let text = reply.bestmove.as_str();
        let answer = reply.answer();
        if answer == Answer::Resign {
            let _ = r.sheet.game.resign(side);
            if let Some(o) = r.sheet.game.outcome() {
                let mut res = GameResult::from_outcome(o, Termination::Resign);
                res.detail = Some(format!("{} engine resigned in position {fen}", side.name()));
                return res;
            }
        }
        let parsed = answer.as_move().and_then(|m| {
            r.sheet
                .game
                .position()
                .parse_move(m, protocol.notation())
                .ok()
        });
        let Some(mv) = parsed else {
            if matches!(answer, Answer::NoMove | Answer::Resign) {
                return GameResult::forfeit(
                    side,
                    Termination::IllegalMove,
                    plies,
                    &format!("불법 수 {text}"),
                    format!("{} engine answered bestmove {text} though legal moves exist, in position {fen}", side.name()),
                );
            }
            return GameResult::forfeit(
                side,
                Termination::UnparseableMove,
                plies,
                &format!("알 수 없는 수 '{text}'"),
                format!(
                    "{} engine sent unparseable move '{text}' in position {fen}",
                    side.name()
                ),
            );
        };
        if let Err(e) = r.sheet.push_move(mv, Some(&reply)) {
            return GameResult::forfeit(
                side,
                Termination::IllegalMove,
                plies,
                &format!("불법 수 {text}"),
                format!(
                    "{} engine played illegal move {text} ({e}) in position {fen}",
                    side.name()
                ),
            );
        }
        if r.sheet.game.is_over() {
            continue;
        }
        if let Some(res) = r.adjudicate(side, reply.score) {
            return res;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn termination_names_round_trip() {
        for t in [
            Termination::Rules(EndReason::Checkmate),
            Termination::Rules(EndReason::ScoreBikjang),
            Termination::Rules(EndReason::DrawRepetition),
            Termination::Resign,
            Termination::TimeLoss,
            Termination::IllegalMove,
            Termination::UnparseableMove,
            Termination::Crash,
            Termination::NoReply,
            Termination::Adjudication,
            Termination::MaxMoves,
            Termination::NoCapture,
            Termination::Aborted,
        ] {
            let back = Termination::from_name(t.name());
            // `resign`/`timeLoss` are also rule reasons; both spellings map back.
            assert!(back.is_some_and(|b| b.name() == t.name()), "{}", t.name());
        }
        assert_eq!(Termination::from_name("nonsense"), None);
    }

    #[test]
    fn forfeit_summaries() {
        let r = GameResult::forfeit(
            Color::Cho,
            Termination::IllegalMove,
            12,
            "불법 수 e5e6",
            "cho engine played illegal move e5e6".into(),
        );
        assert_eq!(r.winner, Some(Color::Han));
        assert_eq!(r.summary_ko, "한 반칙승 (불법 수 e5e6, 12수)");
        assert_eq!(
            r.summary_en,
            "Han wins: Cho played an illegal move (12 plies)"
        );
        assert_eq!(r.pgn_result(), "0-1");
        assert_eq!(aborted(3).pgn_result(), "*");
    }
}
