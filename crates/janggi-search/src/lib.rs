//! # janggi-search — the Janggi engine as a library
//!
//! Layers, each depending only on those before it: the rules
//! (`janggi-core`) `→ eval, nnue → search → engine`. Front ends (the
//! protocol loop of the `janggi-engine` binary, the data generator and the
//! trainer of `janggi-tools`) drive an [`engine::Engine`]: it owns the
//! options, the hash table, the network and the search thread; perft,
//! bench and the static evaluation go through it too.
//!
//! ```
//! use janggi_core::{LegalityModel, Position};
//! use janggi_search::perft::perft;
//! let mut pos = Position::startpos();
//! assert_eq!(perft(&mut pos, 2, LegalityModel::Casual), 1024);
//! ```

#![warn(missing_docs)]

pub mod bench;
pub mod engine;
pub mod eval;
pub mod nnue;
pub mod perft;
pub mod search;
