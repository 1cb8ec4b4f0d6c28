//! The rules of play inside the search tree (빅장, 반복수, 한수쉼, 수 제한).
//!
//! The game layer ([`crate::game::Game`]) is the authority on the real game;
//! the search cannot clone a `Game` per node, so it keeps this light state
//! per ply over `Position::make`/`unmake` and applies the game layer's
//! rules in the spec's order (§8.2): the bikjang answer (step 3), mate
//! (step 4: found by the search itself, and checked first wherever a
//! step-6 ending would otherwise hide it), the bikjang call (step 5), then
//! repetition, double pass, the n-move rule and the move limit (step 6),
//! with Fairy-Stockfish's order and repetition rule (3-fold, perpetual
//! check loses, and `janggimodern`'s Kakao move-repetition rule) for its
//! presets, judged by the game layer's own port of that rule
//! ([`PlyChain`]).
//!
//! Deviation from `STYLE.md`'s file list, for a stated reason: this is its
//! own concept (game rules seen by the search), so it gets its own file.

use crate::board::{GenKind, LegalityModel, Position};
use crate::game::history::{PlyChain, RepetitionVerdict};
use crate::game::{BikjangRule, Game, RepetitionRule, Rules};
use crate::types::{Color, Move, MoveList, PieceKind};
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

/// Rule state after one ply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Frame {
    /// Zobrist key of the position.
    key: u64,
    /// Index of the frame reached by the latest capture (no position
    /// before it can repeat).
    last_irreversible: u32,
    /// Consecutive passes that led here.
    passes: u8,
    /// Whether a capture has happened at or before the move into here.
    captured_any: bool,
    /// Whether the generals face each other here.
    facing: bool,
    /// Whether the side to move is in check here (kept only for
    /// Fairy-Stockfish's perpetual-check rule).
    in_check: bool,
    /// The side that called bikjang and waits for the answer.
    pending: Option<Color>,
    /// The move into here (`None` at the start of the game).
    mv: Option<Move>,
    /// Kind of the piece that moved here (`None` for a pass).
    moved: Option<PieceKind>,
    /// Whether the move into here captured.
    captured: bool,
}

/// Zobrist salts for rule state that changes a node's value.
const KEY_PENDING: u64 = 0x9E37_79B9_7F4A_7C15;
const KEY_PASS: u64 = 0xC2B2_AE3D_27D4_EB4F;
const KEY_CAPTURED: u64 = 0x1656_67B1_9E37_79F9;

/// The spec's repetition limit (4th occurrence).
const REPETITION_LIMIT: u32 = 4;
/// Fairy-Stockfish's `janggi` n-fold.
const FSF_NFOLD: u32 = 3;
/// KJA bikjang threshold (points, without the deom).
const KJA_POINTS: u32 = 30;
/// Pieces per side at the start.
const FULL_ARMY: u32 = 16;

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

/// The rule state of a game and the current search path.
#[derive(Clone, Debug)]
pub struct Tree {
    rules: Rules,
    model: LegalityModel,
    frames: Vec<Frame>,
    /// Index of the root frame (the game's current position).
    root: usize,
    /// How often each position of the game occurred from its last capture
    /// up to the root (the root included); shared by the search threads.
    history: Arc<GameCounts>,
}

impl Tree {
    /// Builds the rule state of `game`'s current position from the game's
    /// own record of each ply (no moves are replayed, so this is a copy of
    /// the record, not a search over it), then takes the game's counters
    /// (first capture, pending bikjang, passes) for the root. The
    /// occurrence counts of the game's positions since its last capture go
    /// into a hash map once here, so no node ever scans the game history.
    pub fn new(game: &Game) -> Tree {
        let rules = *game.rules();
        let fsf_rep = rules.repetition.is_fsf();
        let start = game.start_position();
        let full = Color::BOTH
            .iter()
            .all(|&c| start.color_bb(c).count() >= FULL_ARMY);
        let records = game.records();
        let mut frames = Vec::with_capacity(records.len() + 2 * crate::search::score::MAX_PLY);
        frames.push(Frame {
            key: start.key(),
            last_irreversible: 0,
            passes: 0,
            captured_any: !full,
            facing: start.generals_facing(),
            in_check: fsf_rep && game.root_in_check(),
            pending: None,
            mv: None,
            moved: None,
            captured: false,
        });
        let mut last_irreversible = 0;
        for (i, r) in records.iter().enumerate() {
            if r.captured {
                last_irreversible = (i + 1) as u32;
            }
            // Only the root frame's passes, facing, capture flag and
            // pending call are ever read; they are set below.
            frames.push(Frame {
                key: r.key,
                last_irreversible,
                passes: 0,
                captured_any: false,
                facing: false,
                in_check: fsf_rep && r.in_check,
                pending: None,
                mv: Some(r.mv),
                moved: r.moved,
                captured: r.captured,
            });
        }
        let mut history = GameCounts::default();
        for f in &frames[last_irreversible as usize..] {
            history.add(f.key);
        }
        if let Some(top) = frames.last_mut() {
            let pos = game.position();
            top.key = pos.key();
            top.facing = pos.generals_facing();
            top.passes = game.consecutive_passes().min(2) as u8;
            top.captured_any = game.first_capture_ply().is_some();
            top.pending = game.pending_bikjang().map(|b| b.called_by);
        }
        Tree {
            rules,
            model: rules.model(),
            root: frames.len() - 1,
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
        let mut k = pos.key();
        if f.pending.is_some() {
            k ^= KEY_PENDING;
        }
        if f.passes > 0 {
            k ^= KEY_PASS;
        }
        if f.captured_any && self.rules.bikjang == BikjangRule::Kjf {
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
        self.top().passes > 0
    }

    /// Whether the side to move must answer bikjang now (its quiet moves
    /// matter even at the horizon): a pending KJF/KJA call, or facing
    /// generals under Fairy-Stockfish's rule.
    #[inline]
    pub fn must_answer_bikjang(&self) -> bool {
        let f = self.top();
        f.pending.is_some() || (self.model == LegalityModel::Fsf && f.facing)
    }

    /// Whether the rules core allows the pass here: not in check, or
    /// anyway under Fairy-Stockfish's bikjang.
    #[inline]
    pub fn core_pass(&self, in_check: bool) -> bool {
        !in_check || (self.model == LegalityModel::Fsf && self.top().facing)
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
    pub fn counting(&self, pos: &Position) -> Verdict {
        if !self.rules.scoring {
            return Verdict::Draw;
        }
        let cho = 2 * pos.material(Color::Cho);
        let han = 2 * pos.material(Color::Han) + 3;
        let cho_wins = cho > han;
        if cho_wins == (pos.side_to_move() == Color::Cho) {
            Verdict::Win
        } else {
            Verdict::Loss
        }
    }

    /// Records the move `mv` just made on `pos` (`captured`: it took a
    /// piece; `in_check`: the side now to move is in check, which the
    /// caller has computed anyway) and judges it. The frame is pushed
    /// whatever the verdict; call [`Tree::pop`] after `unmake`.
    pub fn push(&mut self, pos: &Position, mv: Move, captured: bool, in_check: bool) -> After {
        let prev = *self.top();
        let n = self.frames.len() as u32;
        let mover = !pos.side_to_move();
        let facing = pos.generals_facing();
        let pass = mv.is_pass();
        let fsf_rep = self.rules.repetition.is_fsf();
        let frame = Frame {
            key: pos.key(),
            last_irreversible: if captured { n } else { prev.last_irreversible },
            passes: if pass {
                prev.passes.saturating_add(1)
            } else {
                0
            },
            captured_any: prev.captured_any || captured,
            facing,
            in_check: fsf_rep && in_check,
            pending: None,
            mv: Some(mv),
            moved: if pass {
                None
            } else {
                pos.piece_at(mv.to()).map(|p| p.kind)
            },
            captured,
        };
        self.frames.push(frame);
        let mut pending = None;
        match self.rules.bikjang {
            BikjangRule::Fsf => {
                // "In bikjang every non-pass move that keeps the generals
                // facing is illegal; bikjang that persists after a move (a
                // pass) ends the game."
                if prev.facing && facing {
                    if !pass {
                        return After::Illegal;
                    }
                    return After::End(self.counting(pos));
                }
            }
            BikjangRule::Kjf | BikjangRule::Kja30 => {
                // Step 3: the answer to a pending call must break the facing.
                if prev.pending.is_some_and(|c| c != mover) && facing {
                    return After::End(self.counting(pos));
                }
                // Step 5: calling bikjang.
                if facing {
                    let calls = match self.rules.bikjang {
                        BikjangRule::Kjf => prev.captured_any,
                        _ => {
                            pos.material(Color::Cho) < KJA_POINTS
                                && pos.material(Color::Han) < KJA_POINTS
                        }
                    };
                    if calls {
                        pending = Some(mover);
                    }
                }
            }
            BikjangRule::Off => {}
        }
        if let Some(top) = self.frames.last_mut() {
            top.pending = pending;
        }
        // Step 6: repetition, passes, the n-move rule, the move limit.
        let double_pass = pass && prev.passes > 0;
        let no_capture =
            self.rules.no_capture_limit > 0 && pos.halfmove_clock() >= self.rules.no_capture_limit;
        let end = if fsf_rep {
            if double_pass || no_capture {
                Some(self.counting(pos))
            } else {
                self.fsf_repetition(pos)
            }
        } else {
            let mut e = None;
            if !captured && self.occurrences() >= REPETITION_LIMIT {
                match self.rules.repetition {
                    RepetitionRule::Lose => e = Some(Verdict::Win),
                    RepetitionRule::ScoreEnd => e = Some(self.counting(pos)),
                    _ => return After::RepetitionForbidden,
                }
            }
            if e.is_none() && (double_pass || no_capture) {
                e = Some(self.counting(pos));
            }
            e
        };
        let end = end.or_else(|| {
            (self.rules.move_limit > 0 && n >= self.rules.move_limit).then(|| self.counting(pos))
        });
        match end {
            // Step 4 comes first: a mate is a mate.
            Some(v) => After::End(if is_mate(pos, self.model) {
                Verdict::Mated
            } else {
                v
            }),
            None => After::Continue,
        }
    }

    /// Drops the frame of the last [`Tree::push`].
    #[inline]
    pub fn pop(&mut self) {
        if self.frames.len() > self.root + 1 {
            self.frames.pop();
        }
    }

    /// How often the current position has occurred (this one included),
    /// counting back to the last capture: the search path is scanned (at
    /// most [`crate::search::score::MAX_PLY`] frames), the game up to the root is
    /// looked up in the counts taken once by [`Tree::new`].
    #[inline(always)]
    fn occurrences(&self) -> u32 {
        let n = self.frames.len() - 1;
        let f = self.frames[n];
        let stop = f.last_irreversible as usize;
        // No capture since the root: the game's positions since its last
        // capture count too, from the map (the root included).
        let before_root = stop <= self.root;
        let floor = if before_root { self.root + 1 } else { stop };
        let mut count = 1;
        let mut i = n;
        // Frames of the same side to move, down to the floor.
        while i >= floor + 2 {
            i -= 2;
            if self.frames[i].key == f.key {
                count += 1;
            }
        }
        if before_root {
            count += self.history.get(f.key);
        }
        count
    }

    /// Fairy-Stockfish's repetition rule, as the game layer judges it
    /// ([`PlyChain::fsf_repetition`], the Kakao rule included under
    /// `fsfModern`): the `nfold`-th occurrence within the capture-free
    /// stretch ends the game; a side that gave check in each of its moves
    /// of the cycle loses, else counting.
    fn fsf_repetition(&self, pos: &Position) -> Option<Verdict> {
        let modern = self.rules.repetition == RepetitionRule::FsfModern;
        let nfold = if modern { REPETITION_LIMIT } else { FSF_NFOLD };
        // Without the Kakao rule only the n-fold count can end the game, and
        // the positions since the last capture are the ones the port
        // compares (its window is the halfmove clock): a hash count says
        // at once when it cannot fire, so no node scans a long
        // capture-free stretch.
        if !modern && self.occurrences() < nfold {
            return None;
        }
        Some(
            match PlyChain::fsf_repetition(self, pos.halfmove_clock() as usize, nfold, modern)? {
                RepetitionVerdict::SideToMoveWins => Verdict::Win,
                RepetitionVerdict::SideToMoveLoses => Verdict::Loss,
                RepetitionVerdict::Neutral => self.counting(pos),
            },
        )
    }
}

/// The search path (game record plus tree plies) as Fairy-Stockfish's
/// state chain.
impl PlyChain for Tree {
    #[inline]
    fn plies(&self) -> usize {
        self.frames.len() - 1
    }

    #[inline]
    fn key(&self, k: usize) -> u64 {
        self.frames[k].key
    }

    #[inline]
    fn checked(&self, k: usize) -> bool {
        self.frames[k].in_check
    }

    #[inline]
    fn mv(&self, k: usize) -> Option<Move> {
        self.frames[k].mv
    }

    #[inline]
    fn captured(&self, k: usize) -> bool {
        self.frames[k].captured
    }

    #[inline]
    fn moved(&self, k: usize) -> Option<PieceKind> {
        self.frames[k].moved
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
