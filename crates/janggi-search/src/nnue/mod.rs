//! The neural evaluation (NNUE): a network trained on our own self-play
//! data (`janggi-engine datagen`, `janggi-engine train`; docs/nnue.md),
//! evaluated with accumulators that the search updates move by move.
//!
//! ```
//! use janggi_search::nnue::{default_network, evaluate};
//! use janggi_core::Position;
//! let cp = evaluate(default_network(), &Position::startpos());
//! assert!(cp.abs() < 500);
//! ```

pub mod accumulator;
mod avx2;
pub mod bucket;
pub mod input_bucket;
pub mod network;
pub mod simd;
pub mod width;

pub use accumulator::{AccStack, Accumulator, Delta, Sums};
pub use bucket::{output_bucket, position_bucket, MAX_BUCKETS};
pub use input_bucket::{InputBuckets, View};
pub use network::{feature_index, FloatWeights, NetError, Network, INPUTS};
pub use simd::{Simd, SimdUnavailable};
pub use width::{Width, HIDDEN_SIZES};

use janggi_core::Position;
use once_cell::sync::Lazy;
use std::sync::Arc;

/// The network shipped in the binary (`nets/default.nnue`).
pub static DEFAULT_NET_BYTES: &[u8] = include_bytes!("../../../../nets/default.nnue");

static DEFAULT: Lazy<Arc<Network>> = Lazy::new(|| match Network::from_bytes(DEFAULT_NET_BYTES) {
    Ok(n) => Arc::new(n),
    // The build embeds a file the tests check (`default_network_loads`);
    // should it ever be broken, a zero network (every position 0) keeps
    // the engine playing rather than crashing.
    Err(_) => Arc::new(Network::quantize(Width::H256, &[], &[], &[], &[0.0], 400)),
});

/// The shipped network.
pub fn default_network() -> &'static Arc<Network> {
    &DEFAULT
}

/// The network's evaluation of `pos` in centipawns for the side to move,
/// computed from scratch.
pub fn evaluate(net: &Network, pos: &Position) -> i32 {
    Accumulator::refresh(net, pos).evaluate(net, pos)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_network_loads() {
        let net = Network::from_bytes(DEFAULT_NET_BYTES).unwrap();
        assert_eq!(net.to_bytes(), DEFAULT_NET_BYTES);
        // Generation 9: a version-2 file with 8 output buckets (heads
        // chosen by the material), 256 wide, no input buckets.
        assert_eq!(
            u32::from_le_bytes(DEFAULT_NET_BYTES[8..12].try_into().unwrap()),
            2
        );
        assert_eq!(net.buckets(), 8);
        assert_eq!(net.hidden(), 256);
        assert_eq!(net.input_buckets(), InputBuckets::None);
    }
}
