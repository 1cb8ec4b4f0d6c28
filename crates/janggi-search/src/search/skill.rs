//! Skill levels for human play (`Skill Level`, `UCI_LimitStrength`,
//! `UCI_Elo`), modelled on the sibling engine's three difficulties:
//!
//! | level   | name      | depth | time    | margin | fully random |
//! |---------|-----------|-------|---------|--------|--------------|
//! | 0..=6   | easy      | 1     | 300 ms  | 160 cp | 12 %         |
//! | 7..=13  | medium    | 3     | 1200 ms | 12 cp  | 0 %          |
//! | 14..=19 | hard      | 5     | 2600 ms | 0 cp   | 0 %          |
//! | 20      | unlimited | —     | —       | —      | —            |
//!
//! The searcher caps depth and time by the level, scores every root move
//! (MultiPV over all moves) when the level picks among near-best moves,
//! and at the end lets [`Skill::choose`] pick one. A mate or a rule win
//! for the side to move is always played, so a won position is never
//! stalled by a random pick, and a move is always returned (no resigning).

use super::score::WIN_BOUND;
use janggi_core::rng::SplitMix64;
use std::time::Duration;

/// Highest (full strength) level.
pub const MAX_LEVEL: u32 = 20;
/// Lowest `UCI_Elo`.
pub const MIN_ELO: i64 = 500;
/// Highest `UCI_Elo`.
pub const MAX_ELO: i64 = 2500;

/// One playing strength.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skill {
    level: u32,
}

impl Default for Skill {
    fn default() -> Self {
        Skill { level: MAX_LEVEL }
    }
}

impl Skill {
    /// The skill at `level` (clamped to 0..=20).
    pub fn new(level: u32) -> Skill {
        Skill {
            level: level.min(MAX_LEVEL),
        }
    }

    /// The skill for `UCI_Elo` under `UCI_LimitStrength`: 500 → 0, linear
    /// to 2500 → 19 (a limited strength is never the unlimited level 20).
    pub fn from_elo(elo: i64) -> Skill {
        let e = elo.clamp(MIN_ELO, MAX_ELO) - MIN_ELO;
        let level = (e * 19 + (MAX_ELO - MIN_ELO) / 2) / (MAX_ELO - MIN_ELO);
        Skill::new(level as u32)
    }

    /// The level (0..=20).
    pub fn level(&self) -> u32 {
        self.level
    }

    /// Whether this level weakens the search (every level below 20).
    pub fn is_limited(&self) -> bool {
        self.level < MAX_LEVEL
    }

    /// The named point: `"easy"`, `"medium"`, `"hard"` or `"unlimited"`.
    pub fn name(&self) -> &'static str {
        match self.level {
            0..=6 => "easy",
            7..=13 => "medium",
            14..=19 => "hard",
            _ => "unlimited",
        }
    }

    /// Deepest iteration, if capped.
    pub fn max_depth(&self) -> Option<u32> {
        match self.level {
            0..=6 => Some(1),
            7..=13 => Some(3),
            14..=19 => Some(5),
            _ => None,
        }
    }

    /// Longest think per move, if capped.
    pub fn max_time(&self) -> Option<Duration> {
        match self.level {
            0..=6 => Some(Duration::from_millis(300)),
            7..=13 => Some(Duration::from_millis(1200)),
            14..=19 => Some(Duration::from_millis(2600)),
            _ => None,
        }
    }

    /// Moves scoring within this many centipawns of the best are candidates.
    pub fn margin_cp(&self) -> i32 {
        match self.level {
            0..=6 => 160,
            7..=13 => 12,
            _ => 0,
        }
    }

    /// Chance (per mille) of a fully random move instead of a candidate.
    pub fn random_permille(&self) -> u64 {
        match self.level {
            0..=6 => 120,
            _ => 0,
        }
    }

    /// Whether the search must score every root move (MultiPV over all).
    pub fn needs_all_scores(&self) -> bool {
        self.is_limited() && (self.margin_cp() > 0 || self.random_permille() > 0)
    }

    /// Picks among root moves whose scores are `scores`, best first
    /// (`scores[0]` is the search's best move). Returns an index into
    /// `scores`; 0 at full strength, with one move, or when the best move
    /// mates or wins by the rules (such a move beats every pick). A fully
    /// random pick avoids moves the search found lost, unless all are.
    pub fn choose(&self, scores: &[i32], rng: &mut SkillRng) -> usize {
        if !self.is_limited() || scores.len() <= 1 {
            return 0;
        }
        let best = scores[0];
        if best >= WIN_BOUND {
            return 0;
        }
        let roll = rng.next_u64();
        if roll % 1000 < self.random_permille() {
            let pool: Vec<usize> = (0..scores.len())
                .filter(|&i| scores[i] > -WIN_BOUND || best <= -WIN_BOUND)
                .collect();
            if !pool.is_empty() {
                return pool[(rng.next_u64() % pool.len() as u64) as usize];
            }
        }
        let floor = best.saturating_sub(self.margin_cp());
        let pool: Vec<usize> = (0..scores.len()).filter(|&i| scores[i] >= floor).collect();
        if pool.is_empty() {
            return 0;
        }
        pool[(rng.next_u64() % pool.len() as u64) as usize]
    }
}

/// The generator for skill picks: SplitMix64 seeded per search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SkillRng(SplitMix64);

impl SkillRng {
    /// A generator seeded from a position key and a per-search counter.
    pub fn new(key: u64, counter: u64) -> SkillRng {
        let mut r = SkillRng(SplitMix64::new(
            key ^ counter.wrapping_mul(0xA24B_AED4_963E_E407),
        ));
        r.next_u64();
        r
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }
}
