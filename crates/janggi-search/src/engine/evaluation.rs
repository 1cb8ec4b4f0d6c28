//! The static evaluation of a position as a front end shows it (`eval`):
//! the handcrafted evaluation term by term, its total, the network's
//! score, and which of the two the search uses.

use super::EngineConfig;
use crate::eval::Term;
use crate::nnue::Network;
use janggi_core::Position;
use std::sync::Arc;

/// One position's static evaluation.
#[derive(Clone, Debug)]
pub struct Evaluation {
    /// The handcrafted evaluation's terms, each side from its own view.
    pub terms: Vec<Term>,
    /// The handcrafted evaluation, side to move's view, tempo included.
    pub handcrafted: i32,
    /// The configured network's evaluation, side to move's view.
    pub nnue: i32,
    /// The configured network (`EvalFile`, the shipped one by default).
    pub network: Arc<Network>,
    /// Whether the search evaluates with the network (`Use NNUE`).
    pub search_uses_nnue: bool,
}

impl Evaluation {
    /// `pos` evaluated as `config` sets the engine up.
    pub fn of(pos: &Position, config: &EngineConfig) -> Evaluation {
        let network = config.network();
        Evaluation {
            terms: crate::eval::explain(pos),
            handcrafted: crate::eval::evaluate(pos),
            nnue: crate::nnue::evaluate(&network, pos),
            network,
            search_uses_nnue: config.use_nnue,
        }
    }
}
