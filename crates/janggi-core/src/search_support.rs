//! Hooks for an engine's search and evaluation: what they use of the rules
//! beyond the crate root's everyday API. Everything here is exact (the
//! perft counts and the engine's `bench` signature rest on it) but more
//! raw than the root's API: the caller keeps the contracts below.
//!
//! **Pseudo-legal generation and the legality shortcut.**
//! [`Position::generate`](crate::Position::generate) and
//! [`generate_from`](crate::Position::generate_from) fill a
//! [`MoveList`](crate::MoveList) with the pseudo-legal moves of a
//! [`GenKind`]: each piece's movement rule, never onto an own piece, never
//! a cannon taking a cannon, but possibly leaving the own general attacked,
//! and without the pass. A move from that list is legal when
//! [`Position::leaves_general_attacked`](crate::Position::leaves_general_attacked)
//! is false; when the side to move is not in check, only the moves that
//! [`Danger::risky`] names (from [`Position::danger`](crate::Position::danger))
//! need that test. [`Position::is_pseudo_legal`](crate::Position::is_pseudo_legal)
//! checks a move from elsewhere (a hash table, a killer slot) before
//! `make`.
//!
//! **Make and unmake.** [`Position::make`](crate::Position::make) pushes a
//! [`State`] (the undo record) and [`Position::unmake`](crate::Position::unmake)
//! pops it; [`Position::history`](crate::Position::history) shows the stack.
//! `make` takes any pseudo-legal move or the pass and does not test
//! legality.
//!
//! **Attack lines and move tables** (for the evaluation). Directions are
//! `0..`[`DIRS`]: four orthogonal, then four palace diagonals.
//! [`first_blocker`], [`chariot_attacks`] and [`cannon_attacks`] look lines
//! up by occupancy; [`PALACE_STEPS`], [`SOLDIER_STEPS`], [`HORSE_JUMPS`]
//! (with each jump's blocking leg), [`ELEPHANT_JUMPS`] (both legs) and
//! [`FILE_MASKS`] are the precomputed steps movegen uses, indexed by
//! [`Square::index`](crate::Square::index) (and colour for soldiers). They
//! describe geometry only: occupancy, own pieces and captures are the
//! caller's.
//!
//! **The judge.** [`judge`] is the per-ply rule decision (the spec's §8.2
//! steps 3–6) that the [`Game`](crate::Game) makes after every move; a
//! search calls it over its own stack of [`Frame`]s (a [`Line`]) to end
//! lines the way the game would: bikjang, repetition, passes, move
//! limits, counting ([`counting_winner`], [`Ending::counting`] with an
//! [`Occasion`]). [`Game::frames`](crate::Game::frames) gives the frames of
//! the game so far, the start of a search's stack. The search finds mates
//! itself and passes [`MateCheck::BeforeRuleEnding`].

pub use crate::board::tables::{
    ElephantJump, ElephantJumps, HorseJump, HorseJumps, SqList, ELEPHANT_JUMPS, FILE_MASKS,
    HORSE_JUMPS, PALACE_STEPS, SOLDIER_STEPS,
};
pub use crate::board::{
    rays::{cannon_attacks, chariot_attacks, first_blocker, DIRS},
    Danger, GenKind, State,
};
pub use crate::game::{
    counting_winner, judge, Decision, Ending, Frame, Line, MateCheck, Occasion, Played,
};
