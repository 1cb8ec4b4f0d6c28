//! Accumulators: the first layer's sums for both perspectives, kept up to
//! date move by move.
//!
//! The search pushes one entry per move made ([`AccStack::push`]) with only
//! what the move changed (a piece removed from one point and put on
//! another, a captured piece removed; a pass changes nothing). The sums are
//! computed lazily: [`AccStack::evaluate`] walks back to the last computed
//! entry and applies the changes forward, so positions that are never
//! evaluated cost nothing but the push.
//!
//! The code is generic over the network's width H ([`Sums`], and the stack
//! of one width); [`Accumulator`] and [`AccStack`] choose the width of
//! their network once per call.
//!
//! A network with input buckets ([`super::input_bucket`]) has a stack of
//! its own kind ([`BucketLine`]): each entry also records both
//! perspectives' views (bucket and mirror), computed at the push. When a
//! move changes a perspective's view (its own general moved), that
//! perspective's sums are not derived from the parent's: they are computed
//! from scratch from the position when next needed (Stockfish's refresh on
//! a king move), while the other perspective goes on incrementally. A
//! network without input buckets runs the code of the builds before them.

use super::bucket::position_bucket;
use super::input_bucket::{InputBuckets, View};
use super::network::{feature_index, Layers, Network, Weights};
use super::simd::{self, add_row};
use super::width::dispatch;
use janggi_core::{Color, Move, Piece, PieceKind, Position, Square};
use std::sync::Arc;

/// The first-layer sums of one position, per perspective, for a network
/// of width `H`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Sums<const H: usize> {
    /// Indexed by the perspective's colour.
    pub v: [[i16; H]; 2],
}

impl<const H: usize> Sums<H> {
    fn refresh(net: &Weights<H>, pos: &Position) -> Sums<H> {
        let views = net.inputs.views(pos);
        let mut acc = Sums { v: [net.b1; 2] };
        for sq in Square::ALL {
            if let Some(p) = pos.piece_at(sq) {
                for c in Color::BOTH {
                    let row = &net.w1[views[c.index()].index(c, p, sq)].0;
                    add_row(net.simd, &mut acc.v[c.index()], row);
                }
            }
        }
        acc
    }

    /// Perspective `persp`'s sums of `pos` from scratch, seen through
    /// `view` (the view of its general's square in `pos`), into `acc`
    /// (in place: a [`Sums`]' half is aligned for the AVX2 kernels).
    fn refresh_one(net: &Weights<H>, pos: &Position, persp: Color, view: View, acc: &mut [i16; H]) {
        *acc = net.b1;
        for sq in Square::ALL {
            if let Some(p) = pos.piece_at(sq) {
                add_row(net.simd, acc, &net.w1[view.index(persp, p, sq)].0);
            }
        }
    }

    #[inline]
    fn evaluate(&self, net: &Weights<H>, pos: &Position) -> i32 {
        let side = pos.side_to_move();
        net.output(
            position_bucket(pos, net.heads.len()),
            &self.v[side.index()],
            &self.v[(!side).index()],
        )
    }
}

/// The first-layer sums of one position, of a network of any width.
///
/// Not in the search's path (the stack keeps [`Sums`] of its width); a
/// value as large as the widest sums, not boxed, so that making one
/// allocates nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(clippy::large_enum_variant)]
pub enum Accumulator {
    /// Of a 256 network.
    H256(Sums<256>),
    /// Of a 384 network.
    H384(Sums<384>),
    /// Of a 512 network.
    H512(Sums<512>),
    /// Of a 768 network.
    H768(Sums<768>),
}

impl Accumulator {
    /// The sums computed from scratch.
    pub fn refresh(net: &Network, pos: &Position) -> Accumulator {
        match &net.layers {
            Layers::H256(w) => Accumulator::H256(Sums::refresh(w, pos)),
            Layers::H384(w) => Accumulator::H384(Sums::refresh(w, pos)),
            Layers::H512(w) => Accumulator::H512(Sums::refresh(w, pos)),
            Layers::H768(w) => Accumulator::H768(Sums::refresh(w, pos)),
        }
    }

    /// The evaluation in centipawns for the side to move of `pos`, the
    /// position these sums are of (its side to move, and its material for
    /// the output bucket).
    ///
    /// # Panics
    /// If `net` is not of the width these sums were computed for.
    pub fn evaluate(&self, net: &Network, pos: &Position) -> i32 {
        match (self, &net.layers) {
            (Accumulator::H256(a), Layers::H256(w)) => a.evaluate(w, pos),
            (Accumulator::H384(a), Layers::H384(w)) => a.evaluate(w, pos),
            (Accumulator::H512(a), Layers::H512(w)) => a.evaluate(w, pos),
            (Accumulator::H768(a), Layers::H768(w)) => a.evaluate(w, pos),
            _ => panic!("accumulator of another width than the network"),
        }
    }

    /// Neurons per perspective.
    pub fn hidden(&self) -> usize {
        dispatch!(Accumulator, self, a => a.v[0].len())
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

/// Applies `d` to `parent` into `out`, for one perspective of a network
/// without input buckets.
#[inline]
fn apply<const H: usize>(
    net: &Weights<H>,
    persp: Color,
    parent: &[i16; H],
    d: &Delta,
    out: &mut [i16; H],
) {
    apply_rows(
        net.simd,
        |x: (Piece, Square)| &net.w1[feature_index(persp, x.0, x.1)].0,
        parent,
        d,
        out,
    );
}

/// [`apply`] for a perspective reading the first layer through `view`.
#[inline]
fn apply_view<const H: usize>(
    net: &Weights<H>,
    persp: Color,
    view: View,
    parent: &[i16; H],
    d: &Delta,
    out: &mut [i16; H],
) {
    apply_rows(
        net.simd,
        |x: (Piece, Square)| &net.w1[view.index(persp, x.0, x.1)].0,
        parent,
        d,
        out,
    );
}

/// Applies `d` to `parent` into `out` on the kernels of `simd`, `row`
/// giving a piece's first-layer row.
#[inline(always)]
fn apply_rows<'a, const H: usize>(
    simd: simd::Simd,
    row: impl Fn((Piece, Square)) -> &'a [i16; H],
    parent: &[i16; H],
    d: &Delta,
    out: &mut [i16; H],
) {
    match (d.add, d.sub) {
        (Some(a), [Some(s), None]) => simd::add_sub(simd, out, parent, row(a), [row(s)]),
        (Some(a), [Some(s1), Some(s2)]) => {
            simd::add_sub(simd, out, parent, row(a), [row(s1), row(s2)]);
        }
        _ => *out = *parent,
    }
}

#[derive(Clone, Copy, Debug)]
struct Entry<const H: usize> {
    acc: Sums<H>,
    delta: Delta,
    computed: bool,
}

/// The entries of a stack over a network of width `H`.
#[derive(Clone, Debug)]
struct Line<const H: usize> {
    net: Arc<Weights<H>>,
    entries: Vec<Entry<H>>,
}

impl<const H: usize> Line<H> {
    fn new(net: &Arc<Weights<H>>, pos: &Position) -> Line<H> {
        let root = Entry {
            acc: Sums::refresh(net, pos),
            delta: Delta::default(),
            computed: true,
        };
        let mut entries = Vec::with_capacity(256);
        entries.push(root);
        Line {
            net: Arc::clone(net),
            entries,
        }
    }

    /// Records `delta` as entry `top`.
    #[inline]
    fn push(&mut self, top: usize, delta: Delta) {
        if let Some(e) = self.entries.get_mut(top) {
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

    /// Entry `top`'s sums, computing the pending entries below it.
    #[inline]
    fn current(&mut self, top: usize) -> &Sums<H> {
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

    #[inline]
    fn evaluate(&mut self, top: usize, pos: &Position) -> i32 {
        self.current(top);
        self.entries[top].acc.evaluate(&self.net, pos)
    }
}

/// An entry of a [`BucketLine`]: [`Entry`] with both perspectives' views
/// and per-perspective state.
#[derive(Clone, Copy, Debug)]
struct BucketEntry<const H: usize> {
    acc: Sums<H>,
    delta: Delta,
    /// Each perspective's view after this entry's move (by colour).
    views: [View; 2],
    /// Whether `acc.v[c]` holds this entry's sums.
    computed: [bool; 2],
    /// Whether the move changed perspective `c`'s view (its own general
    /// moved): its sums cannot come from the parent's.
    moved: [bool; 2],
}

/// The entries of a stack over a network of width `H` with input buckets.
///
/// Views are computed at the push (from the move alone), sums lazily: a
/// perspective whose sums are wanted walks back to its last computed
/// entry and applies the moves forward, unless a move on the way changed
/// its view, in which case its sums are computed from scratch from the
/// position at hand (the one the wanted entry is of).
#[derive(Clone, Debug)]
struct BucketLine<const H: usize> {
    net: Arc<Weights<H>>,
    entries: Vec<BucketEntry<H>>,
}

impl<const H: usize> BucketLine<H> {
    fn new(net: &Arc<Weights<H>>, pos: &Position) -> BucketLine<H> {
        let root = BucketEntry {
            acc: Sums::refresh(net, pos),
            delta: Delta::default(),
            views: net.inputs.views(pos),
            computed: [true; 2],
            moved: [false; 2],
        };
        let mut entries = Vec::with_capacity(256);
        entries.push(root);
        BucketLine {
            net: Arc::clone(net),
            entries,
        }
    }

    /// Records `delta` as entry `top` (its views from the move alone).
    #[inline]
    fn push(&mut self, top: usize, delta: Delta) {
        let mut views = self.entries[top - 1].views;
        let mut moved = [false; 2];
        if let Some((p, to)) = delta.add {
            if p.kind == PieceKind::General {
                let c = p.color.index();
                views[c] = self.net.inputs.view(p.color, to);
                moved[c] = views[c] != self.entries[top - 1].views[c];
            }
        }
        if let Some(e) = self.entries.get_mut(top) {
            e.delta = delta;
            e.views = views;
            e.computed = [false; 2];
            e.moved = moved;
        } else {
            let acc = self.entries[0].acc;
            self.entries.push(BucketEntry {
                acc,
                delta,
                views,
                computed: [false; 2],
                moved,
            });
        }
    }

    /// Entry `top`'s sums, `pos` being its position.
    #[inline]
    fn current(&mut self, top: usize, pos: &Position) -> &Sums<H> {
        for c in Color::BOTH {
            let ci = c.index();
            let mut first = top;
            while !self.entries[first].computed[ci] && !self.entries[first].moved[ci] {
                first -= 1;
            }
            if !self.entries[first].computed[ci] {
                // The view changed on the way: from scratch, here.
                let e = &mut self.entries[top];
                Sums::refresh_one(&self.net, pos, c, e.views[ci], &mut e.acc.v[ci]);
                e.computed[ci] = true;
                continue;
            }
            for i in first + 1..=top {
                let (done, rest) = self.entries.split_at_mut(i);
                let parent = &done[i - 1].acc.v[ci];
                let e = &mut rest[0];
                apply_view(
                    &self.net,
                    c,
                    e.views[ci],
                    parent,
                    &e.delta,
                    &mut e.acc.v[ci],
                );
                e.computed[ci] = true;
            }
        }
        &self.entries[top].acc
    }

    #[inline]
    fn evaluate(&mut self, top: usize, pos: &Position) -> i32 {
        self.current(top, pos);
        self.entries[top].acc.evaluate(&self.net, pos)
    }
}

/// The lines of each width, without input buckets (`H…`) and with them
/// (`K…`).
#[derive(Clone, Debug)]
enum Lines {
    H256(Line<256>),
    H384(Line<384>),
    H512(Line<512>),
    H768(Line<768>),
    K256(BucketLine<256>),
    K384(BucketLine<384>),
    K512(BucketLine<512>),
    K768(BucketLine<768>),
}

/// Runs `$flat` with `$l` bound to the line of a [`Lines`] without input
/// buckets, `$bucketed` with it bound to one with them.
macro_rules! lines {
    ($value:expr, $l:ident => $flat:expr, $bucketed:expr) => {
        match $value {
            Lines::H256($l) => $flat,
            Lines::H384($l) => $flat,
            Lines::H512($l) => $flat,
            Lines::H768($l) => $flat,
            Lines::K256($l) => $bucketed,
            Lines::K384($l) => $bucketed,
            Lines::K512($l) => $bucketed,
            Lines::K768($l) => $bucketed,
        }
    };
}

/// One accumulator per ply of the current line, for one search thread.
///
/// Entries above `top` are kept allocated and reused, so a push writes only
/// the move's change (the sums are overwritten when computed).
#[derive(Clone, Debug)]
pub struct AccStack {
    lines: Lines,
    top: usize,
}

impl AccStack {
    /// A stack whose root is `pos`.
    pub fn new(net: Arc<Network>, pos: &Position) -> AccStack {
        let bucketed = net.input_buckets() != InputBuckets::None;
        let lines = match (&net.layers, bucketed) {
            (Layers::H256(w), false) => Lines::H256(Line::new(w, pos)),
            (Layers::H384(w), false) => Lines::H384(Line::new(w, pos)),
            (Layers::H512(w), false) => Lines::H512(Line::new(w, pos)),
            (Layers::H768(w), false) => Lines::H768(Line::new(w, pos)),
            (Layers::H256(w), true) => Lines::K256(BucketLine::new(w, pos)),
            (Layers::H384(w), true) => Lines::K384(BucketLine::new(w, pos)),
            (Layers::H512(w), true) => Lines::K512(BucketLine::new(w, pos)),
            (Layers::H768(w), true) => Lines::K768(BucketLine::new(w, pos)),
        };
        AccStack { lines, top: 0 }
    }

    /// Records `mv`, about to be made in `pos`.
    #[inline]
    pub fn push(&mut self, pos: &Position, mv: Move) {
        let delta = Delta::of_move(pos, mv);
        self.top += 1;
        let top = self.top;
        lines!(&mut self.lines, l => l.push(top, delta), l.push(top, delta));
    }

    /// Drops the last move's entry.
    #[inline]
    pub fn pop(&mut self) {
        self.top = self.top.saturating_sub(1);
    }

    /// The current accumulator (a copy), computing the pending entries;
    /// `pos` is the current position (a perspective whose general moved
    /// is computed from it).
    pub fn current(&mut self, pos: &Position) -> Accumulator {
        let top = self.top;
        match &mut self.lines {
            Lines::H256(l) => Accumulator::H256(*l.current(top)),
            Lines::H384(l) => Accumulator::H384(*l.current(top)),
            Lines::H512(l) => Accumulator::H512(*l.current(top)),
            Lines::H768(l) => Accumulator::H768(*l.current(top)),
            Lines::K256(l) => Accumulator::H256(*l.current(top, pos)),
            Lines::K384(l) => Accumulator::H384(*l.current(top, pos)),
            Lines::K512(l) => Accumulator::H512(*l.current(top, pos)),
            Lines::K768(l) => Accumulator::H768(*l.current(top, pos)),
        }
    }

    /// The evaluation of the current position, `pos` (for its side to
    /// move and its output bucket).
    #[inline]
    pub fn evaluate(&mut self, pos: &Position) -> i32 {
        let top = self.top;
        lines!(&mut self.lines, l => l.evaluate(top, pos), l.evaluate(top, pos))
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
