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
//! i16 and a head's output sum (`2H · QA² · 63` at most, for `H ≤ 256`)
//! within i32; a head is one such sum whichever bucket it serves.
//!
//! # File format (little-endian)
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | magic `JANGGINN` |
//! | 8..12 | version (u32): [`NET_VERSION_SINGLE`] (1, one head) or [`NET_VERSION`] (2, bucketed) |
//! | 12..16 | inputs (u32, [`INPUTS`]) |
//! | 16..20 | hidden size H (u32, [`HIDDEN`]) |
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
//! is written as version 1, byte for byte the file of earlier builds.

use super::bucket::MAX_BUCKETS;
use crate::types::{Color, Piece, Square};
use std::fmt;

/// Input features per perspective: 14 piece types (own/enemy × 7 kinds) ×
/// 90 points.
pub const INPUTS: usize = 14 * 90;
/// Accumulator size per perspective.
pub const HIDDEN: usize = 256;
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

/// Payload size in bytes of a network with `HIDDEN` neurons and `buckets`
/// output heads.
pub const fn payload_len(buckets: usize) -> usize {
    2 * (INPUTS * HIDDEN + HIDDEN + buckets * 2 * HIDDEN) + 4 * buckets
}

/// Payload size in bytes of a one-head network.
pub const PAYLOAD_LEN: usize = payload_len(1);

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
pub(crate) struct Head {
    /// Side to move's half, then the other's.
    pub(crate) w: [[i16; HIDDEN]; 2],
    /// Bias (scale `QA · QB`).
    pub(crate) b: i32,
}

impl Head {
    const ZERO: Head = Head {
        w: [[0; HIDDEN]; 2],
        b: 0,
    };
}

/// A quantized network.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// First-layer weights, `[INPUTS][HIDDEN]`.
    pub(crate) w1: Vec<[i16; HIDDEN]>,
    /// First-layer biases.
    pub(crate) b1: [i16; HIDDEN],
    /// Output heads, one per bucket (1..=[`MAX_BUCKETS`]).
    pub(crate) heads: Vec<Head>,
    /// Centipawns per output unit.
    pub(crate) eval_scale: u32,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Network({INPUTS}x{HIDDEN}x2, ")?;
        if self.heads.len() > 1 {
            write!(f, "{} output buckets, ", self.heads.len())?;
        }
        write!(
            f,
            "scale {}, checksum {:08x})",
            self.eval_scale,
            fnv1a(&self.payload())
        )
    }
}

fn u32_at(b: &[u8], i: usize) -> u32 {
    u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]])
}

impl Network {
    /// Builds a network from float weights (the trainer's export):
    /// `w1[f * HIDDEN + j]`, `b1[j]`, `w2[h * 2 * HIDDEN + j]` (head `h`'s
    /// `2 · HIDDEN` values, side to move's half first), `b2[h]`. The number
    /// of heads is `b2.len()`, clamped to 1..=[`MAX_BUCKETS`]; missing
    /// values are zero. Values are clipped to the quantized ranges.
    pub fn quantize(w1: &[f32], b1: &[f32], w2: &[f32], b2: &[f32], eval_scale: u32) -> Network {
        let q = |x: f32, s: i32, lim: f32| (x.clamp(-lim, lim) * s as f32).round() as i16;
        let buckets = b2.len().clamp(1, MAX_BUCKETS);
        let mut net = Network {
            w1: vec![[0; HIDDEN]; INPUTS],
            b1: [0; HIDDEN],
            heads: vec![Head::ZERO; buckets],
            eval_scale,
        };
        for (f, row) in net.w1.iter_mut().enumerate() {
            for (j, v) in row.iter_mut().enumerate() {
                *v = q(w1.get(f * HIDDEN + j).copied().unwrap_or(0.0), QA, 1.98);
            }
        }
        for (j, v) in net.b1.iter_mut().enumerate() {
            *v = q(b1.get(j).copied().unwrap_or(0.0), QA, 1.98);
        }
        for (k, head) in net.heads.iter_mut().enumerate() {
            for (h, half) in head.w.iter_mut().enumerate() {
                for (j, v) in half.iter_mut().enumerate() {
                    let at = k * 2 * HIDDEN + h * HIDDEN + j;
                    *v = q(w2.get(at).copied().unwrap_or(0.0), QB, 0.99);
                }
            }
            let b = b2.get(k).copied().unwrap_or(0.0);
            head.b = (b * (QA * QB) as f32).round() as i32;
        }
        net
    }

    /// Centipawns per output unit.
    pub fn eval_scale(&self) -> u32 {
        self.eval_scale
    }

    /// Number of output heads (material buckets).
    #[inline]
    pub fn buckets(&self) -> usize {
        self.heads.len()
    }

    fn payload(&self) -> Vec<u8> {
        let mut p = Vec::with_capacity(payload_len(self.heads.len()));
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

    /// The file image: version 1 for one head (the format of earlier
    /// builds, byte for byte), version 2 with the bucket count otherwise.
    pub fn to_bytes(&self) -> Vec<u8> {
        let payload = self.payload();
        let buckets = self.heads.len() as u32;
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
            HIDDEN as u32,
            QA as u32,
            QB as u32,
            self.eval_scale,
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
    /// outside 1..=[`MAX_BUCKETS`], sizes or constants other than this
    /// build's, or a checksum mismatch.
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
        let payload_len = payload_len(buckets);
        let expect = [
            ("input count", 12, INPUTS as u32),
            ("hidden size", 16, HIDDEN as u32),
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
        let mut vals = payload[..biases_at]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut net = Network {
            w1: vec![[0; HIDDEN]; INPUTS],
            b1: [0; HIDDEN],
            heads: vec![Head::ZERO; buckets],
            eval_scale,
        };
        let rows = net
            .w1
            .iter_mut()
            .chain(std::iter::once(&mut net.b1))
            .chain(net.heads.iter_mut().flat_map(|h| h.w.iter_mut()));
        for row in rows {
            for v in row.iter_mut() {
                *v = vals.next().unwrap_or(0);
            }
        }
        for (head, c) in net
            .heads
            .iter_mut()
            .zip(payload[biases_at..].chunks_exact(4))
        {
            head.b = i32::from_le_bytes([c[0], c[1], c[2], c[3]]);
        }
        Ok(net)
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

    /// The output in centipawns for the side to move, from its accumulator
    /// `us` and the other side's `them`, through head `bucket` (from
    /// [`super::bucket::position_bucket`]; clamped to the last head).
    #[inline]
    pub fn output(&self, bucket: usize, us: &[i16; HIDDEN], them: &[i16; HIDDEN]) -> i32 {
        let head = &self.heads[bucket.min(self.heads.len() - 1)];
        let sum = screlu_dot(us, &head.w[0]) + screlu_dot(them, &head.w[1]);
        // sum has scale QA² · QB; one QA off gives the bias's scale.
        let raw = i64::from(sum / QA + head.b);
        (raw * i64::from(self.eval_scale) / i64::from(QA * QB)) as i32
    }
}
/// `Σ clamp(a, 0, QA)² · w` in i32 (see the module docs for the bound).
#[inline]
fn screlu_dot(acc: &[i16; HIDDEN], w: &[i16; HIDDEN]) -> i32 {
    let mut sum = 0i32;
    for (&a, &w) in acc.iter().zip(w.iter()) {
        let a = i32::from(a.clamp(0, QA as i16));
        sum += (a * i32::from(w)) * a;
    }
    sum
}
