//! [`Game`]: a position, its history and the rule set, with the spec's
//! processing order after each move (§8.2 steps 2–7).

use super::history::{Chain, PendingBikjang, PlyChain, PlyRecord, RepetitionVerdict, Snapshot};
use super::outcome::{EndReason, Outcome};
use super::ruleset::{BikjangRule, RepetitionRule, Rules};
use super::{Event, IllegalMove};
use crate::board::zobrist::{piece_key, side_key};
use crate::board::{LegalityModel, Position};
use crate::types::{Color, Move, MoveList, PieceKind};
use std::collections::HashMap;

/// The 4th occurrence of a position is the one the spec's repetition
/// options act on.
const REPETITION_LIMIT: u32 = 4;

/// The 3rd occurrence brings a warning ("한 번 더 반복하면 둘 수 없어요").
const REPETITION_WARNING: u32 = 3;

/// KJA bikjang: only while both sides have fewer than this many points.
const KJA_BIKJANG_POINTS: u32 = 30;

/// Pieces per side in every start setup; fewer at the start of a game
/// means captures happened before it.
const FULL_ARMY: u32 = 16;

/// Fairy-Stockfish's `nFoldRule` for `janggi`, `janggitraditional` and
/// `janggicasual`; `janggimodern` uses the spec's 4.
const FSF_NFOLD: u32 = 3;

/// The deom (덤) in half points.
const DEOM_HALVES: u32 = 3;

/// A game: position, history and rule set.
///
/// ```
/// use janggi_core::game::{Event, Game, Rules};
/// use janggi_core::{Notation, Position};
/// let mut game = Game::new(Position::startpos(), Rules::default());
/// let mv = game.position().parse_move("b1c3", Notation::Uci).unwrap();
/// assert_eq!(game.play(mv), Ok(vec![]));
/// assert!(game.undo());
/// assert_eq!(game.ply(), 0);
/// ```
#[derive(Clone, Debug)]
pub struct Game {
    pos: Position,
    root: Position,
    rules: Rules,
    root_in_check: bool,
    records: Vec<PlyRecord>,
    counts: HashMap<u64, u32>,
    first_capture_ply: Option<u32>,
    bikjang: Option<PendingBikjang>,
    passes: u32,
    outcome: Option<Outcome>,
}

impl PartialEq for Game {
    /// Equal when the whole state is: start, moves, position, rules and
    /// every history-dependent counter.
    fn eq(&self, other: &Self) -> bool {
        self.pos == other.pos
            && self.pos.key() == other.pos.key()
            && self.root == other.root
            && self.rules == other.rules
            && self.records == other.records
            && self.counts == other.counts
            && self.first_capture_ply == other.first_capture_ply
            && self.bikjang == other.bikjang
            && self.passes == other.passes
            && self.outcome == other.outcome
    }
}

/// What one ply caused, before it is turned into [`Event`]s.
#[derive(Clone, Copy, Default)]
struct Effects {
    check: bool,
    answered: bool,
    bikjang: bool,
    warning: bool,
    over: bool,
}

impl Game {
    /// A game from `pos` (its history starts here) under `rules`.
    ///
    /// If `pos` has fewer than 16 pieces on a side, captures happened before
    /// it: for the KJF bikjang rule the first capture counts as made
    /// ([`Game::first_capture_ply`] is `Some(0)`). A start position that is
    /// already checkmate (or past the n-move rule) is over at once.
    pub fn new(pos: Position, rules: Rules) -> Game {
        let mut pos = pos;
        pos.clear_history();
        let full = Color::BOTH
            .iter()
            .all(|&c| pos.color_bb(c).count() >= FULL_ARMY);
        let mut counts = HashMap::new();
        counts.insert(pos.key(), 1);
        let mut game = Game {
            root: pos.clone(),
            root_in_check: pos.in_check(),
            pos,
            rules,
            records: Vec::new(),
            counts,
            first_capture_ply: if full { None } else { Some(0) },
            bikjang: None,
            passes: 0,
            outcome: None,
        };
        game.outcome = game.root_outcome();
        game
    }

    /// The game from `start` after `moves`, each checked at the game level.
    ///
    /// # Errors
    /// The index of the first move that is not legal and why; the moves
    /// before it are valid.
    pub fn replay(
        start: Position,
        rules: Rules,
        moves: &[Move],
    ) -> Result<Game, (usize, IllegalMove)> {
        let mut game = Game::new(start, rules);
        for (i, &mv) in moves.iter().enumerate() {
            game.play(mv).map_err(|e| (i, e))?;
        }
        Ok(game)
    }

    /// Replaces the rule set, replaying the moves under the new rules. Moves
    /// that are no longer legal (and all after them) are dropped.
    /// Returns the number of moves kept.
    pub fn set_rules(&mut self, rules: Rules) -> usize {
        let moves = self.moves();
        let mut game = Game::new(self.root.clone(), rules);
        let mut kept = 0;
        for mv in moves {
            if game.play(mv).is_err() {
                break;
            }
            kept += 1;
        }
        *self = game;
        kept
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The position the game started from.
    pub fn start_position(&self) -> &Position {
        &self.root
    }

    /// The rule set.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The legality model of the rules core that this rule set uses.
    pub fn model(&self) -> LegalityModel {
        self.rules.model()
    }

    /// Side to move.
    pub fn side_to_move(&self) -> Color {
        self.pos.side_to_move()
    }

    /// Moves played since the start of the game.
    pub fn moves(&self) -> Vec<Move> {
        self.records.iter().map(|r| r.mv).collect()
    }

    /// The record of every ply (for the search tree's rule state, which
    /// takes it over without replaying the moves).
    #[doc(hidden)]
    pub fn records(&self) -> &[PlyRecord] {
        &self.records
    }

    /// Whether the start position had the side to move in check.
    #[doc(hidden)]
    pub fn root_in_check(&self) -> bool {
        self.root_in_check
    }

    /// Plies played since the start of the game.
    pub fn ply(&self) -> u32 {
        self.records.len() as u32
    }

    /// Whether the side to move is in check (장군).
    pub fn in_check(&self) -> bool {
        self.records
            .last()
            .map_or(self.root_in_check, |r| r.in_check)
    }

    /// Ply (1-based) of the first capture; `Some(0)` when the start position
    /// already lacked pieces; `None` before any capture.
    pub fn first_capture_ply(&self) -> Option<u32> {
        self.first_capture_ply
    }

    /// The bikjang waiting for its answer (spec rules `kjf`/`kja30` only).
    pub fn pending_bikjang(&self) -> Option<PendingBikjang> {
        self.bikjang
    }

    /// Passes in a row at the end of the move list.
    pub fn consecutive_passes(&self) -> u32 {
        self.passes
    }

    /// How often the current position (board + side to move) has occurred,
    /// this time included.
    pub fn repetition_count(&self) -> u32 {
        self.occurrences(self.pos.key())
    }

    /// How often the position with Zobrist `key` has occurred in this game.
    pub fn occurrences(&self, key: u64) -> u32 {
        self.counts.get(&key).copied().unwrap_or(0)
    }

    /// Occurrence counts of every position of the game, by Zobrist key.
    pub fn position_counts(&self) -> &HashMap<u64, u32> {
        &self.counts
    }

    /// The Zobrist key of the position after `mv` (which must be the pass
    /// or a move of a piece of the side to move), without playing it.
    pub fn key_after(&self, mv: Move) -> u64 {
        let mut key = self.pos.key() ^ side_key();
        if !mv.is_pass() {
            if let Some(p) = self.pos.piece_at(mv.from()) {
                key ^= piece_key(p, mv.from()) ^ piece_key(p, mv.to());
            }
            if let Some(c) = self.pos.piece_at(mv.to()) {
                key ^= piece_key(c, mv.to());
            }
        }
        key
    }

    /// How often the position after `mv` would have occurred, that time
    /// included (1 for a new position).
    pub fn occurrences_after(&self, mv: Move) -> u32 {
        self.occurrences(self.key_after(mv)) + 1
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// The legal moves at the game level (empty when the game is over):
    /// the rules core's moves under [`Game::model`], then
    /// * `repetition = forbid` removes every move (the pass included) that
    ///   would make a position's 4th occurrence — unless that leaves no
    ///   legal move at all, in which case they stay and playing one ends
    ///   the game by counting;
    /// * the pass is legal only when allowed (`allow_pass`) and not in
    ///   check, or when it is the only legal move (forced pass).
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        if self.outcome.is_some() {
            return list;
        }
        let core = self.pos.legal_moves(self.model());
        let forbid = self.rules.repetition == RepetitionRule::Forbid;
        let allowed = |m: Move| !forbid || self.occurrences_after(m) < REPETITION_LIMIT;
        let core_pass = core.contains(&Move::PASS);
        list.extend(core.iter().copied().filter(|&m| !m.is_pass() && allowed(m)));
        if core_pass && allowed(Move::PASS) && (self.rules.allow_pass || list.is_empty()) {
            list.push(Move::PASS);
        }
        if list.is_empty() && !core.is_empty() {
            // The spec's exception: nothing is legal without the repeating
            // moves, so they are allowed (and end the game by counting).
            list.extend(core.iter().copied().filter(|m| !m.is_pass()));
            if core_pass && (self.rules.allow_pass || list.is_empty()) {
                list.push(Move::PASS);
            }
        }
        list
    }

    /// Whether `mv` is legal at the game level.
    pub fn is_legal(&self, mv: Move) -> bool {
        if self.outcome.is_some() || !self.pos.is_legal(mv, self.model()) {
            return false;
        }
        let repeats = self.rules.repetition == RepetitionRule::Forbid
            && self.occurrences_after(mv) >= REPETITION_LIMIT;
        if !repeats && (!mv.is_pass() || self.rules.allow_pass) {
            return true;
        }
        self.legal_moves().contains(&mv)
    }

    /// Why `mv` is not legal here, if it is not.
    fn illegal_reason(&self, mv: Move) -> IllegalMove {
        if self.outcome.is_some() {
            return IllegalMove::GameOver;
        }
        if self.pos.is_legal(mv, self.model()) {
            if mv.is_pass() && !self.rules.allow_pass {
                return IllegalMove::NotLegal("passing is not allowed");
            }
            return IllegalMove::NotLegal("it would repeat a position a 4th time");
        }
        if mv.is_pass() {
            return IllegalMove::NotLegal("cannot pass while in check");
        }
        if !self.pos.is_pseudo_legal(mv) {
            return IllegalMove::NotLegal("no piece of the side to move can make it");
        }
        if self.pos.leaves_general_attacked(mv) {
            return IllegalMove::NotLegal("it leaves the general in check");
        }
        IllegalMove::NotLegal("it keeps the generals facing (bikjang)")
    }

    /// Plays `mv` and returns the events it caused.
    ///
    /// # Errors
    /// [`IllegalMove`] and the game is unchanged.
    pub fn play(&mut self, mv: Move) -> Result<Vec<Event>, IllegalMove> {
        if !self.is_legal(mv) {
            return Err(self.illegal_reason(mv));
        }
        let fx = self.apply(mv);
        let mut events = Vec::new();
        if fx.bikjang {
            events.push(Event::BikjangCalled);
        }
        if fx.warning {
            events.push(Event::RepetitionWarning);
        }
        if fx.check {
            events.push(Event::Check);
        }
        if fx.answered {
            events.push(Event::CheckAnswered);
        }
        if fx.over {
            events.push(Event::GameOver);
        }
        Ok(events)
    }

    /// Plays `mv` without checking its legality and without building
    /// events: for search, with a move from [`Game::legal_moves`]. Every
    /// rule is applied as in [`Game::play`] (the outcome included).
    /// A move that is not even pseudo-legal is ignored.
    pub fn play_unchecked(&mut self, mv: Move) {
        if self.outcome.is_none() && (mv.is_pass() || self.pos.is_pseudo_legal(mv)) {
            self.apply(mv);
        }
    }

    /// The outcome the game would have after `mv` (`None`: it goes on).
    /// `mv` should be legal; the game is unchanged afterwards.
    pub fn outcome_after(&mut self, mv: Move) -> Option<Outcome> {
        if self.outcome.is_some() || !(mv.is_pass() || self.pos.is_pseudo_legal(mv)) {
            return None;
        }
        self.apply(mv);
        let result = self.outcome.clone();
        self.undo();
        result
    }

    /// Scores of both sides in half points.
    fn halves(&self) -> (u32, u32) {
        (self.score_halves(Color::Cho), self.score_halves(Color::Han))
    }

    /// The counting result for an ending (판정, or a draw without scoring).
    fn counting(&self, score: EndReason, draw: EndReason) -> Outcome {
        let (c, h) = self.halves();
        Outcome::by_counting(c, h, self.rules.scoring, score, draw, self.ply())
    }

    fn win(&self, winner: Color, reason: EndReason) -> Outcome {
        let (c, h) = self.halves();
        Outcome::win(winner, reason, c, h, self.ply())
    }

    /// Whether the side to move has no legal move at all (with the
    /// repetition exception, the game-level list is empty exactly when the
    /// core's is).
    fn no_moves(&self) -> bool {
        self.pos.legal_moves(self.model()).is_empty()
    }

    /// An ending of the start position itself.
    fn root_outcome(&self) -> Option<Outcome> {
        if self.root_in_check && self.no_moves() {
            return Some(self.win(!self.side_to_move(), EndReason::Checkmate));
        }
        self.no_capture_outcome()
    }

    /// Fairy-Stockfish's n-move rule (`no_capture_limit`); not when mated.
    fn no_capture_outcome(&self) -> Option<Outcome> {
        let limit = self.rules.no_capture_limit;
        if limit > 0 && self.pos.halfmove_clock() >= limit && !(self.in_check() && self.no_moves())
        {
            return Some(self.counting(EndReason::ScoreMoveLimit, EndReason::DrawMoveLimit));
        }
        None
    }

    /// The repetition endings of Fairy-Stockfish's rules.
    fn fsf_repetition_outcome(&self) -> Option<Outcome> {
        let modern = self.rules.repetition == RepetitionRule::FsfModern;
        let nfold = if modern { REPETITION_LIMIT } else { FSF_NFOLD };
        // Without the Kakao rule only the n-fold count can end the game.
        // Every earlier occurrence of this position lies in the window the
        // port scans (since the last capture: a capture changes the
        // material for good), so the hash count says at once when it
        // cannot fire, and no move scans a long capture-free stretch.
        if !modern && self.repetition_count() < nfold {
            return None;
        }
        let chain = Chain {
            root_key: self.root.key(),
            root_in_check: self.root_in_check,
            plies: &self.records,
        };
        let stm = self.side_to_move();
        Some(
            match chain.fsf_repetition(self.pos.halfmove_clock() as usize, nfold, modern)? {
                RepetitionVerdict::SideToMoveWins => self.win(stm, EndReason::RepetitionLoss),
                RepetitionVerdict::SideToMoveLoses => self.win(!stm, EndReason::RepetitionLoss),
                RepetitionVerdict::Neutral => {
                    self.counting(EndReason::ScoreRepetition, EndReason::DrawRepetition)
                }
            },
        )
    }

    /// The spec's repetition endings at a position's 4th occurrence.
    fn spec_repetition_outcome(&self, count: u32, mover: Color) -> Option<Outcome> {
        if count < REPETITION_LIMIT {
            return None;
        }
        Some(match self.rules.repetition {
            RepetitionRule::Lose => self.win(!mover, EndReason::RepetitionLoss),
            // Forbid: only the exception lets a 4th occurrence happen.
            _ => self.counting(EndReason::ScoreRepetition, EndReason::DrawRepetition),
        })
    }

    /// Two passes in a row.
    fn passes_outcome(&self) -> Option<Outcome> {
        (self.passes >= 2).then(|| self.counting(EndReason::ScorePasses, EndReason::DrawPasses))
    }

    /// The spec's move limit (plies of both sides together).
    fn move_limit_outcome(&self) -> Option<Outcome> {
        let limit = self.rules.move_limit;
        (limit > 0 && self.ply() >= limit)
            .then(|| self.counting(EndReason::ScoreMoveLimit, EndReason::DrawMoveLimit))
    }

    /// Makes `mv` and applies the spec's §8.2 steps 2–7.
    fn apply(&mut self, mv: Move) -> Effects {
        let mover = self.side_to_move();
        let was_in_check = self.in_check();
        let was_facing = self.pos.generals_facing();
        let before = Snapshot {
            first_capture_ply: self.first_capture_ply,
            bikjang: self.bikjang,
            passes: self.passes,
        };
        let moved = if mv.is_pass() {
            None
        } else {
            self.pos.piece_at(mv.from()).map(|p| p.kind)
        };
        let depth = self.pos.history().len();
        self.pos.make(mv);
        let Some(state) = self.pos.history().get(depth).copied() else {
            return Effects::default();
        };
        let ply = self.ply() + 1;

        // Step 2: the board is updated; remember the first capture.
        let captured = state.captured.is_some();
        if captured && self.first_capture_ply.is_none() {
            self.first_capture_ply = Some(ply);
        }
        self.passes = if mv.is_pass() { self.passes + 1 } else { 0 };
        let facing = self.pos.generals_facing();
        let in_check = self.pos.in_check();
        let key = self.pos.key();
        let count = {
            let c = self.counts.entry(key).or_insert(0);
            *c += 1;
            *c
        };
        self.records.push(PlyRecord {
            mv,
            captured,
            moved,
            key,
            in_check,
            before,
        });

        let mut fx = Effects {
            check: in_check,
            answered: was_in_check,
            ..Effects::default()
        };
        let mut ended = None;

        // Step 3: a pending bikjang is answered by this move; if the
        // generals still face each other, bik: the game ends by counting.
        match self.rules.bikjang {
            BikjangRule::Kjf | BikjangRule::Kja30 => {
                if self.bikjang.take().is_some_and(|b| b.called_by != mover) && facing {
                    ended = Some(self.counting(EndReason::ScoreBikjang, EndReason::DrawBikjang));
                }
            }
            BikjangRule::Fsf => {
                // Fairy-Stockfish: bikjang before and after the move (only a
                // pass can keep it) ends the game.
                if was_facing && facing {
                    ended = Some(self.counting(EndReason::ScoreBikjang, EndReason::DrawBikjang));
                }
            }
            BikjangRule::Off => {}
        }

        // Step 4: checkmate.
        if ended.is_none() && in_check && self.no_moves() {
            ended = Some(self.win(mover, EndReason::Checkmate));
        }

        // Step 5: this move calls bikjang.
        if ended.is_none() && facing {
            let calls = match self.rules.bikjang {
                BikjangRule::Off => false,
                // "From the move after the first capture" (not on it).
                BikjangRule::Kjf => self.first_capture_ply.is_some_and(|p| p < ply),
                BikjangRule::Kja30 => Color::BOTH
                    .iter()
                    .all(|&c| self.pos.material(c) < KJA_BIKJANG_POINTS),
                BikjangRule::Fsf => !was_facing,
            };
            if calls {
                fx.bikjang = true;
                if matches!(self.rules.bikjang, BikjangRule::Kjf | BikjangRule::Kja30) {
                    self.bikjang = Some(PendingBikjang {
                        called_by: mover,
                        ply,
                    });
                }
            }
        }

        // Step 6: repetition, passes, move limits.
        if ended.is_none() {
            ended = if self.rules.repetition.is_fsf() {
                // Fairy-Stockfish: the double pass ends the game at once
                // (is_immediate_game_end) before its optional endings: the
                // n-move rule, then repetition.
                self.passes_outcome()
                    .or_else(|| self.no_capture_outcome())
                    .or_else(|| self.fsf_repetition_outcome())
            } else {
                self.spec_repetition_outcome(count, mover)
                    .or_else(|| self.passes_outcome())
                    .or_else(|| self.no_capture_outcome())
            }
            .or_else(|| self.move_limit_outcome());
        }

        // Step 7 (check / answered) is in `fx` already.
        fx.warning = ended.is_none() && count == REPETITION_WARNING;
        fx.over = ended.is_some();
        self.outcome = ended;
        fx
    }

    /// Takes back the last ply; false if there is none. The first-capture
    /// ply, the pending bikjang, the repetition counts and the pass count
    /// are restored exactly, and the outcome is cleared.
    pub fn undo(&mut self) -> bool {
        let Some(rec) = self.records.pop() else {
            return false;
        };
        if let Some(c) = self.counts.get_mut(&rec.key) {
            *c -= 1;
            if *c == 0 {
                self.counts.remove(&rec.key);
            }
        }
        self.pos.unmake();
        self.first_capture_ply = rec.before.first_capture_ply;
        self.bikjang = rec.before.bikjang;
        self.passes = rec.before.passes;
        self.outcome = None;
        true
    }

    /// Takes back up to `n` plies (spec's respondUndo takes 1 or 2);
    /// returns how many were taken back.
    pub fn undo_plies(&mut self, n: usize) -> usize {
        (0..n).take_while(|_| self.undo()).count()
    }

    /// The result, once the game is over.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// `color` resigns: the opponent wins.
    ///
    /// # Errors
    /// [`IllegalMove::GameOver`] when the game is already over.
    pub fn resign(&mut self, color: Color) -> Result<(), IllegalMove> {
        self.declare(self.win(!color, EndReason::Resign))
    }

    /// `color` lost on time (the front end keeps the clocks).
    ///
    /// # Errors
    /// [`IllegalMove::GameOver`] when the game is already over.
    pub fn lose_on_time(&mut self, color: Color) -> Result<(), IllegalMove> {
        self.declare(self.win(!color, EndReason::TimeLoss))
    }

    /// Both players agreed to a draw.
    ///
    /// # Errors
    /// [`IllegalMove::GameOver`] when the game is already over.
    pub fn agree_draw(&mut self) -> Result<(), IllegalMove> {
        let (c, h) = self.halves();
        self.declare(Outcome::draw(EndReason::DrawAgreed, c, h, self.ply()))
    }

    fn declare(&mut self, outcome: Outcome) -> Result<(), IllegalMove> {
        if self.outcome.is_some() {
            return Err(IllegalMove::GameOver);
        }
        self.outcome = Some(outcome);
        Ok(())
    }

    /// Material score of `color` in half points (Han's includes the 1.5 deom).
    pub fn score_halves(&self, color: Color) -> u32 {
        self.pos.material(color) * 2 + if color == Color::Han { DEOM_HALVES } else { 0 }
    }

    /// Material score of `color` in points (Han's includes the 1.5 deom):
    /// 72 : 73.5 at the start.
    pub fn score(&self, color: Color) -> f64 {
        f64::from(self.score_halves(color)) / 2.0
    }

    /// Kind of the piece `mv` moves (`None` for the pass or an empty square).
    pub fn moved_kind(&self, mv: Move) -> Option<PieceKind> {
        if mv.is_pass() {
            None
        } else {
            self.pos.piece_at(mv.from()).map(|p| p.kind)
        }
    }
}
