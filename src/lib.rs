//! # janggi — a Janggi (Korean chess, 장기) engine
//!
//! Layers, each depending only on those before it:
//! `types → board → game` (the rules, in the `janggi-core` crate, re-exported
//! here) `→ eval, nnue → search → engine → protocol → cli`. The match runner
//! (`janggi-match`) and the developer tools (`janggi-tools`: datagen, train)
//! are crates of their own beside this one; `docs/architecture.md` shows
//! the whole picture.
//!
//! ```
//! use janggi::{perft::perft, LegalityModel, Position};
//! let mut pos = Position::startpos();
//! assert_eq!(perft(&mut pos, 2, LegalityModel::Casual), 1024);
//! ```

#![warn(missing_docs)]

pub mod protocol;

// The engine library (evaluation, network, search, the Engine, perft and
// bench) is the `janggi-search` crate; its modules keep their paths here.
pub use janggi_search::{bench, engine, eval, nnue, perft, search};

// The rules: janggi-core's whole public surface (its crate root, `rng` and
// `search_support`), so that `janggi::Position` and the like keep working.
pub use janggi_core::*;
pub mod cli;
