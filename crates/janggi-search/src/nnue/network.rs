//! The quantized network: file format, loading with typed errors, and the
//! output layer.
//!
//! # Architecture
//!
//! `(K · 1260 → H) × 2 → B heads → 1`: each perspective (the side to
//! move's and the other's) sums the first-layer columns of its active
//! features ([`feature_index`]; with K > 1 input buckets, in the block of
//! its own general's palace point, [`super::input_bucket`]) into an
//! accumulator of `H` values; the two
//! accumulators, side to move first, go through SCReLU (`clamp(x, 0, 1)²`)
//! into one of `B` linear outputs, the head of the position's material
//! bucket ([`super::bucket::output_bucket`], 1 ≤ B ≤
//! [`MAX_BUCKETS`]; a one-bucket network has a single head for every
//! position). The output `o` predicts the side to move's expected score as
//! `sigmoid(o)`; the engine's centipawns are `o · eval_scale`.
//!
//! # Quantization
//!
//! First layer (weights and biases) `round(w · QA)` as i16, `QA = 255`, so
//! an accumulator value of `QA` is 1.0. Output weights `round(w · QB)` as
//! i16, `QB = 64`, the output biases `round(b · QA · QB)` as i32. The
//! trainer clips first-layer weights to ±1.98 (with input buckets, each
//! folded weight: shared + piece-type + bucket row, clipped after the sum;
//! [`Network::quantize_with`] clips again) and every head's output weights
//! to ±0.99, so with at most 32 pieces an accumulator stays within i16
//! (`33 · 505 = 16,665`: 32 rows and the biases, whichever block each
//! perspective reads) and a head's output sum is at most `2H · QA² · 63`
//! in magnitude; a
//! head is one such sum whichever bucket it serves. For `H ≤ 256` that is
//! at most 2,097,446,400, within i32 (`2³¹ − 1` = 2,147,483,647, room for
//! 524 terms); for `H = 768` it is 6,292,339,200, which is not, so the sum
//! is taken in i32 over each 256 neurons (1,048,723,200 at most) and in
//! i64 over those ([`super::simd`]'s `screlu_dot`, portable or AVX2): the
//! 256 network's arithmetic is unchanged, the wider ones cannot overflow.
//!
//! # File format (little-endian)
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | magic `JANGGINN` |
//! | 8..12 | version (u32): [`NET_VERSION_SINGLE`] (1, one head), [`NET_VERSION`] (2, bucketed) or [`NET_VERSION_INPUTS`] (3, input buckets) |
//! | 12..16 | inputs (u32, [`INPUTS`]) |
//! | 16..20 | hidden size H (u32, one of [`HIDDEN_SIZES`]: 256, 384, 512, 768; `janggi-tools train --hidden H`) |
//! | 20..24 | QA (u32, 255) |
//! | 24..28 | QB (u32, 64) |
//! | 28..32 | eval scale (u32, centipawns per output unit) |
//! | 32..36 | payload length in bytes (u32, [`payload_len_with`]: counts the K input buckets) |
//! | 36..40 | FNV-1a 32 of the payload |
//! | 40..44 | versions 2 and 3: output buckets B (u32, 1..=[`MAX_BUCKETS`]); version 1: zero (B = 1) |
//! | 44..48 | version 3: input-bucket scheme code (u32, [`InputBuckets::code`]: 0 none, 1 palace9, 2 palace6); versions 1 and 2: zero |
//! | 48.. | payload: first-layer weights i16 `[K · INPUTS][H]` (row = bucket · INPUTS + feature), first-layer biases i16 `[H]`, output weights i16 `[B][2H]` (per head, side to move's half first), output biases i32 `[B]` |
//!
//! With B = 1 versions 1 and 2 have the same payload; a one-head network
//! without input buckets is written as version 1, byte for byte the file
//! of earlier builds, a bucketed one as version 2, and only a network with
//! input buckets as version 3 (a version-3 file of scheme none reads, and
//! is written back as version 1 or 2). Every version carries any width H;
//! a 256 network's file is that of the builds before widths were read from
//! the file. Another H is refused ([`NetError::Hidden`]), an unknown scheme
//! code too ([`NetError::InputBuckets`]).

use super::bucket::MAX_BUCKETS;
use super::input_bucket::InputBuckets;
use super::simd::{self, output_simd, Simd, SimdUnavailable};
use super::width::{dispatch, Width, HIDDEN_SIZES};
use janggi_core::{Color, Piece, Square};
use std::fmt;
use std::sync::Arc;

/// Input features per perspective: 14 piece types (own/enemy × 7 kinds) ×
/// 90 points.
pub const INPUTS: usize = 14 * 90;
/// First-layer quantization (1.0 = `QA`).
pub const QA: i32 = 255;
/// Output-weight quantization.
pub const QB: i32 = 64;
/// File format version of bucketed networks (the bucket count in the
/// header).
pub const NET_VERSION: u32 = 2;
/// File format version of one-head networks (no bucket count; still
/// written for them, so their files are those of earlier builds).
pub const NET_VERSION_SINGLE: u32 = 1;
/// File format version of networks with input buckets (the output bucket
/// count and the input-bucket scheme's code in the header); networks
/// without input buckets are still written as version 1 or 2.
pub const NET_VERSION_INPUTS: u32 = 3;
/// File header size.
pub const HEADER_LEN: usize = 48;
const MAGIC: &[u8; 8] = b"JANGGINN";

/// Payload size in bytes of a network with `hidden` neurons per
/// perspective and `buckets` output heads, without input buckets.
pub const fn payload_len(hidden: usize, buckets: usize) -> usize {
    payload_len_with(hidden, buckets, InputBuckets::None)
}

/// Payload size in bytes of a network with `hidden` neurons per
/// perspective, `buckets` output heads and the input buckets of `inputs`
/// (K = `inputs.count()` first-layer blocks of [`INPUTS`] rows).
pub const fn payload_len_with(hidden: usize, buckets: usize, inputs: InputBuckets) -> usize {
    2 * (inputs.count() * INPUTS * hidden + hidden + buckets * 2 * hidden) + 4 * buckets
}

/// The feature of `piece` on `sq` seen from `persp`: own pieces are types
/// 0–6, enemy pieces 7–13 (kind order of [`janggi_core::PieceKind::ALL`]);
/// Han sees the board mirrored top to bottom, so both perspectives see
/// their own pieces start at the bottom.
#[inline]
pub fn feature_index(persp: Color, piece: Piece, sq: Square) -> usize {
    let rel = usize::from(piece.color != persp);
    let sq = match persp {
        Color::Cho => sq.index(),
        Color::Han => usize::from(FLIP_RANK[sq.index() & 0xFF]),
    };
    (rel * 7 + piece.kind.index()) * 90 + sq
}

/// [`Square::flip_rank`]'s index by point index (a table: the search's
/// accumulator updates need it for every row of Han's perspective, and
/// the arithmetic divides by 9), 256 entries so that a `u8`'s index needs
/// no bounds check.
static FLIP_RANK: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 90 {
        t[i] = ((9 - i / 9) * 9 + i % 9) as u8;
        i += 1;
    }
    t
};

/// Why a network file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    /// Could not read the file.
    Io(String),
    /// Shorter than its header says (or than a header).
    Truncated {
        /// Bytes expected.
        expected: usize,
        /// Bytes found.
        found: usize,
    },
    /// Longer than its header says.
    TrailingBytes {
        /// Bytes expected.
        expected: usize,
        /// Bytes found.
        found: usize,
    },
    /// Not a network file.
    BadMagic,
    /// A format version this build does not read.
    Version(u32),
    /// An output bucket count outside 1..=[`MAX_BUCKETS`].
    Buckets(u32),
    /// An input-bucket scheme code this build does not have
    /// ([`InputBuckets::from_code`]).
    InputBuckets(u32),
    /// A hidden size H not in [`HIDDEN_SIZES`].
    Hidden(u32),
    /// A size or constant that differs from this build's.
    Mismatch {
        /// The header field.
        field: &'static str,
        /// This build's value.
        expected: u32,
        /// The file's value.
        found: u32,
    },
    /// The payload does not match its checksum.
    Checksum,
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::Io(e) => write!(f, "cannot read network file: {e}"),
            NetError::Truncated { expected, found } => {
                write!(
                    f,
                    "network file truncated: {found} bytes, expected {expected}"
                )
            }
            NetError::TrailingBytes { expected, found } => {
                write!(
                    f,
                    "network file too long: {found} bytes, expected {expected}"
                )
            }
            NetError::BadMagic => write!(f, "not a janggi network file (bad magic)"),
            NetError::Version(v) => {
                write!(
                    f,
                    "network format version {v}, this build reads \
                     {NET_VERSION_SINGLE}, {NET_VERSION} and {NET_VERSION_INPUTS}"
                )
            }
            NetError::Buckets(n) => {
                write!(
                    f,
                    "network has {n} output buckets, this build reads 1 to {MAX_BUCKETS}"
                )
            }
            NetError::InputBuckets(code) => {
                write!(
                    f,
                    "network input-bucket scheme code {code} is unknown, this build reads "
                )?;
                for (i, s) in InputBuckets::ALL.iter().enumerate() {
                    let sep = if i == 0 { "" } else { ", " };
                    write!(f, "{sep}{} ({s})", s.code())?;
                }
                Ok(())
            }
            NetError::Hidden(h) => {
                write!(
                    f,
                    "network hidden size {h}, this build reads {HIDDEN_SIZES:?}"
                )
            }
            NetError::Mismatch {
                field,
                expected,
                found,
            } => write!(f, "network {field} is {found}, this build needs {expected}"),
            NetError::Checksum => write!(f, "network payload checksum mismatch (corrupt file)"),
        }
    }
}

impl std::error::Error for NetError {}

/// FNV-1a, 32 bits.
pub fn fnv1a(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811C_9DC5u32, |h, &b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

/// A first-layer row, aligned to a cache line so that the AVX2 kernels
/// read it with aligned loads (`H · 2` bytes is a whole number of lines at
/// every width: a `Vec` of rows has no padding).
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(C, align(64))]
pub(crate) struct Row<const H: usize>(pub(crate) [i16; H]);

/// One output head: the weights over both accumulators and the bias (the
/// weights aligned as a [`Row`]'s).
#[derive(Clone, PartialEq, Eq)]
#[repr(C, align(64))]
pub(crate) struct Head<const H: usize> {
    /// Side to move's half, then the other's.
    pub(crate) w: [[i16; H]; 2],
    /// Bias (scale `QA · QB`).
    pub(crate) b: i32,
}

/// The quantized weights of a network of width `H`, and the kernels it
/// runs on (not part of its equality).
#[derive(Clone)]
pub(crate) struct Weights<const H: usize> {
    /// First-layer weights, `[K · INPUTS][H]` (bucket `k`'s rows from
    /// `k · INPUTS`; K = `inputs.count()`).
    pub(crate) w1: Vec<Row<H>>,
    /// The input-bucket scheme.
    pub(crate) inputs: InputBuckets,
    /// First-layer biases.
    pub(crate) b1: [i16; H],
    /// Output heads, one per bucket (1..=[`MAX_BUCKETS`]).
    pub(crate) heads: Vec<Head<H>>,
    /// Centipawns per output unit.
    pub(crate) eval_scale: u32,
    /// The accumulators' kernels.
    pub(crate) simd: Simd,
    /// The output layer's kernels ([`output_simd`]).
    pub(crate) out_simd: Simd,
}

impl<const H: usize> PartialEq for Weights<H> {
    fn eq(&self, o: &Self) -> bool {
        (
            &self.w1,
            self.inputs,
            &self.b1,
            &self.heads,
            self.eval_scale,
        ) == (&o.w1, o.inputs, &o.b1, &o.heads, o.eval_scale)
    }
}

impl<const H: usize> Eq for Weights<H> {}

impl<const H: usize> fmt::Debug for Weights<H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Weights({}x{INPUTS}x{H}x2, {} heads)",
            self.inputs.count(),
            self.heads.len()
        )
    }
}

impl<const H: usize> Weights<H> {
    /// The weights from their values in payload order: `val(i)` is the
    /// `i`-th i16 of the payload (first-layer rows, biases, head halves),
    /// `bias(k)` head `k`'s output bias.
    fn from_values(
        buckets: usize,
        inputs: InputBuckets,
        eval_scale: u32,
        mut val: impl FnMut(usize) -> i16,
        mut bias: impl FnMut(usize) -> i32,
    ) -> Weights<H> {
        let head = Head {
            w: [[0; H]; 2],
            b: 0,
        };
        let mut w = Weights {
            w1: vec![Row([0; H]); inputs.count() * INPUTS],
            inputs,
            b1: [0; H],
            heads: vec![head; buckets],
            eval_scale,
            simd: Simd::Portable,
            out_simd: Simd::Portable,
        };
        let rows =
            w.w1.iter_mut()
                .map(|r| &mut r.0)
                .chain(std::iter::once(&mut w.b1))
                .chain(w.heads.iter_mut().flat_map(|h| h.w.iter_mut()));
        let mut i = 0;
        for row in rows {
            for v in row.iter_mut() {
                *v = val(i);
                i += 1;
            }
        }
        for (k, head) in w.heads.iter_mut().enumerate() {
            head.b = bias(k);
        }
        w.with_simd(Simd::detected())
    }

    /// These weights on the kernels of `simd` (the output layer on the
    /// portable ones if its weights need them, [`output_simd`]).
    fn with_simd(mut self, simd: Simd) -> Weights<H> {
        self.simd = simd;
        let out = self.heads.iter().flat_map(|h| h.w.iter().flatten());
        self.out_simd = output_simd(simd, out);
        self
    }

    fn payload(&self) -> Vec<u8> {
        let mut p = Vec::with_capacity(payload_len_with(H, self.heads.len(), self.inputs));
        let rows = self
            .w1
            .iter()
            .map(|r| &r.0)
            .chain(std::iter::once(&self.b1))
            .chain(self.heads.iter().flat_map(|h| h.w.iter()));
        for row in rows {
            row.iter()
                .for_each(|v| p.extend_from_slice(&v.to_le_bytes()));
        }
        for head in &self.heads {
            p.extend_from_slice(&head.b.to_le_bytes());
        }
        p
    }

    /// The output in centipawns for the side to move, from its accumulator
    /// `us` and the other side's `them`, through head `bucket` (clamped to
    /// the last head).
    #[inline]
    pub(crate) fn output(&self, bucket: usize, us: &[i16; H], them: &[i16; H]) -> i32 {
        let head = &self.heads[bucket.min(self.heads.len() - 1)];
        let sum = simd::screlu_dot(self.out_simd, us, them, &head.w);
        // sum has scale QA² · QB; one QA off gives the bias's scale.
        let raw = sum / i64::from(QA) + i64::from(head.b);
        (raw * i64::from(self.eval_scale) / i64::from(QA * QB)) as i32
    }
}

/// The weights of each width.
#[derive(Clone, PartialEq, Eq)]
pub(crate) enum Layers {
    H256(Arc<Weights<256>>),
    H384(Arc<Weights<384>>),
    H512(Arc<Weights<512>>),
    H768(Arc<Weights<768>>),
}

impl Layers {
    /// [`Weights::from_values`] at `width`.
    fn from_values(
        width: Width,
        buckets: usize,
        inputs: InputBuckets,
        eval_scale: u32,
        val: impl FnMut(usize) -> i16,
        bias: impl FnMut(usize) -> i32,
    ) -> Layers {
        match width {
            Width::H256 => Layers::H256(Arc::new(Weights::from_values(
                buckets, inputs, eval_scale, val, bias,
            ))),
            Width::H384 => Layers::H384(Arc::new(Weights::from_values(
                buckets, inputs, eval_scale, val, bias,
            ))),
            Width::H512 => Layers::H512(Arc::new(Weights::from_values(
                buckets, inputs, eval_scale, val, bias,
            ))),
            Width::H768 => Layers::H768(Arc::new(Weights::from_values(
                buckets, inputs, eval_scale, val, bias,
            ))),
        }
    }
}

/// A quantized network, of any width in [`HIDDEN_SIZES`].
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    pub(crate) layers: Layers,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Network({INPUTS}x{}x2, ", self.hidden())?;
        if self.input_buckets() != InputBuckets::None {
            let s = self.input_buckets();
            write!(f, "{} input buckets ({s}), ", s.count())?;
        }
        if self.buckets() > 1 {
            write!(f, "{} output buckets, ", self.buckets())?;
        }
        write!(
            f,
            "scale {}, checksum {:08x})",
            self.eval_scale(),
            fnv1a(&self.payload())
        )
    }
}

fn u32_at(b: &[u8], i: usize) -> u32 {
    u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]])
}

impl Network {
    /// Builds a network of `width` from float weights (the trainer's
    /// export), with `H = width.hidden()`: `w1[f * H + j]`, `b1[j]`,
    /// `w2[h * 2 * H + j]` (head `h`'s `2 · H` values, side to move's half
    /// first), `b2[h]`. The number of heads is `b2.len()`, clamped to
    /// 1..=[`MAX_BUCKETS`]; missing values are zero. Values are clipped to
    /// the quantized ranges. No input buckets ([`Network::quantize_with`]).
    pub fn quantize(
        width: Width,
        w1: &[f32],
        b1: &[f32],
        w2: &[f32],
        b2: &[f32],
        eval_scale: u32,
    ) -> Network {
        Network::quantize_with(width, InputBuckets::None, w1, b1, w2, b2, eval_scale)
    }

    /// [`Network::quantize`] with the input buckets of `inputs`: `w1` holds
    /// K = `inputs.count()` blocks of `INPUTS · H` values, bucket `k`'s
    /// feature `f` at `(k · INPUTS + f) · H`. First-layer values are
    /// clipped to ±1.98 (the accumulator bound of the module docs).
    pub fn quantize_with(
        width: Width,
        inputs: InputBuckets,
        w1: &[f32],
        b1: &[f32],
        w2: &[f32],
        b2: &[f32],
        eval_scale: u32,
    ) -> Network {
        let q = |x: Option<&f32>, s: i32, lim: f32| {
            (x.copied().unwrap_or(0.0).clamp(-lim, lim) * s as f32).round() as i16
        };
        let h = width.hidden();
        let rows = inputs.count() * INPUTS;
        let (b1_at, w2_at) = (rows * h, rows * h + h);
        let val = |i: usize| match i {
            i if i < b1_at => q(w1.get(i), QA, 1.98),
            i if i < w2_at => q(b1.get(i - b1_at), QA, 1.98),
            i => q(w2.get(i - w2_at), QB, 0.99),
        };
        let bias = |k: usize| {
            let b = b2.get(k).copied().unwrap_or(0.0);
            (b * (QA * QB) as f32).round() as i32
        };
        let buckets = b2.len().clamp(1, MAX_BUCKETS);
        Network {
            layers: Layers::from_values(width, buckets, inputs, eval_scale, val, bias),
        }
    }

    /// The weights as floats, the inverse of [`Network::quantize_with`]
    /// (first layer `/ QA`, output weights `/ QB`, output biases
    /// `/ (QA · QB)`): `janggi-tools train --init-from` starts from them.
    /// Quantizing them again gives this network.
    pub fn dequantize(&self) -> FloatWeights {
        dispatch!(Layers, &self.layers, w => FloatWeights {
            width: self.width(),
            inputs: w.inputs,
            w1: w.w1.iter().flat_map(|r| r.0.iter()).map(|&v| f32::from(v) / QA as f32).collect(),
            b1: w.b1.iter().map(|&v| f32::from(v) / QA as f32).collect(),
            w2: w
                .heads
                .iter()
                .flat_map(|h| h.w.iter().flatten())
                .map(|&v| f32::from(v) / QB as f32)
                .collect(),
            b2: w.heads.iter().map(|h| h.b as f32 / (QA * QB) as f32).collect(),
            eval_scale: w.eval_scale,
        })
    }

    /// The first layer's width.
    pub fn width(&self) -> Width {
        match self.layers {
            Layers::H256(_) => Width::H256,
            Layers::H384(_) => Width::H384,
            Layers::H512(_) => Width::H512,
            Layers::H768(_) => Width::H768,
        }
    }

    /// The kernels this network's accumulators run on (its output layer's
    /// are the same unless an output weight is outside ±128, which only a
    /// hand-made file can have: then portable).
    pub fn simd(&self) -> Simd {
        dispatch!(Layers, &self.layers, w => w.simd)
    }

    /// This network on the kernels of `simd` (a copy of its weights).
    ///
    /// # Errors
    /// [`SimdUnavailable`] if this CPU cannot run them.
    pub fn with_simd(&self, simd: Simd) -> Result<Network, SimdUnavailable> {
        if !simd.is_available() {
            return Err(SimdUnavailable(simd));
        }
        let layers = match &self.layers {
            Layers::H256(w) => Layers::H256(Arc::new(Weights::clone(w).with_simd(simd))),
            Layers::H384(w) => Layers::H384(Arc::new(Weights::clone(w).with_simd(simd))),
            Layers::H512(w) => Layers::H512(Arc::new(Weights::clone(w).with_simd(simd))),
            Layers::H768(w) => Layers::H768(Arc::new(Weights::clone(w).with_simd(simd))),
        };
        Ok(Network { layers })
    }

    /// Neurons per perspective (`self.width().hidden()`).
    pub fn hidden(&self) -> usize {
        self.width().hidden()
    }

    /// Centipawns per output unit.
    pub fn eval_scale(&self) -> u32 {
        dispatch!(Layers, &self.layers, w => w.eval_scale)
    }

    /// Number of output heads (material buckets).
    #[inline]
    pub fn buckets(&self) -> usize {
        dispatch!(Layers, &self.layers, w => w.heads.len())
    }

    /// The input-bucket scheme ([`InputBuckets::None`]: one first layer
    /// for every position).
    #[inline]
    pub fn input_buckets(&self) -> InputBuckets {
        dispatch!(Layers, &self.layers, w => w.inputs)
    }

    fn payload(&self) -> Vec<u8> {
        dispatch!(Layers, &self.layers, w => w.payload())
    }

    /// The file image: without input buckets, version 1 for one head (the
    /// format of earlier builds, byte for byte) and version 2 with the
    /// bucket count otherwise; with input buckets, version 3 with the
    /// bucket count and the scheme's code.
    pub fn to_bytes(&self) -> Vec<u8> {
        let payload = self.payload();
        let buckets = self.buckets() as u32;
        let inputs = self.input_buckets();
        let (version, bucket_field, scheme_field) = match (inputs, buckets) {
            (InputBuckets::None, 1) => (NET_VERSION_SINGLE, 0, 0),
            (InputBuckets::None, _) => (NET_VERSION, buckets, 0),
            (s, _) => (NET_VERSION_INPUTS, buckets, s.code()),
        };
        let mut h = vec![0u8; HEADER_LEN];
        h[0..8].copy_from_slice(MAGIC);
        let fields = [
            version,
            INPUTS as u32,
            self.hidden() as u32,
            QA as u32,
            QB as u32,
            self.eval_scale(),
            payload.len() as u32,
            fnv1a(&payload),
            bucket_field,
            scheme_field,
        ];
        for (i, v) in fields.iter().enumerate() {
            h[8 + 4 * i..12 + 4 * i].copy_from_slice(&v.to_le_bytes());
        }
        h.extend_from_slice(&payload);
        h
    }

    /// Parses a file image (version 1, 2 or 3).
    ///
    /// # Errors
    /// A short or long file, a foreign magic or version, a bucket count
    /// outside 1..=[`MAX_BUCKETS`], an unknown input-bucket scheme, a
    /// hidden size not in [`HIDDEN_SIZES`], sizes or constants other than
    /// this build's (the payload length among them, which counts the input
    /// buckets), or a checksum mismatch.
    pub fn from_bytes(b: &[u8]) -> Result<Network, NetError> {
        if b.len() < HEADER_LEN {
            return Err(if b.len() >= 8 && &b[0..8] != MAGIC {
                NetError::BadMagic
            } else {
                NetError::Truncated {
                    expected: HEADER_LEN,
                    found: b.len(),
                }
            });
        }
        if &b[0..8] != MAGIC {
            return Err(NetError::BadMagic);
        }
        let output_buckets = || match u32_at(b, 40) {
            n if (1..=MAX_BUCKETS as u32).contains(&n) => Ok(n as usize),
            n => Err(NetError::Buckets(n)),
        };
        let (buckets, inputs) = match u32_at(b, 8) {
            NET_VERSION_SINGLE => (1, InputBuckets::None),
            NET_VERSION => (output_buckets()?, InputBuckets::None),
            NET_VERSION_INPUTS => {
                let code = u32_at(b, 44);
                let inputs = InputBuckets::from_code(code).ok_or(NetError::InputBuckets(code))?;
                (output_buckets()?, inputs)
            }
            v => return Err(NetError::Version(v)),
        };
        let hidden = u32_at(b, 16);
        let width = Width::from_hidden(hidden as usize).ok_or(NetError::Hidden(hidden))?;
        let payload_len = payload_len_with(width.hidden(), buckets, inputs);
        let expect = [
            ("input count", 12, INPUTS as u32),
            ("QA", 20, QA as u32),
            ("QB", 24, QB as u32),
            ("payload length", 32, payload_len as u32),
        ];
        for (field, at, expected) in expect {
            let found = u32_at(b, at);
            if found != expected {
                return Err(NetError::Mismatch {
                    field,
                    expected,
                    found,
                });
            }
        }
        let total = HEADER_LEN + payload_len;
        if b.len() < total {
            return Err(NetError::Truncated {
                expected: total,
                found: b.len(),
            });
        }
        if b.len() > total {
            return Err(NetError::TrailingBytes {
                expected: total,
                found: b.len(),
            });
        }
        let payload = &b[HEADER_LEN..];
        if fnv1a(payload) != u32_at(b, 36) {
            return Err(NetError::Checksum);
        }
        let eval_scale = u32_at(b, 28);
        if eval_scale == 0 || eval_scale > 10_000 {
            return Err(NetError::Mismatch {
                field: "eval scale",
                expected: 400,
                found: eval_scale,
            });
        }
        let biases_at = payload_len - 4 * buckets;
        let (vals, biases) = payload.split_at(biases_at);
        let val = |i: usize| i16::from_le_bytes([vals[2 * i], vals[2 * i + 1]]);
        let bias = |k: usize| {
            let c = &biases[4 * k..4 * k + 4];
            i32::from_le_bytes([c[0], c[1], c[2], c[3]])
        };
        Ok(Network {
            layers: Layers::from_values(width, buckets, inputs, eval_scale, val, bias),
        })
    }

    /// Reads a network file.
    ///
    /// # Errors
    /// As [`Network::from_bytes`], or [`NetError::Io`].
    pub fn load(path: &std::path::Path) -> Result<Network, NetError> {
        let b =
            std::fs::read(path).map_err(|e| NetError::Io(format!("{}: {e}", path.display())))?;
        Network::from_bytes(&b)
    }
}

/// A network's weights as floats ([`Network::dequantize`]), in the layout
/// [`Network::quantize_with`] takes.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatWeights {
    /// The first layer's width.
    pub width: Width,
    /// The input-bucket scheme.
    pub inputs: InputBuckets,
    /// First-layer weights, `[K · INPUTS][H]` flat.
    pub w1: Vec<f32>,
    /// First-layer biases, `[H]`.
    pub b1: Vec<f32>,
    /// Output weights, `[B][2H]` flat (per head, side to move's half first).
    pub w2: Vec<f32>,
    /// Output biases, `[B]`.
    pub b2: Vec<f32>,
    /// Centipawns per output unit.
    pub eval_scale: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flip_table_is_flip_rank() {
        for sq in Square::ALL {
            assert_eq!(usize::from(FLIP_RANK[sq.index()]), sq.flip_rank().index());
        }
    }
}
