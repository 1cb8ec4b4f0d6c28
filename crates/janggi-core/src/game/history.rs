//! The history-dependent pieces of the rules: the pending bikjang as the
//! game reports it, and the port of Fairy-Stockfish's repetition rule
//! (perpetual check, its move-repetition rule) over a line of positions,
//! which the judge ([`super::judge`]) applies.

use crate::types::{Color, Move, PieceKind, Square};

/// A bikjang (빅장) that was called and waits for its answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PendingBikjang {
    /// The side whose move called it.
    pub called_by: Color,
    /// The ply (1-based) of the calling move.
    pub ply: u32,
}

/// How Fairy-Stockfish judges a repetition, seen from the side to move in
/// the repeated position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RepetitionVerdict {
    /// The side to move wins (the opponent gave perpetual check, or broke
    /// the move-repetition rule).
    SideToMoveWins,
    /// The side to move loses (it gave perpetual check).
    SideToMoveLoses,
    /// Neither: the game is decided by counting (or drawn).
    Neutral,
}

/// A line of positions seen as Fairy-Stockfish's `StateInfo` chain: index
/// 0 is the start, index k the position after the k-th ply. The judge
/// reads its [`Line`](super::judge::Line) (the game's record or the
/// search's frame stack) through it, so both judge repetitions with the
/// one port of Fairy-Stockfish's rule below.
pub(crate) trait PlyChain {
    /// Number of plies (the last index).
    fn plies(&self) -> usize;
    /// Key (board + side to move) of position `k`.
    fn key(&self, k: usize) -> u64;
    /// Whether the side to move in position `k` is in check.
    fn checked(&self, k: usize) -> bool;
    /// The move that led to position `k` (none for the start).
    fn mv(&self, k: usize) -> Option<Move>;
    /// Whether the move into position `k` captured.
    fn captured(&self, k: usize) -> bool;
    /// Kind of the piece moved into position `k` (`None` for a pass or the
    /// start).
    fn moved(&self, k: usize) -> Option<PieceKind>;

    /// Fairy-Stockfish's `Position::is_optional_game_end` n-fold part (with
    /// `ply = 0`, no chasing rule), ported line by line from its
    /// `position.cpp`: the position after the last ply is compared with
    /// those of the same side to move within the last `window` plies
    /// (`min(rule50, pliesFromNull)`); `nfold` occurrences end the game.
    /// With `move_repetition` (`janggimodern`) the Kakao rule applies too.
    fn fsf_repetition(
        &self,
        window: usize,
        nfold: u32,
        move_repetition: bool,
    ) -> Option<RepetitionVerdict> {
        let n = self.plies();
        let end = window.min(n);
        if end < 4 {
            return None;
        }
        let mut stp = n - 2;
        let mut cnt = 0;
        let mut perpetual_them = self.checked(n) && self.checked(stp);
        let mut perpetual_us = self.checked(n - 1) && self.checked(stp - 1);
        // The Janggi move-repetition rule watches a piece that can reach the
        // enemy palace (not the general or a guard) moved back and forth
        // without check.
        let reaches_palace = !matches!(
            self.moved(n),
            None | Some(PieceKind::General | PieceKind::Guard)
        );
        let last_mv = self.mv(n)?;
        let mut move_rep = 0;
        if move_repetition
            && !last_mv.is_pass()
            && !self.checked(n - 1)
            && !self.checked(stp - 1)
            && reaches_palace
        {
            move_rep = if self.mv(stp) == reverse(last_mv) {
                2
            } else if self.mv(stp).is_some_and(Move::is_pass) {
                1
            } else {
                0
            };
        }
        let mut i = 4;
        while i <= end {
            if move_rep > 0 {
                if i < end && self.checked(stp - 3) {
                    move_rep = 0;
                } else if move_rep < 4 {
                    let base = if move_rep == 1 {
                        Some(last_mv)
                    } else {
                        self.mv(stp)
                    };
                    if base.is_some() && self.mv(stp - 2) == base.and_then(reverse) {
                        move_rep += 1;
                    } else {
                        move_rep = 0;
                    }
                } else {
                    // Fairy-Stockfish reads `to_sq(MOVE_NONE)` (square 0) at the start.
                    let before_to = match self.mv(stp - 2) {
                        None => Square::ALL.first().copied(),
                        Some(m) if m.is_pass() => None,
                        Some(m) => Some(m.to()),
                    };
                    let from = self.mv(stp).filter(|m| !m.is_pass()).map(Move::from);
                    if !self.captured(stp - 2) && from.is_some() && from == before_to {
                        return Some(RepetitionVerdict::SideToMoveWins);
                    }
                    move_rep = 0;
                }
            }
            stp -= 2;
            perpetual_them &= self.checked(stp);
            if self.key(stp) == self.key(n) {
                cnt += 1;
                if cnt + 1 >= nfold {
                    return Some(match (perpetual_them, perpetual_us) {
                        (true, false) => RepetitionVerdict::SideToMoveWins,
                        (false, true) => RepetitionVerdict::SideToMoveLoses,
                        _ => RepetitionVerdict::Neutral,
                    });
                }
            }
            if i < end {
                perpetual_us &= self.checked(stp - 1);
            }
            i += 2;
        }
        None
    }
}

/// The move back (`None` for the pass, which Fairy-Stockfish's
/// `reverse_move` turns into no real move).
fn reverse(mv: Move) -> Option<Move> {
    if mv.is_pass() {
        None
    } else {
        Move::new(mv.to(), mv.from())
    }
}
