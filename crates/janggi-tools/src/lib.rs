//! Developer tools of the Janggi engine that need the engine itself (the
//! library `janggi`): self-play training data ([`datagen`]) and the network
//! trainer ([`train`]), the growing, deduplicated training set
//! ([`dataset`]), deeper labels for played positions ([`relabel`]), and
//! opening books for strength rows ([`book`]), run by the `janggi-tools` binary. The engine binary
//! does not carry them.

#![warn(missing_docs)]

pub mod book;
pub mod datagen;
pub mod dataset;
pub mod relabel;
pub mod train;
