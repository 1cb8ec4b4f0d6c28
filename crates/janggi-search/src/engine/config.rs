//! The engine's one typed configuration: every setting a front end can
//! change (the protocol's options other than the rules), owned by the
//! [`Engine`](super::Engine) and applied to its searcher in one place.

use crate::nnue::Network;
use crate::search::params::SearchParams;
use crate::search::skill::{Skill, MAX_ELO, MAX_LEVEL};
use std::sync::Arc;

/// Default hash size in MB.
pub const DEFAULT_HASH_MB: usize = 16;
/// Default number of search threads.
pub const DEFAULT_THREADS: usize = 1;
/// Default `Move Overhead` in ms: time kept back per move for the pipe and
/// the front end.
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 10;
/// Whether the engine evaluates with the shipped network by default
/// (`Use NNUE`). On since generation 2 beat the handcrafted evaluation in
/// a recorded match (docs/strength.md, "The neural evaluation"); `Use NNUE
/// false` brings the handcrafted evaluation back.
pub const USE_NNUE_DEFAULT: bool = true;

/// The four settings that together decide the playing strength.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strength {
    /// `Skill Level` (0..=20; 20 is full strength).
    pub level: u32,
    /// `UCI_LimitStrength`: play at `elo` instead of `level`.
    pub limit: bool,
    /// `UCI_Elo`.
    pub elo: i64,
    /// `UCI_AnalyseMode`: a front end analyses (full strength, whatever
    /// the other three say).
    pub analyse: bool,
}

impl Default for Strength {
    fn default() -> Self {
        Strength {
            level: MAX_LEVEL,
            limit: false,
            elo: MAX_ELO,
            analyse: false,
        }
    }
}

impl Strength {
    /// The search's skill. Analysis wants the true best move and score:
    /// the strength settings apply to play only.
    pub fn skill(self) -> Skill {
        if self.analyse {
            Skill::default()
        } else if self.limit {
            Skill::from_elo(self.elo)
        } else {
            Skill::new(self.level)
        }
    }
}

/// Everything about the engine a front end can set.
#[derive(Clone, Debug)]
pub struct EngineConfig {
    /// Hash table size in MB (`Hash`).
    pub hash_mb: usize,
    /// Search threads (`Threads`; also perft's).
    pub threads: usize,
    /// Principal variations reported (`MultiPV`).
    pub multipv: usize,
    /// The front end may send `go ponder` (`Ponder`).
    pub ponder: bool,
    /// Time kept back per move in ms (`Move Overhead`).
    pub move_overhead_ms: u64,
    /// `Skill Level`, `UCI_LimitStrength`, `UCI_Elo`, `UCI_AnalyseMode`.
    pub strength: Strength,
    /// Search with the network (`Use NNUE`; false: the handcrafted
    /// evaluation).
    pub use_nnue: bool,
    /// The network loaded from `EvalFile`; `None`: the shipped one.
    pub eval_file: Option<Arc<Network>>,
    /// Win/draw/loss estimates in `info` lines (`UCI_ShowWDL`).
    pub show_wdl: bool,
    /// The search's pruning, reduction and extension parameters (tuning
    /// builds' `SearchTune`).
    pub params: SearchParams,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            hash_mb: DEFAULT_HASH_MB,
            threads: DEFAULT_THREADS,
            multipv: 1,
            ponder: false,
            move_overhead_ms: DEFAULT_MOVE_OVERHEAD_MS,
            strength: Strength::default(),
            use_nnue: USE_NNUE_DEFAULT,
            eval_file: None,
            show_wdl: false,
            params: SearchParams::default(),
        }
    }
}

impl EngineConfig {
    /// The playing strength the search uses.
    pub fn skill(&self) -> Skill {
        self.strength.skill()
    }

    /// The network `EvalFile` names (the shipped one by default), whether
    /// or not the search uses it.
    pub fn network(&self) -> Arc<Network> {
        self.eval_file
            .clone()
            .unwrap_or_else(|| Arc::clone(crate::nnue::default_network()))
    }

    /// The network the search evaluates with (`None`: the handcrafted
    /// evaluation).
    pub fn search_network(&self) -> Option<Arc<Network>> {
        self.use_nnue.then(|| self.network())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn analysis_mode_plays_at_full_strength() {
        let weak = Strength {
            level: 3,
            ..Strength::default()
        };
        assert_eq!(weak.skill().level(), 3);
        let analyse = Strength {
            analyse: true,
            ..weak
        };
        assert_eq!(analyse.skill().level(), MAX_LEVEL);
        let limited = Strength {
            limit: true,
            elo: 500,
            ..weak
        };
        assert_eq!(limited.skill().level(), 0);
    }

    #[test]
    fn the_search_network_follows_use_nnue() {
        let mut c = EngineConfig::default();
        assert!(c.search_network().is_some());
        c.use_nnue = false;
        assert!(c.search_network().is_none());
        assert!(Arc::ptr_eq(&c.network(), crate::nnue::default_network()));
    }
}
