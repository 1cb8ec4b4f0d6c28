//! # janggi-search — the Janggi engine as a library
//!
//! Layers, each depending only on those before it: the rules
//! (`janggi-core`) `→ eval, nnue → search → engine`. Front ends (the
//! protocol loop of the `janggi-engine` binary, the data generator and the
//! trainer of `janggi-tools`) drive an [`engine::Engine`]: it owns the
//! options, the hash table, the network and the search thread; perft,
//! bench and the static evaluation go through it too.
//!
//! Search the start position to depth 4 and take the answer:
//!
//! ```
//! use janggi_core::Game;
//! use janggi_search::engine::{Engine, Report, Reporter};
//! use janggi_search::search::Limits;
//! use std::sync::{Arc, Mutex};
//!
//! let mut engine = Engine::new();
//! engine.configure(|c| c.hash_mb = 8).unwrap();
//! let answer = Arc::new(Mutex::new(None));
//! let sink = Arc::clone(&answer);
//! let reporter: Reporter = Arc::new(move |_: &Game, r: Report<'_>| {
//!     if let Report::BestMove { best, .. } = r {
//!         *sink.lock().unwrap() = best;
//!     }
//! });
//! let limits = Limits { depth: Some(4), ..Limits::default() };
//! engine.go(limits, false, reporter);
//! engine.wait();
//! let best = answer.lock().unwrap().expect("a legal move");
//! assert!(engine.game().is_legal(best));
//! ```
//!
//! Perft, as a rules check:
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
