//! The search's rule stack: the judge's frames ([`Frame`]) along the game
//! and the current search path, so that every node is judged by the game
//! layer's own [`judge`] (bikjang, repetition, passes, the n-move rule and
//! the move limit, in the spec's order, §8.2) without a `Game` per node.
//!
//! The stack starts from the game's own frames ([`Game::frames`], no move
//! is replayed); each move pushes the judge's frame and each unmake pops
//! it. What the search adds: the occurrence counts of the game's positions
//! taken once (behind a bit filter), the hash-key salts for the rule state
//! that changes a node's value, and the questions the move loop asks
//! (must bikjang be answered, may the pass be searched, who wins by
//! counting). Mates are the search's own business: the judge asks for one
//! only where a rule ending would otherwise hide it
//! ([`MateCheck::BeforeRuleEnding`]).

use super::score::MAX_PLY;
use janggi_core::{
    search_support::{
        counting_winner, judge, Decision, Ending, Frame, GenKind, Line, MateCheck, Played,
    },
    BikjangRule, Color, EndReason, Game, LegalityModel, Move, MoveList, Position, Rules,
};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;

/// A decided game from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The side to move has won.
    Win,
    /// The side to move has lost.
    Loss,
    /// Draw.
    Draw,
    /// The side to move is checkmated.
    Mated,
}

impl Verdict {
    /// The verdict for `stm` of a game won by `winner` (`None`: a draw).
    #[inline]
    fn of(winner: Option<Color>, stm: Color) -> Verdict {
        match winner {
            None => Verdict::Draw,
            Some(w) if w == stm => Verdict::Win,
            Some(_) => Verdict::Loss,
        }
    }

    /// The verdict for `stm` of the judge's `ending`.
    #[inline]
    fn of_ending(ending: Ending, stm: Color) -> Verdict {
        if ending.reason == EndReason::Checkmate {
            Verdict::Mated
        } else {
            Verdict::of(ending.winner, stm)
        }
    }
}

/// What a move did, as the rules see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum After {
    /// The game goes on.
    Continue,
    /// The move is not legal under the rule set (Fairy-Stockfish bikjang).
    Illegal,
    /// The move would make a position's 4th occurrence under `forbid`.
    RepetitionForbidden,
    /// The game ended with this move.
    End(Verdict),
}

/// Zobrist salts for rule state that changes a node's value.
const KEY_PENDING: u64 = 0x9E37_79B9_7F4A_7C15;
const KEY_PASS: u64 = 0xC2B2_AE3D_27D4_EB4F;
const KEY_CAPTURED: u64 = 0x1656_67B1_9E37_79F9;

/// Occurrence counts by Zobrist key. The keys are random already, so the
/// map hashes them by taking them as they are.
type KeyCounts = HashMap<u64, u32, BuildHasherDefault<KeyHasher>>;

/// Bits of the filter in front of [`GameCounts::counts`].
const FILTER_WORDS: usize = 64;

/// How often each position of the game occurred from its last capture up
/// to the root, with a bit filter in front of the map: most keys a search
/// meets never occurred in the game, and one bit test tells so without a
/// hash lookup (the lookup cost about 1 % of the instructions of `bench`).
#[derive(Debug)]
struct GameCounts {
    counts: KeyCounts,
    filter: [u64; FILTER_WORDS],
}

impl Default for GameCounts {
    fn default() -> Self {
        GameCounts {
            counts: KeyCounts::default(),
            filter: [0; FILTER_WORDS],
        }
    }
}

impl GameCounts {
    fn add(&mut self, key: u64) {
        *self.counts.entry(key).or_insert(0) += 1;
        let (word, bit) = Self::slot(key);
        self.filter[word] |= bit;
    }

    #[inline]
    fn get(&self, key: u64) -> u32 {
        let (word, bit) = Self::slot(key);
        if self.filter[word] & bit == 0 {
            return 0;
        }
        self.counts.get(&key).copied().unwrap_or(0)
    }

    /// Word and bit of `key` in the filter (its top 12 bits).
    #[inline]
    fn slot(key: u64) -> (usize, u64) {
        let k = (key >> 52) as usize;
        (k / 64 % FILTER_WORDS, 1 << (k % 64))
    }
}

/// A [`Hasher`] for Zobrist keys: the key is its own hash.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Only `u64` keys are hashed; fold anything else in anyway.
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

/// The judge's frames of a game and the current search path.
#[derive(Clone, Debug)]
pub struct Tree {
    rules: Rules,
    model: LegalityModel,
    /// Index k: the position after k plies of the game (and then of the
    /// search path); never empty.
    frames: Vec<Frame>,
    /// Index of the root frame (the game's current position).
    root: usize,
    /// How often each position of the game occurred from its last capture
    /// up to the root (the root included); shared by the search threads.
    history: Arc<GameCounts>,
}

impl Tree {
    /// The rule stack of `game`'s current position: the game's own frames
    /// (a copy of its record, no move is replayed). The occurrence counts
    /// of the game's positions since its last capture go into a hash map
    /// once here, so no node ever scans the game history.
    pub fn new(game: &Game) -> Tree {
        let rules = *game.rules();
        let mut frames = Vec::with_capacity(game.frames().len() + 2 * MAX_PLY);
        frames.extend_from_slice(game.frames());
        if frames.is_empty() {
            frames.push(Frame::start(game.position()));
        }
        let root = frames.len() - 1;
        let since = frames[root].last_irreversible() as usize;
        let mut history = GameCounts::default();
        for f in frames.get(since..).unwrap_or_default() {
            history.add(f.key());
        }
        Tree {
            rules,
            model: rules.model(),
            root,
            history: Arc::new(history),
            frames,
        }
    }

    /// The rule set.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Plies from the start of the game to the current node.
    pub fn game_ply(&self) -> usize {
        self.frames.len() - 1
    }

    /// The hash key for the transposition table: the position key plus the
    /// rule state that changes the value of the node.
    #[inline]
    pub fn tt_key(&self, pos: &Position) -> u64 {
        let f = self.top();
        pos.key() ^ self.salt(f.pending().is_some(), f.passes() > 0, f.captured_any())
    }

    /// The likely [`Tree::tt_key`] of `pos`, just made by `mv` (`capture`:
    /// it took a piece), before [`Tree::push`] records it: for prefetching
    /// the table's bucket while the rules judge the move. Wrong only when
    /// the move changes a pending bikjang call.
    #[inline]
    pub fn tt_key_guess(&self, pos: &Position, mv: Move, capture: bool) -> u64 {
        let f = self.top();
        pos.key()
            ^ self.salt(
                f.pending().is_some(),
                mv.is_pass(),
                f.captured_any() || capture,
            )
    }

    #[inline]
    fn salt(&self, pending: bool, pass: bool, captured: bool) -> u64 {
        let mut k = 0;
        if pending {
            k ^= KEY_PENDING;
        }
        if pass {
            k ^= KEY_PASS;
        }
        if captured && self.rules.bikjang == BikjangRule::Kjf {
            k ^= KEY_CAPTURED;
        }
        k
    }

    #[inline]
    fn top(&self) -> &Frame {
        // The vector always holds the root frame.
        &self.frames[self.frames.len() - 1]
    }

    /// Whether the last move was a pass (a second one would end the game).
    #[inline]
    pub fn last_was_pass(&self) -> bool {
        self.top().passes() > 0
    }

    /// Whether the side to move must answer bikjang now (its quiet moves
    /// matter even at the horizon): a pending KJF/KJA call, or facing
    /// generals under Fairy-Stockfish's rule.
    #[inline]
    pub fn must_answer_bikjang(&self) -> bool {
        let f = self.top();
        f.pending().is_some() || (self.model == LegalityModel::Fsf && f.facing())
    }

    /// Whether the rules core allows the pass here: not in check, or
    /// anyway under Fairy-Stockfish's bikjang.
    #[inline]
    pub fn core_pass(&self, in_check: bool) -> bool {
        !in_check || (self.model == LegalityModel::Fsf && self.top().facing())
    }

    /// Whether the pass may be searched here as an ordinary move (allowed
    /// by the rule set and by the core). A forced pass (no other legal
    /// move) is the search's business.
    #[inline]
    pub fn pass_allowed(&self, in_check: bool) -> bool {
        self.rules.allow_pass && self.core_pass(in_check)
    }

    /// The verdict of counting (점수 판정) for the side to move of `pos`,
    /// or a draw when the rule set does not score.
    #[inline]
    pub fn counting(&self, pos: &Position) -> Verdict {
        Verdict::of(counting_winner(&self.rules, pos), pos.side_to_move())
    }

    /// Records the move `mv` just made on `pos` (`captured`: it took a
    /// piece; `in_check`: the side now to move is in check, which the
    /// caller has computed anyway) and judges it. The frame is pushed
    /// whatever the verdict; call [`Tree::pop`] after `unmake`.
    #[inline]
    pub fn push(&mut self, pos: &Position, mv: Move, captured: bool, in_check: bool) -> After {
        let prev = *self.top();
        let model = self.model;
        let played = Played {
            mv,
            captured,
            in_check,
        };
        let (frame, decision) = judge(
            &self.rules,
            &prev,
            pos,
            played,
            &*self,
            MateCheck::BeforeRuleEnding,
            || is_mate(pos, model),
        );
        self.frames.push(frame);
        match decision {
            Decision::Continue => After::Continue,
            Decision::Illegal => After::Illegal,
            Decision::RepetitionForbidden => After::RepetitionForbidden,
            Decision::Ended(ending) => After::End(Verdict::of_ending(ending, pos.side_to_move())),
        }
    }

    /// Drops the frame of the last [`Tree::push`].
    #[inline]
    pub fn pop(&mut self) {
        if self.frames.len() > self.root + 1 {
            self.frames.pop();
        }
    }
}

/// The game and the search path as the judge reads them.
impl Line for Tree {
    #[inline]
    fn frames(&self) -> &[Frame] {
        &self.frames
    }

    /// How often `key` occurred before the position being judged (the
    /// next frame), counting back to the last capture: the search path is
    /// scanned (at most [`MAX_PLY`] frames), the game up to the root is
    /// looked up in the counts taken once by [`Tree::new`].
    #[inline(always)]
    fn occurrences(&self, key: u64) -> u32 {
        // Index the position being judged will take.
        let n = self.frames.len();
        // The judge asks only after a move without capture, so the last
        // capture is the previous frame's.
        let stop = self.top().last_irreversible() as usize;
        // No capture since the root: the game's positions since its last
        // capture count too, from the map (the root included).
        let before_root = stop <= self.root;
        let floor = if before_root { self.root + 1 } else { stop };
        let mut count = 0;
        let mut i = n;
        // Frames of the same side to move, down to the floor.
        while i >= floor + 2 {
            i -= 2;
            if self.frames[i].key() == key {
                count += 1;
            }
        }
        if before_root {
            count += self.history.get(key);
        }
        count
    }
}

/// Whether the side to move of `pos` is checkmated (in check, no legal
/// move in the rules core's model). Slow; used only where a rule ending
/// needs it.
pub fn is_mate(pos: &Position, model: LegalityModel) -> bool {
    if !pos.in_check() {
        return false;
    }
    if model == LegalityModel::Fsf && pos.generals_facing() {
        // Fairy-Stockfish keeps the pass legal in bikjang even in check.
        return false;
    }
    let mut list = MoveList::new();
    pos.generate(GenKind::All, &mut list);
    !list.iter().any(|&m| !pos.leaves_general_attacked(m))
}
