//! Accumulators: the first layer's sums for both perspectives, kept up to
//! date move by move.
//!
//! The search pushes one entry per move made ([`AccStack::push`]) with only
//! what the move changed (a piece removed from one point and put on
//! another, a captured piece removed; a pass changes nothing). The sums are
//! computed lazily: [`AccStack::evaluate`] walks back to the last computed
//! entry and applies the changes forward, so positions that are never
//! evaluated cost nothing but the push.

use super::bucket::position_bucket;
use super::network::{feature_index, Network, HIDDEN};
use crate::board::Position;
use crate::types::{Color, Move, Piece, Square};
use std::sync::Arc;

/// The first-layer sums of one position, per perspective.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Accumulator {
    /// Indexed by the perspective's colour.
    pub v: [[i16; HIDDEN]; 2],
}

impl Accumulator {
    /// The sums computed from scratch.
    pub fn refresh(net: &Network, pos: &Position) -> Accumulator {
        let mut acc = Accumulator { v: [net.b1; 2] };
        for sq in Square::ALL {
            if let Some(p) = pos.piece_at(sq) {
                for c in Color::BOTH {
                    add_row(&mut acc.v[c.index()], &net.w1[feature_index(c, p, sq)]);
                }
            }
        }
        acc
    }

    /// The evaluation in centipawns for the side to move of `pos`, the
    /// position these sums are of (its side to move, and its material for
    /// the output bucket).
    #[inline]
    pub fn evaluate(&self, net: &Network, pos: &Position) -> i32 {
        let side = pos.side_to_move();
        net.output(
            position_bucket(pos, net.buckets()),
            &self.v[side.index()],
            &self.v[(!side).index()],
        )
    }
}

#[inline]
fn add_row(acc: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (a, &r) in acc.iter_mut().zip(row.iter()) {
        *a = a.wrapping_add(r);
    }
}

/// What one move changed: at most one piece put down and two taken away.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Delta {
    add: Option<(Piece, Square)>,
    sub: [Option<(Piece, Square)>; 2],
}

impl Delta {
    /// The change `mv` makes in `pos` (before it is made).
    #[inline]
    pub fn of_move(pos: &Position, mv: Move) -> Delta {
        if mv.is_pass() {
            return Delta::default();
        }
        let (from, to) = (mv.from(), mv.to());
        let Some(p) = pos.piece_at(from) else {
            return Delta::default();
        };
        Delta {
            add: Some((p, to)),
            sub: [Some((p, from)), pos.piece_at(to).map(|c| (c, to))],
        }
    }
}

/// Applies `d` to `parent` into `out`, for one perspective.
#[inline]
fn apply(net: &Network, persp: Color, parent: &[i16; HIDDEN], d: &Delta, out: &mut [i16; HIDDEN]) {
    let row = |x: (Piece, Square)| &net.w1[feature_index(persp, x.0, x.1)];
    match (d.add, d.sub) {
        (Some(a), [Some(s), None]) => {
            let (ra, rs) = (row(a), row(s));
            for i in 0..HIDDEN {
                out[i] = parent[i].wrapping_add(ra[i]).wrapping_sub(rs[i]);
            }
        }
        (Some(a), [Some(s1), Some(s2)]) => {
            let (ra, r1, r2) = (row(a), row(s1), row(s2));
            for i in 0..HIDDEN {
                out[i] = parent[i]
                    .wrapping_add(ra[i])
                    .wrapping_sub(r1[i])
                    .wrapping_sub(r2[i]);
            }
        }
        _ => *out = *parent,
    }
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    acc: Accumulator,
    delta: Delta,
    computed: bool,
}

/// One accumulator per ply of the current line, for one search thread.
///
/// Entries above `top` are kept allocated and reused, so a push writes only
/// the move's change (the sums are overwritten when computed).
#[derive(Clone, Debug)]
pub struct AccStack {
    net: Arc<Network>,
    entries: Vec<Entry>,
    top: usize,
}

impl AccStack {
    /// A stack whose root is `pos`.
    pub fn new(net: Arc<Network>, pos: &Position) -> AccStack {
        let root = Entry {
            acc: Accumulator::refresh(&net, pos),
            delta: Delta::default(),
            computed: true,
        };
        let mut entries = Vec::with_capacity(256);
        entries.push(root);
        AccStack {
            net,
            entries,
            top: 0,
        }
    }

    /// Records `mv`, about to be made in `pos`.
    #[inline]
    pub fn push(&mut self, pos: &Position, mv: Move) {
        let delta = Delta::of_move(pos, mv);
        self.top += 1;
        if let Some(e) = self.entries.get_mut(self.top) {
            e.delta = delta;
            e.computed = false;
        } else {
            let acc = self.entries[0].acc;
            self.entries.push(Entry {
                acc,
                delta,
                computed: false,
            });
        }
    }

    /// Drops the last move's entry.
    #[inline]
    pub fn pop(&mut self) {
        self.top = self.top.saturating_sub(1);
    }

    /// The current accumulator, computing the pending entries.
    #[inline]
    pub fn current(&mut self) -> &Accumulator {
        let top = self.top;
        let mut first = top;
        while first > 0 && !self.entries[first].computed {
            first -= 1;
        }
        for i in first + 1..=top {
            let (done, rest) = self.entries.split_at_mut(i);
            let parent = &done[i - 1].acc;
            let e = &mut rest[0];
            for c in Color::BOTH {
                apply(
                    &self.net,
                    c,
                    &parent.v[c.index()],
                    &e.delta,
                    &mut e.acc.v[c.index()],
                );
            }
            e.computed = true;
        }
        &self.entries[top].acc
    }

    /// The evaluation of the current position, `pos` (for its side to
    /// move and its output bucket).
    #[inline]
    pub fn evaluate(&mut self, pos: &Position) -> i32 {
        self.current();
        self.entries[self.top].acc.evaluate(&self.net, pos)
    }

    /// Number of entries on the current line (the root counts one).
    pub fn len(&self) -> usize {
        self.top + 1
    }

    /// Never empty: the root stays.
    pub fn is_empty(&self) -> bool {
        false
    }
}
