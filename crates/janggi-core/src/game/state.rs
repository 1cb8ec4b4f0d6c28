//! [`Game`]: a position, its history and the rule set; after each move
//! (the spec's §8.2 steps 2–7) the judge ([`super::judge`]) decides, and
//! the game turns its decision into the outcome and the events.

use super::history::PendingBikjang;
use super::judge::{
    judge, Decision, Ending, Frame, Line, MateCheck, Occasion, Played, DEOM_HALVES,
    REPETITION_LIMIT, REPETITION_WARNING,
};
use super::outcome::{EndReason, Outcome};
use super::ruleset::{RepetitionRule, Rules};
use super::{Event, IllegalMove};
use crate::board::zobrist::{piece_key, side_key};
use crate::board::{LegalityModel, Position};
use crate::types::{Color, Move, MoveList, PieceKind};
use std::collections::HashMap;

/// A game: position, history and rule set.
///
/// ```
/// use janggi_core::{Event, Game, Rules};
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
    /// The judge's frame of every position of the game: index 0 is the
    /// start, index k the position after k plies (never empty).
    frames: Vec<Frame>,
    counts: HashMap<u64, u32>,
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
            && self.frames == other.frames
            && self.counts == other.counts
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
        let mut counts = HashMap::new();
        counts.insert(pos.key(), 1);
        let mut game = Game {
            root: pos.clone(),
            frames: vec![Frame::start(&pos)],
            pos,
            rules,
            counts,
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
        self.frames.iter().filter_map(Frame::mv).collect()
    }

    /// The judge's frame of every position of the game: index 0 is the
    /// start, index k the position after k plies, the last one the current
    /// position. The search's rule stack starts from these (so it never
    /// replays the moves).
    pub fn frames(&self) -> &[Frame] {
        &self.frames
    }

    /// The frame of the current position.
    fn top(&self) -> &Frame {
        // `frames` always holds the start's frame.
        &self.frames[self.frames.len() - 1]
    }

    /// Plies played since the start of the game.
    pub fn ply(&self) -> u32 {
        self.top().ply()
    }

    /// Whether the side to move is in check (장군).
    pub fn in_check(&self) -> bool {
        self.top().in_check()
    }

    /// Ply (1-based) of the first capture; `Some(0)` when the start position
    /// already lacked pieces; `None` before any capture.
    pub fn first_capture_ply(&self) -> Option<u32> {
        self.frames
            .iter()
            .find(|f| f.captured_any())
            .map(Frame::ply)
    }

    /// The bikjang waiting for its answer (spec rules `kjf`/`kja30` only).
    pub fn pending_bikjang(&self) -> Option<PendingBikjang> {
        let top = self.top();
        top.pending().map(|called_by| PendingBikjang {
            called_by,
            ply: top.ply(),
        })
    }

    /// Passes in a row at the end of the move list.
    pub fn consecutive_passes(&self) -> u32 {
        self.top().passes()
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

    fn win(&self, winner: Color, reason: EndReason) -> Outcome {
        let (c, h) = self.halves();
        Outcome::win(winner, reason, c, h, self.ply())
    }

    /// The outcome of the judge's `ending` now.
    fn outcome_of(&self, ending: Ending) -> Outcome {
        let (c, h) = self.halves();
        match ending.winner {
            Some(w) => Outcome::win(w, ending.reason, c, h, self.ply()),
            None => Outcome::draw(ending.reason, c, h, self.ply()),
        }
    }

    /// Whether the side to move has no legal move at all (with the
    /// repetition exception, the game-level list is empty exactly when the
    /// core's is).
    fn no_moves(&self) -> bool {
        self.pos.legal_moves(self.model()).is_empty()
    }

    /// An ending of the start position itself: mate, or past
    /// Fairy-Stockfish's n-move rule (`no_capture_limit`).
    fn root_outcome(&self) -> Option<Outcome> {
        let mated = self.in_check() && self.no_moves();
        if mated {
            return Some(self.win(!self.side_to_move(), EndReason::Checkmate));
        }
        let limit = self.rules.no_capture_limit;
        if limit > 0 && self.pos.halfmove_clock() >= limit {
            let ending = Ending::counting(&self.rules, &self.pos, Occasion::MoveLimit);
            return Some(self.outcome_of(ending));
        }
        None
    }

    /// Makes `mv` and applies the spec's §8.2 steps 2–7: the judge decides
    /// steps 3–6, the game keeps the counts and turns the decision into the
    /// outcome and the events (step 7).
    fn apply(&mut self, mv: Move) -> Effects {
        let prev = *self.top();
        let depth = self.pos.history().len();
        self.pos.make(mv);
        let Some(state) = self.pos.history().get(depth).copied() else {
            return Effects::default();
        };
        // Step 2: the board is updated.
        let played = Played {
            mv,
            captured: state.captured.is_some(),
            in_check: self.pos.in_check(),
        };
        let model = self.model();
        let line = GameLine {
            frames: &self.frames,
            counts: &self.counts,
        };
        let pos = &self.pos;
        let (frame, decision) = judge(
            &self.rules,
            &prev,
            pos,
            played,
            &line,
            MateCheck::Always,
            || played.in_check && pos.legal_moves(model).is_empty(),
        );
        let count = {
            let c = self.counts.entry(frame.key()).or_insert(0);
            *c += 1;
            *c
        };
        self.frames.push(frame);
        let ended = match decision {
            Decision::Continue => None,
            Decision::Ended(ending) => Some(ending),
            // Only `play_unchecked` makes such a move: as ever, the bikjang
            // ends the game.
            Decision::Illegal => Some(Ending::counting(&self.rules, &self.pos, Occasion::Bikjang)),
            // The spec's exception (nothing else was legal): counting.
            Decision::RepetitionForbidden => Some(Ending::counting(
                &self.rules,
                &self.pos,
                Occasion::Repetition,
            )),
        };
        // Step 7: check / answered.
        let fx = Effects {
            check: played.in_check,
            answered: prev.in_check(),
            bikjang: frame.called_bikjang(),
            warning: ended.is_none() && count == REPETITION_WARNING,
            over: ended.is_some(),
        };
        self.outcome = ended.map(|e| self.outcome_of(e));
        fx
    }

    /// Takes back the last ply; false if there is none. The first-capture
    /// ply, the pending bikjang, the repetition counts and the pass count
    /// (the previous frame) are restored exactly, and the outcome is
    /// cleared.
    pub fn undo(&mut self) -> bool {
        if self.frames.len() < 2 {
            return false;
        }
        let Some(frame) = self.frames.pop() else {
            return false;
        };
        if let Some(c) = self.counts.get_mut(&frame.key()) {
            *c -= 1;
            if *c == 0 {
                self.counts.remove(&frame.key());
            }
        }
        self.pos.unmake();
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

/// The game's record as the judge reads it.
struct GameLine<'a> {
    frames: &'a [Frame],
    counts: &'a HashMap<u64, u32>,
}

impl Line for GameLine<'_> {
    fn frames(&self) -> &[Frame] {
        self.frames
    }

    fn occurrences(&self, key: u64) -> u32 {
        self.counts.get(&key).copied().unwrap_or(0)
    }
}
