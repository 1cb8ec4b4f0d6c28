//! The first layer's width H: a property of the network file (its header's
//! hidden size), one of a few sizes this build knows. Each size has its own
//! compiled accumulator and output code (const-generic over H), chosen once
//! per call through the [`dispatch`] macro, so the hot loops run over
//! arrays of a compile-time length whatever the file says.

use std::fmt;

/// A first-layer width this build reads and writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Width {
    /// 256 neurons per perspective (the shipped networks).
    H256,
    /// 384.
    H384,
    /// 512.
    H512,
    /// 768.
    H768,
}

/// The hidden sizes this build reads, smallest first.
pub const HIDDEN_SIZES: [usize; 4] = [256, 384, 512, 768];

impl Width {
    /// Every width, smallest first (as [`HIDDEN_SIZES`]).
    pub const ALL: [Width; 4] = [Width::H256, Width::H384, Width::H512, Width::H768];

    /// Neurons per perspective.
    #[inline]
    pub const fn hidden(self) -> usize {
        match self {
            Width::H256 => 256,
            Width::H384 => 384,
            Width::H512 => 512,
            Width::H768 => 768,
        }
    }

    /// The width of `hidden` neurons, if this build has it.
    pub fn from_hidden(hidden: usize) -> Option<Width> {
        Width::ALL.into_iter().find(|w| w.hidden() == hidden)
    }
}

impl Default for Width {
    /// The shipped networks' width, 256.
    fn default() -> Self {
        Width::H256
    }
}

impl fmt::Display for Width {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.hidden())
    }
}

/// Runs `$body` with `$x` bound to the payload of whichever width variant
/// (`H256`, `H384`, `H512`, `H768`) of the enum `$enum` `$value` is: one
/// match, each arm compiled for its own H.
macro_rules! dispatch {
    ($enum:ident, $value:expr, $x:ident => $body:expr) => {
        match $value {
            $enum::H256($x) => $body,
            $enum::H384($x) => $body,
            $enum::H512($x) => $body,
            $enum::H768($x) => $body,
        }
    };
}
pub(crate) use dispatch;
