//! Developer tools of the Janggi engine that need the engine itself (the
//! library `janggi`): self-play training data ([`datagen`]) and the network
//! trainer ([`train`]), run by the `janggi-tools` binary. The engine binary
//! does not carry them.

#![warn(missing_docs)]

pub mod datagen;
pub mod train;
