//! The float model the trainer optimises: the same architecture as
//! [`janggi_search::nnue::Network`] (`(K · 1260 → H) × 2 → B heads`, SCReLU, the
//! head chosen by [`janggi_search::nnue::output_bucket`], the first-layer block
//! by [`janggi_search::nnue::InputBuckets`], H one of
//! [`janggi_search::nnue::HIDDEN_SIZES`]), with forward and backward passes for
//! one position, the quantized export and the warm start from a network
//! ([`Model::from_network`]).
//!
//! With input buckets the first layer is factorized: the K bucket blocks
//! of `INPUTS` rows, one shared block (the unbucketed first layer) whose
//! row every bucket's feature also reads, and the piece-type factorizer;
//! all three fold into the K blocks the engine reads.

use crate::datagen::format::Record;
use janggi_core::{rng::SplitMix64, Color, PieceKind};
use janggi_search::nnue::{output_bucket, InputBuckets, Network, Width, INPUTS, MAX_BUCKETS};
use std::fmt;

/// Offset of the first-layer point rows in the flat parameter vector.
pub const W1: usize = 0;

/// Where the parameter blocks sit, which depends on the width H, the
/// number of output heads B and the input buckets K: `W1 [INPUTS][H]` (the
/// point rows; with input buckets, the shared block), `B1 [H]`, `W2
/// [B][2H]` (per head, the side to move's half first), `B2 [B]`, `FAC
/// [14][H]`, then with input buckets `BKT [K][INPUTS][H]`. Without input
/// buckets, with H = 256 and one head this is the layout of the trainer
/// before output buckets and widths, so its checkpoints read unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The first layer's width.
    pub width: Width,
    /// Output heads (1..=[`MAX_BUCKETS`]).
    pub buckets: usize,
    /// The input-bucket scheme.
    pub inputs: InputBuckets,
    /// How the first layer is kept inside the quantized range.
    pub clip: RowClip,
}

/// How the first layer's parts are kept inside the quantized range ±1.98
/// (the accumulator bound of `janggi_search::nnue::network`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowClip {
    /// Point rows and factorizer each within ±0.99, so their sum is
    /// within ±1.98 (the trainer before input buckets; models without
    /// input buckets trained from scratch).
    Split,
    /// Point (shared) rows and bucket rows within ±1.98, the factorizer
    /// within ±0.99, and every folded weight (their sum) clamped to ±1.98,
    /// in training as in the export, so that the float model computes with
    /// the weights the network gets (models with input buckets, and any
    /// model started from a network, whose first layer reaches ±1.98).
    Sum,
}

impl RowClip {
    /// The checkpoint's code.
    pub fn code(self) -> u64 {
        match self {
            RowClip::Split => 0,
            RowClip::Sum => 1,
        }
    }

    /// The clip of a checkpoint's code.
    pub fn from_code(code: u64) -> Option<RowClip> {
        [RowClip::Split, RowClip::Sum]
            .into_iter()
            .find(|c| c.code() == code)
    }
}

/// The first layer's clip range.
pub const W1_LIMIT: f32 = 1.98;

impl Layout {
    /// The layout of a model of `width` with `buckets` heads (clamped to
    /// 1..=[`MAX_BUCKETS`]), without input buckets.
    pub fn new(width: Width, buckets: usize) -> Layout {
        Layout::with_inputs(width, buckets, InputBuckets::None)
    }

    /// [`Layout::new`] with the input buckets of `inputs` (the clip
    /// [`RowClip::Sum`] with them, [`RowClip::Split`] without).
    pub fn with_inputs(width: Width, buckets: usize, inputs: InputBuckets) -> Layout {
        Layout {
            width,
            buckets: buckets.clamp(1, MAX_BUCKETS),
            inputs,
            clip: if inputs == InputBuckets::None {
                RowClip::Split
            } else {
                RowClip::Sum
            },
        }
    }

    /// Whether the model has input buckets (a `BKT` block).
    #[inline]
    pub fn bucketed(self) -> bool {
        self.inputs != InputBuckets::None
    }

    /// Rows of the folded first layer (K · INPUTS), the features a
    /// sample's indices run over.
    #[inline]
    pub fn rows(self) -> usize {
        self.inputs.count() * INPUTS
    }

    /// The bucket rows (the end of the factorizer).
    #[inline]
    pub fn bkt(self) -> usize {
        self.fac() + 14 * self.h()
    }

    /// Where the gradient of folded row `r` accumulates: the point rows
    /// without input buckets, the bucket rows with them.
    #[inline]
    pub fn grad_rows(self) -> usize {
        if self.bucketed() {
            self.bkt()
        } else {
            W1
        }
    }

    /// Neurons per perspective, H.
    #[inline]
    pub fn h(self) -> usize {
        self.width.hidden()
    }

    /// First-layer biases (the end of the point rows).
    #[inline]
    pub fn b1(self) -> usize {
        INPUTS * self.h()
    }

    /// Output biases, one per head.
    #[inline]
    pub fn b2(self) -> usize {
        self.w2(self.buckets)
    }

    /// Head `bucket`'s output weights (`w2(0)`: the start of the block).
    #[inline]
    pub fn w2(self, bucket: usize) -> usize {
        self.b1() + self.h() + bucket * 2 * self.h()
    }

    /// The factorizer: one first-layer row per piece type (own/enemy ×
    /// kind), added to every point's row of that type. It learns what a
    /// piece is worth wherever it stands from all of its positions at once,
    /// which the 90 point rows alone learn slowly from little data. Folded
    /// into the point rows on export, so the engine never sees it.
    #[inline]
    pub fn fac(self) -> usize {
        self.b2() + self.buckets
    }

    /// Number of parameters.
    #[inline]
    pub fn len(self) -> usize {
        self.bkt()
            + if self.bucketed() {
                self.rows() * self.h()
            } else {
                0
            }
    }

    /// Never empty.
    pub fn is_empty(self) -> bool {
        false
    }
}

/// The most pieces a position has.
pub const MAX_PIECES: usize = 32;

/// One training example, decoded from a [`Record`].
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// Active features from the side to move's view, then the other's
    /// (rows of the folded first layer: with input buckets, bucket
    /// `k`'s feature `f` is `k · INPUTS + f`).
    pub feats: [[u16; MAX_PIECES]; 2],
    /// Number of active features.
    pub len: usize,
    /// Target: expected score for the side to move, in 0..1.
    pub target: f32,
    /// Pieces on the board other than the generals (the output bucket's
    /// input, [`output_bucket`]).
    pub pieces: u8,
}

/// How a record becomes a target.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Target {
    /// Weight of the game result (the rest is the search score).
    pub blend: f32,
    /// Centipawns per logistic unit: the score's win probability is
    /// `sigmoid(score / scale)`.
    pub scale: f32,
}

/// The logistic function.
#[inline]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

impl Sample {
    /// The example for `r`.
    pub fn new(r: &Record, t: Target) -> Sample {
        Sample::with_mirror(r, t, false)
    }

    /// The example for `r`, or for its left-right mirror image (the rules
    /// are symmetric under it, so the mirror has the same target).
    pub fn with_mirror(r: &Record, t: Target, mirror: bool) -> Sample {
        Sample::with_inputs(r, t, InputBuckets::None, mirror)
    }

    /// [`Sample::with_mirror`] for a model with the input buckets of
    /// `inputs`: each perspective's features in the block of its own
    /// general's point (of the mirror image's point, for the mirror image:
    /// it is just another position).
    pub fn with_inputs(r: &Record, t: Target, inputs: InputBuckets, mirror: bool) -> Sample {
        let flip = |sq: janggi_core::Square| if mirror { sq.flip_file() } else { sq };
        let mut generals = [janggi_core::Square::default(); 2];
        for (p, sq) in r.piece_squares() {
            if p.kind == PieceKind::General {
                generals[p.color.index()] = flip(sq);
            }
        }
        let view = |c: Color| inputs.view(c, generals[c.index()]);
        let mut feats = [[0u16; MAX_PIECES]; 2];
        let mut len = 0;
        let mut pieces = 0u8;
        let us = r.side;
        let views = [view(us), view(!us)];
        for (p, sq) in r.piece_squares().take(MAX_PIECES) {
            let sq = flip(sq);
            feats[0][len] = views[0].index(us, p, sq) as u16;
            feats[1][len] = views[1].index(!us, p, sq) as u16;
            len += 1;
            pieces += u8::from(p.kind != PieceKind::General);
        }
        let result = r.result.score_for(us);
        let score = sigmoid(f32::from(r.score) / t.scale);
        Sample {
            feats,
            len,
            target: t.blend * result + (1.0 - t.blend) * score,
            pieces,
        }
    }
}

/// The left-right mirror of every feature (`f` of a piece on a point ↦
/// the feature of the same piece on the mirrored point): the features of
/// [`Sample::with_mirror`]`(r, t, true)` are those of `Sample::new(r, t)`
/// through this table, in the same order. No input buckets
/// ([`mirror_table_for`]).
pub fn mirror_table() -> Vec<u16> {
    mirror_table_for(InputBuckets::None)
}

/// [`mirror_table`] over the K · INPUTS features of `inputs`: the
/// features of [`Sample::with_inputs`]`(r, t, inputs, true)` are those of
/// `Sample::with_inputs(r, t, inputs, false)` through it. A perspective
/// whose general stands on point `g` (view `v`) has it on `g`'s mirror
/// image in the mirrored position (view `v'`): its feature of bucket `v`
/// on seen square `s` becomes bucket `v'`'s feature on `s` mirrored once
/// for the position and once for each of the two views that mirrors. So
/// under `palace9` the bucket's file mirrors; under `palace6` a side-file
/// bucket's features map to themselves (the mirror is built in) and only
/// the centre file's mirror.
pub fn mirror_table_for(inputs: InputBuckets) -> Vec<u16> {
    let mut table: Vec<u16> = (0..inputs.count() * INPUTS).map(|f| f as u16).collect();
    for file in 3..6u8 {
        for rank in 0..3u8 {
            let Some(g) = janggi_core::Square::new(file, rank) else {
                continue;
            };
            let (v, m) = (
                inputs.view(Color::Cho, g),
                inputs.view(Color::Cho, g.flip_file()),
            );
            let flips = 1 + usize::from(v.mirrored()) + usize::from(m.mirrored());
            for t in 0..INPUTS / 90 {
                for sq in janggi_core::Square::ALL {
                    let seen = if flips % 2 == 1 { sq.flip_file() } else { sq };
                    table[v.bucket() * INPUTS + t * 90 + sq.index()] =
                        (m.bucket() * INPUTS + t * 90 + seen.index()) as u16;
                }
            }
        }
    }
    table
}

impl Sample {
    /// This sample's left-right mirror image (`table` from [`mirror_table`]).
    #[inline]
    pub fn mirrored(&self, table: &[u16]) -> Sample {
        let mut m = *self;
        for side in &mut m.feats {
            for f in &mut side[..self.len] {
                *f = table[usize::from(*f)];
            }
        }
        m
    }
}

/// Adds to the factorizer's gradient the point-row gradients of its piece
/// type (the gradient [`Model::backward_folded`] leaves out; linear, so it
/// can run once on a summed gradient). With input buckets, first adds to
/// each shared row the gradients of that feature's bucket rows.
pub fn add_factorizer_grad(grad: &mut [f32], layout: Layout) {
    let (h, b1) = (layout.h(), layout.b1());
    if layout.bucketed() {
        let (shared, rest) = grad.split_at_mut(b1);
        let bkt = &rest[layout.bkt() - b1..];
        for block in bkt.chunks_exact(INPUTS * h) {
            for (g, &d) in shared.iter_mut().zip(block) {
                *g += d;
            }
        }
    }
    let (rows, rest) = grad.split_at_mut(b1);
    let fac = &mut rest[layout.fac() - b1..];
    for (f, row) in rows.chunks_exact(h).enumerate() {
        let t = f / 90;
        for (g, &d) in fac[t * h..(t + 1) * h].iter_mut().zip(row) {
            *g += d;
        }
    }
}

/// Scratch space for one forward/backward pass (allocated once per
/// worker, for one width).
#[derive(Clone, Debug)]
pub struct Scratch {
    acc: [Vec<f32>; 2],
    dacc: Vec<f32>,
}

impl Scratch {
    /// Scratch space for a model of `layout`.
    pub fn new(layout: Layout) -> Scratch {
        let h = layout.h();
        Scratch {
            acc: [vec![0.0; h], vec![0.0; h]],
            dacc: vec![0.0; h],
        }
    }
}

/// The model's parameters, flat, as [`Layout`] places them.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// All parameters.
    pub p: Vec<f32>,
    /// Where they sit.
    pub layout: Layout,
}

impl Model {
    /// A randomly initialised one-head model of width 256.
    pub fn new(seed: u64) -> Model {
        Model::with_buckets(seed, 1)
    }

    /// A randomly initialised model of width 256 with `buckets` output
    /// heads (clamped to 1..=[`MAX_BUCKETS`]).
    pub fn with_buckets(seed: u64, buckets: usize) -> Model {
        Model::with_layout(seed, Layout::new(Width::H256, buckets))
    }

    /// A randomly initialised model of `layout`: first-layer weights
    /// (with input buckets, the shared rows) uniform in ±0.1, every head's
    /// output weights uniform in ±1/sqrt(2H), drawn head after head (one
    /// head draws the numbers of [`Model::new`]), biases, the factorizer
    /// and the bucket rows zero (so a fresh bucketed model evaluates as
    /// the fresh model without input buckets of the same seed).
    pub fn with_layout(seed: u64, layout: Layout) -> Model {
        let (h, b1) = (layout.h(), layout.b1());
        let mut rng = SplitMix64::new(seed);
        let mut uniform = |r: f32| {
            let u = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
            (2.0 * u - 1.0) * r
        };
        let mut p = vec![0.0; layout.len()];
        for x in &mut p[W1..b1] {
            *x = uniform(0.1);
        }
        let r2 = 1.0 / (2.0 * h as f32).sqrt();
        for x in &mut p[layout.w2(0)..layout.b2()] {
            *x = uniform(r2);
        }
        Model { p, layout }
    }

    /// The output head of `s`.
    #[inline]
    pub fn bucket(&self, s: &Sample) -> usize {
        output_bucket(u32::from(s.pieces), self.layout.buckets)
    }

    /// Keeps the weights inside the quantized ranges ([`RowClip`]: the
    /// factorizer and the point rows each within half the range, so that
    /// their sum fits; or the rows within the range, their folded sum
    /// clamped to it).
    pub fn clip(&mut self) {
        let (b1, w2) = (self.layout.b1(), self.layout.w2(0));
        let rows = match self.layout.clip {
            RowClip::Split => 0.99,
            RowClip::Sum => W1_LIMIT,
        };
        for x in &mut self.p[W1..b1] {
            *x = x.clamp(-rows, rows);
        }
        let (b2, fac, bkt) = (self.layout.b2(), self.layout.fac(), self.layout.bkt());
        for x in &mut self.p[fac..bkt] {
            *x = x.clamp(-0.99, 0.99);
        }
        for x in &mut self.p[bkt..] {
            *x = x.clamp(-W1_LIMIT, W1_LIMIT);
        }
        for x in &mut self.p[b1..w2] {
            *x = x.clamp(-1.98, 1.98);
        }
        // Every head within the range of one (module docs of
        // janggi_search::nnue::network: a head's sum stays within i32).
        for x in &mut self.p[w2..b2] {
            *x = x.clamp(-0.99, 0.99);
        }
    }

    /// The first-layer point rows with the factorizer folded in.
    pub fn folded_w1(&self) -> Vec<f32> {
        let mut w = Vec::new();
        self.fold_w1_into(&mut w);
        w
    }

    /// [`Model::folded_w1`] into `out` (reused between optimiser steps):
    /// `K · INPUTS` rows, row `k · INPUTS + f` = `(point + factorizer) +
    /// bucket k`'s row (the bucket term with input buckets only), clamped
    /// to ±1.98 under [`RowClip::Sum`].
    pub fn fold_w1_into(&self, out: &mut Vec<f32>) {
        let (h, fac) = (self.layout.h(), self.layout.fac());
        out.clear();
        out.extend_from_slice(&self.p[W1..self.layout.b1()]);
        for (f, row) in out.chunks_exact_mut(h).enumerate() {
            let t = f / 90;
            for (x, &v) in row.iter_mut().zip(&self.p[fac + t * h..fac + (t + 1) * h]) {
                *x += v;
            }
        }
        if self.layout.bucketed() {
            let shared = INPUTS * h;
            let bkt = &self.p[self.layout.bkt()..];
            out.reserve(bkt.len() - shared);
            for _ in 1..self.layout.inputs.count() {
                out.extend_from_within(0..shared);
            }
            for (x, &b) in out.iter_mut().zip(bkt) {
                *x += b;
            }
        }
        if self.layout.clip == RowClip::Sum {
            for x in out.iter_mut() {
                *x = x.clamp(-W1_LIMIT, W1_LIMIT);
            }
        }
    }

    /// The folded first-layer weight of row `r` (of `K · INPUTS`), neuron
    /// `j`, as [`Model::fold_w1_into`] computes it.
    #[inline]
    fn folded_weight(&self, r: usize, j: usize) -> f32 {
        let h = self.layout.h();
        let f = r % INPUTS;
        let t = f / 90;
        let mut w = self.p[W1 + f * h + j] + self.p[self.layout.fac() + t * h + j];
        if self.layout.bucketed() {
            w += self.p[self.layout.bkt() + r * h + j];
        }
        match self.layout.clip {
            RowClip::Split => w,
            RowClip::Sum => w.clamp(-W1_LIMIT, W1_LIMIT),
        }
    }

    /// [`Model::forward`] with the factorizer already folded into the
    /// point rows (`w1f` from [`Model::fold_w1_into`]): one row read per
    /// feature instead of two, the same sums (`w + v` is formed first in
    /// both), so the same output bit for bit.
    #[inline]
    pub fn forward_folded(&self, w1f: &[f32], s: &Sample, scratch: &mut Scratch) -> f32 {
        let h = self.layout.h();
        let b1 = &self.p[self.layout.b1()..self.layout.w2(0)];
        for (side, acc) in scratch.acc.iter_mut().enumerate() {
            acc.copy_from_slice(b1);
            for &f in &s.feats[side][..s.len] {
                let f = usize::from(f);
                for (a, &w) in acc.iter_mut().zip(&w1f[f * h..(f + 1) * h]) {
                    *a += w;
                }
            }
        }
        self.output(self.bucket(s), scratch)
    }

    /// Head `bucket` on the accumulators in `scratch`.
    #[inline]
    fn output(&self, bucket: usize, scratch: &Scratch) -> f32 {
        let h = self.layout.h();
        let mut out = self.p[self.layout.b2() + bucket];
        let w2 = self.layout.w2(bucket);
        for (side, acc) in scratch.acc.iter().enumerate() {
            let w2 = &self.p[w2 + side * h..w2 + (side + 1) * h];
            for (&a, &w) in acc.iter().zip(w2) {
                let c = a.clamp(0.0, 1.0);
                out += c * c * w;
            }
        }
        out
    }

    /// The gradient of the plain pass (`Model::backward`, kept for the tests)
    /// on folded rows (`w1f`), leaving the factorizer's gradient out: the factorizer row of a piece type gets the sum of the
    /// point-row gradients of that type, which [`add_factorizer_grad`] adds
    /// once per optimiser step instead of once per feature and sample.
    #[inline]
    pub fn backward_folded(
        &self,
        w1f: &[f32],
        s: &Sample,
        scratch: &mut Scratch,
        grad: &mut [f32],
    ) -> f32 {
        let out = self.forward_folded(w1f, s, scratch);
        let p = sigmoid(out);
        let err = p - s.target;
        let dout = 2.0 * err * p * (1.0 - p);
        let bucket = self.bucket(s);
        grad[self.layout.b2() + bucket] += dout;
        let head = self.layout.w2(bucket);
        let rows = self.layout.grad_rows();
        for side in 0..2 {
            self.head_grad(head, side, dout, scratch, grad);
            let dacc = &scratch.dacc;
            let h = dacc.len();
            for &f in &s.feats[side][..s.len] {
                let f = usize::from(f);
                let row = &mut grad[rows + f * h..rows + (f + 1) * h];
                for (g, &d) in row.iter_mut().zip(dacc) {
                    *g += d;
                }
            }
        }
        err * err
    }

    /// Adds the gradient of side `side`'s half of head `head` (its offset)
    /// and of the first-layer biases to `grad`, for an output gradient of
    /// `dout`, leaving the gradient of that side's accumulator in
    /// `scratch.dacc`.
    #[inline]
    fn head_grad(
        &self,
        head: usize,
        side: usize,
        dout: f32,
        scratch: &mut Scratch,
        grad: &mut [f32],
    ) {
        let h = self.layout.h();
        let acc = &scratch.acc[side];
        let w2 = &self.p[head + side * h..head + (side + 1) * h];
        let dacc = &mut scratch.dacc;
        {
            let gw2 = &mut grad[head + side * h..head + (side + 1) * h];
            for (((&a, &w), g), d) in acc.iter().zip(w2).zip(gw2).zip(dacc.iter_mut()) {
                let c = a.clamp(0.0, 1.0);
                *g += dout * c * c;
                *d = if a > 0.0 && a < 1.0 {
                    dout * w * 2.0 * a
                } else {
                    0.0
                };
            }
        }
        let (b1, w2) = (self.layout.b1(), self.layout.w2(0));
        for (g, &d) in grad[b1..w2].iter_mut().zip(dacc.iter()) {
            *g += d;
        }
    }

    /// The output (logit) for `s`, leaving the accumulators in `scratch`.
    #[inline]
    pub fn forward(&self, s: &Sample, scratch: &mut Scratch) -> f32 {
        let h = self.layout.h();
        let b1 = &self.p[self.layout.b1()..self.layout.w2(0)];
        let fac = self.layout.fac();
        for (side, acc) in scratch.acc.iter_mut().enumerate() {
            acc.copy_from_slice(b1);
            for &f in &s.feats[side][..s.len] {
                let f = usize::from(f);
                if self.layout.bucketed() || self.layout.clip == RowClip::Sum {
                    for (j, a) in acc.iter_mut().enumerate() {
                        *a += self.folded_weight(f, j);
                    }
                    continue;
                }
                let row = &self.p[W1 + f * h..W1 + (f + 1) * h];
                let t = f / 90;
                let fac = &self.p[fac + t * h..fac + (t + 1) * h];
                for ((a, &w), &v) in acc.iter_mut().zip(row).zip(fac) {
                    *a += w + v;
                }
            }
        }
        let bucket = self.bucket(s);
        let mut out = self.p[self.layout.b2() + bucket];
        let head = self.layout.w2(bucket);
        for (side, acc) in scratch.acc.iter().enumerate() {
            let w2 = &self.p[head + side * h..head + (side + 1) * h];
            for (&a, &w) in acc.iter().zip(w2) {
                let c = a.clamp(0.0, 1.0);
                out += c * c * w;
            }
        }
        out
    }

    /// Adds the gradient of `(sigmoid(out) − target)²` for `s` to `grad`;
    /// returns the loss. The plain, unfolded pass: training runs
    /// [`Model::backward_folded`]; this one stays as the test's independent
    /// reference for it (`folded_passes_agree_with_the_plain_ones`).
    #[cfg(test)]
    pub fn backward(&self, s: &Sample, scratch: &mut Scratch, grad: &mut [f32]) -> f32 {
        let out = self.forward(s, scratch);
        let p = sigmoid(out);
        let err = p - s.target;
        let dout = 2.0 * err * p * (1.0 - p);
        let bucket = self.bucket(s);
        grad[self.layout.b2() + bucket] += dout;
        let head = self.layout.w2(bucket);
        let h = self.layout.h();
        for side in 0..2 {
            // d/d acc, with the output-weight gradient.
            self.head_grad(head, side, dout, scratch, grad);
            let dacc = &scratch.dacc;
            for &f in &s.feats[side][..s.len] {
                let f = usize::from(f);
                if self.layout.bucketed() {
                    // The bucket row, then the shared row of its feature
                    // (straight through the clamp).
                    let bkt = self.layout.bkt();
                    let row = &mut grad[bkt + f * h..bkt + (f + 1) * h];
                    for (g, &d) in row.iter_mut().zip(dacc) {
                        *g += d;
                    }
                }
                let f = f % INPUTS;
                let row = &mut grad[W1 + f * h..W1 + (f + 1) * h];
                for (g, &d) in row.iter_mut().zip(dacc) {
                    *g += d;
                }
                let t = f / 90;
                let fac = self.layout.fac();
                let fac = &mut grad[fac + t * h..fac + (t + 1) * h];
                for (g, &d) in fac.iter_mut().zip(dacc) {
                    *g += d;
                }
            }
        }
        err * err
    }

    /// The model's evaluation of `r`'s position in centipawns for the side
    /// to move (`scale` centipawns per logistic unit).
    pub fn eval_cp(&self, r: &Record, scale: f32) -> f32 {
        let t = Target {
            blend: 0.0,
            scale: 1.0,
        };
        let s = Sample::with_inputs(r, t, self.layout.inputs, false);
        self.forward(&s, &mut Scratch::new(self.layout)) * scale
    }

    /// The quantized network (of the model's width and input buckets, one
    /// head per bucket; a one-head model without input buckets gives a
    /// version-1 file, [`Network::to_bytes`]).
    pub fn quantize(&self, eval_scale: u32) -> Network {
        let l = self.layout;
        let (b1, w2, b2, fac) = (l.b1(), l.w2(0), l.b2(), l.fac());
        Network::quantize_with(
            l.width,
            l.inputs,
            &self.folded_w1(),
            &self.p[b1..w2],
            &self.p[w2..b2],
            &self.p[b2..fac],
            eval_scale,
        )
    }

    /// A model of `layout` that evaluates as `net` (up to its
    /// quantization): the warm start of `janggi-tools train --init-from`.
    /// `net`'s weights, dequantized ([`Network::dequantize`]), go where
    /// they act the same: a network without input buckets into the point
    /// rows (with input buckets, the shared rows; the bucket rows start at
    /// zero), one with `layout`'s input buckets into the bucket rows (the
    /// shared rows zero); the factorizer starts at zero. The clip becomes
    /// [`RowClip::Sum`], which holds the network's first layer as it is.
    ///
    /// Two shapes grow from a smaller network and still evaluate as it:
    /// - **a wider first layer** (`layout`'s width above `net`'s): the
    ///   network's neurons are the first ones; each new neuron's point-row
    ///   weights are drawn as [`Model::with_layout`] draws them (uniform in
    ///   ±0.1, from `seed`) and its output weights are zero, so it adds
    ///   nothing until training gives it a weight (its activation is not
    ///   zero, so the output weight's gradient is not either);
    /// - **output buckets** from a one-head network: every head starts as
    ///   the network's head.
    ///
    /// # Errors
    /// A network wider than `layout`, with another number of heads (other
    /// than one), or other input buckets (other than none).
    pub fn from_network(net: &Network, layout: Layout, seed: u64) -> Result<Model, InitMismatch> {
        let f = net.dequantize();
        let mismatch = |field, network: String, model: String| InitMismatch {
            field,
            network,
            model,
        };
        if f.width.hidden() > layout.width.hidden() {
            return Err(mismatch(
                "hidden size",
                f.width.to_string(),
                layout.width.to_string(),
            ));
        }
        let heads = f.b2.len();
        if heads != layout.buckets && heads != 1 {
            return Err(mismatch(
                "output buckets",
                heads.to_string(),
                layout.buckets.to_string(),
            ));
        }
        let to = match f.inputs {
            InputBuckets::None => W1,
            s if s == layout.inputs => layout.bkt(),
            s => {
                return Err(mismatch(
                    "input buckets",
                    s.to_string(),
                    layout.inputs.to_string(),
                ))
            }
        };
        let layout = Layout {
            clip: RowClip::Sum,
            ..layout
        };
        let (hn, ho) = (layout.h(), f.width.hidden());
        let mut p = vec![0.0; layout.len()];
        if hn > ho {
            // The new neurons' point rows, drawn as a fresh model's.
            let fresh = Model::with_layout(seed, layout);
            for row in 0..INPUTS {
                let r = W1 + row * hn;
                p[r + ho..r + hn].copy_from_slice(&fresh.p[r + ho..r + hn]);
            }
        }
        for (row, w) in f.w1.chunks_exact(ho).enumerate() {
            let r = to + row * hn;
            p[r..r + ho].copy_from_slice(w);
        }
        let b1 = layout.b1();
        p[b1..b1 + ho].copy_from_slice(&f.b1);
        for bucket in 0..layout.buckets {
            let from = if heads == 1 { 0 } else { bucket };
            let head = &f.w2[from * 2 * ho..(from + 1) * 2 * ho];
            for (side, w) in head.chunks_exact(ho).enumerate() {
                let r = layout.w2(bucket) + side * hn;
                p[r..r + ho].copy_from_slice(w);
            }
            p[layout.b2() + bucket] = f.b2[from];
        }
        let mut model = Model { p, layout };
        model.clip();
        Ok(model)
    }
}

/// Why a network cannot start a model ([`Model::from_network`]): a size
/// that differs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InitMismatch {
    /// What differs.
    pub field: &'static str,
    /// The network's value.
    pub network: String,
    /// The model's.
    pub model: String,
}

impl fmt::Display for InitMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the network's {} is {}, the model's {}",
            self.field, self.network, self.model
        )
    }
}
