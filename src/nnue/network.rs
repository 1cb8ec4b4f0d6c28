//! The quantized network: file format, loading with typed errors, and the
//! output layer.
//!
//! # Architecture
//!
//! `(1260 → H) × 2 → B heads → 1`: each perspective (the side to move's and
//! the other's) sums the first-layer columns of its active features
//! ([`feature_index`]) into an accumulator of `H` values; the two
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
//! trainer clips first-layer weights to ±1.98 and every head's output
//! weights to ±0.99, so with at most 32 pieces an accumulator stays within
//! i16 and a head's output sum is at most `2H · QA² · 63` in magnitude; a
//! head is one such sum whichever bucket it serves. For `H ≤ 256` that is
//! at most 2,097,446,400, within i32 (`2³¹ − 1` = 2,147,483,647, room for
//! 524 terms); for `H = 768` it is 6,292,339,200, which is not, so the sum
//! is taken in i32 over each 256 neurons (1,048,723,200 at most) and in
//! i64 over those (`screlu_dot`): the 256 network's arithmetic is
//! unchanged, the wider ones cannot overflow.
//!
//! # File format (little-endian)
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | magic `JANGGINN` |
//! | 8..12 | version (u32): [`NET_VERSION_SINGLE`] (1, one head) or [`NET_VERSION`] (2, bucketed) |
//! | 12..16 | inputs (u32, [`INPUTS`]) |
//! | 16..20 | hidden size H (u32, one of [`HIDDEN_SIZES`]: 256, 384, 512, 768; `janggi-tools train --hidden H`) |
//! | 20..24 | QA (u32, 255) |
//! | 24..28 | QB (u32, 64) |
//! | 28..32 | eval scale (u32, centipawns per output unit) |
//! | 32..36 | payload length in bytes (u32, [`payload_len`]) |
//! | 36..40 | FNV-1a 32 of the payload |
//! | 40..44 | version 2: output buckets B (u32, 1..=[`MAX_BUCKETS`]); version 1: zero (B = 1) |
//! | 44..48 | zero |
//! | 48.. | payload: first-layer weights i16 `[INPUTS][H]` (row = feature), first-layer biases i16 `[H]`, output weights i16 `[B][2H]` (per head, side to move's half first), output biases i32 `[B]` |
//!
//! With B = 1 the two versions have the same payload; a one-head network
//! is written as version 1, byte for byte the file of earlier builds. Both
//! versions carry any width H; a 256 network's file is that of the builds
//! before widths were read from the file. Another H is refused
//! ([`NetError::Hidden`]).

use super::bucket::MAX_BUCKETS;
use super::width::{dispatch, Width, HIDDEN_SIZES};
use crate::types::{Color, Piece, Square};
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
/// File header size.
pub const HEADER_LEN: usize = 48;
const MAGIC: &[u8; 8] = b"JANGGINN";

/// Neurons a head's output sum adds in i32 before widening to i64 (see
/// the quantization bound in the module docs).
const I32_CHUNK: usize = 256;

/// Payload size in bytes of a network with `hidden` neurons per
/// perspective and `buckets` output heads.
pub const fn payload_len(hidden: usize, buckets: usize) -> usize {
    2 * (INPUTS * hidden + hidden + buckets * 2 * hidden) + 4 * buckets
}

/// The feature of `piece` on `sq` seen from `persp`: own pieces are types
/// 0–6, enemy pieces 7–13 (kind order of [`crate::types::PieceKind::ALL`]);
/// Han sees the board mirrored top to bottom, so both perspectives see
/// their own pieces start at the bottom.
#[inline]
pub fn feature_index(persp: Color, piece: Piece, sq: Square) -> usize {
    let rel = usize::from(piece.color != persp);
    let sq = match persp {
        Color::Cho => sq,
        Color::Han => sq.flip_rank(),
    };
    (rel * 7 + piece.kind.index()) * 90 + sq.index()
}

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
                     {NET_VERSION_SINGLE} and {NET_VERSION}"
                )
            }
            NetError::Buckets(n) => {
                write!(
                    f,
                    "network has {n} output buckets, this build reads 1 to {MAX_BUCKETS}"
                )
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

/// One output head: the weights over both accumulators and the bias.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct Head<const H: usize> {
    /// Side to move's half, then the other's.
    pub(crate) w: [[i16; H]; 2],
    /// Bias (scale `QA · QB`).
    pub(crate) b: i32,
}

/// The quantized weights of a network of width `H`.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct Weights<const H: usize> {
    /// First-layer weights, `[INPUTS][H]`.
    pub(crate) w1: Vec<[i16; H]>,
    /// First-layer biases.
    pub(crate) b1: [i16; H],
    /// Output heads, one per bucket (1..=[`MAX_BUCKETS`]).
    pub(crate) heads: Vec<Head<H>>,
    /// Centipawns per output unit.
    pub(crate) eval_scale: u32,
}

impl<const H: usize> fmt::Debug for Weights<H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Weights({INPUTS}x{H}x2, {} heads)", self.heads.len())
    }
}

impl<const H: usize> Weights<H> {
    /// The weights from their values in payload order: `val(i)` is the
    /// `i`-th i16 of the payload (first-layer rows, biases, head halves),
    /// `bias(k)` head `k`'s output bias.
    fn from_values(
        buckets: usize,
        eval_scale: u32,
        mut val: impl FnMut(usize) -> i16,
        mut bias: impl FnMut(usize) -> i32,
    ) -> Weights<H> {
        let head = Head {
            w: [[0; H]; 2],
            b: 0,
        };
        let mut w = Weights {
            w1: vec![[0; H]; INPUTS],
            b1: [0; H],
            heads: vec![head; buckets],
            eval_scale,
        };
        let rows =
            w.w1.iter_mut()
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
        w
    }

    fn payload(&self) -> Vec<u8> {
        let mut p = Vec::with_capacity(payload_len(H, self.heads.len()));
        let rows = self
            .w1
            .iter()
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
        let sum = screlu_dot(us, &head.w[0]) + screlu_dot(them, &head.w[1]);
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
        eval_scale: u32,
        val: impl FnMut(usize) -> i16,
        bias: impl FnMut(usize) -> i32,
    ) -> Layers {
        match width {
            Width::H256 => Layers::H256(Arc::new(Weights::from_values(
                buckets, eval_scale, val, bias,
            ))),
            Width::H384 => Layers::H384(Arc::new(Weights::from_values(
                buckets, eval_scale, val, bias,
            ))),
            Width::H512 => Layers::H512(Arc::new(Weights::from_values(
                buckets, eval_scale, val, bias,
            ))),
            Width::H768 => Layers::H768(Arc::new(Weights::from_values(
                buckets, eval_scale, val, bias,
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
    /// the quantized ranges.
    pub fn quantize(
        width: Width,
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
        let (b1_at, w2_at) = (INPUTS * h, INPUTS * h + h);
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
            layers: Layers::from_values(width, buckets, eval_scale, val, bias),
        }
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

    fn payload(&self) -> Vec<u8> {
        dispatch!(Layers, &self.layers, w => w.payload())
    }

    /// The file image: version 1 for one head (the format of earlier
    /// builds, byte for byte), version 2 with the bucket count otherwise.
    pub fn to_bytes(&self) -> Vec<u8> {
        let payload = self.payload();
        let buckets = self.buckets() as u32;
        let (version, bucket_field) = if buckets == 1 {
            (NET_VERSION_SINGLE, 0)
        } else {
            (NET_VERSION, buckets)
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
        ];
        for (i, v) in fields.iter().enumerate() {
            h[8 + 4 * i..12 + 4 * i].copy_from_slice(&v.to_le_bytes());
        }
        h.extend_from_slice(&payload);
        h
    }

    /// Parses a file image (version 1 or 2).
    ///
    /// # Errors
    /// A short or long file, a foreign magic or version, a bucket count
    /// outside 1..=[`MAX_BUCKETS`], a hidden size not in
    /// [`HIDDEN_SIZES`], sizes or constants other than this build's, or a
    /// checksum mismatch.
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
        let buckets = match u32_at(b, 8) {
            NET_VERSION_SINGLE => 1,
            NET_VERSION => match u32_at(b, 40) {
                n if (1..=MAX_BUCKETS as u32).contains(&n) => n as usize,
                n => return Err(NetError::Buckets(n)),
            },
            v => return Err(NetError::Version(v)),
        };
        let hidden = u32_at(b, 16);
        let width = Width::from_hidden(hidden as usize).ok_or(NetError::Hidden(hidden))?;
        let payload_len = payload_len(width.hidden(), buckets);
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
            layers: Layers::from_values(width, buckets, eval_scale, val, bias),
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

/// `Σ clamp(a, 0, QA)² · w` (see the module docs for the bound): in i32
/// for `H ≤ 256`, as before widths were a property of the file; wider
/// layers sum each 256 neurons in i32 and those sums in i64.
#[inline]
fn screlu_dot<const H: usize>(acc: &[i16; H], w: &[i16; H]) -> i64 {
    #[inline]
    fn dot(acc: &[i16], w: &[i16]) -> i32 {
        let mut sum = 0i32;
        for (&a, &w) in acc.iter().zip(w.iter()) {
            let a = i32::from(a.clamp(0, QA as i16));
            sum += (a * i32::from(w)) * a;
        }
        sum
    }
    if H <= I32_CHUNK {
        i64::from(dot(acc, w))
    } else {
        acc.chunks(I32_CHUNK)
            .zip(w.chunks(I32_CHUNK))
            .map(|(a, w)| i64::from(dot(a, w)))
            .sum()
    }
}
