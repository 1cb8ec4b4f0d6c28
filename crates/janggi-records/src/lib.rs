//! # janggi-records — Janggi game records in and out
//!
//! * [`san`]: Fairy-Stockfish's SAN for Janggi (`Hc3`, `Pab4`), written and
//!   read exactly as Fairy-Stockfish and pychess do;
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod san;
