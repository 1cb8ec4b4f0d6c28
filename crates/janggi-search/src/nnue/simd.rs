//! The network's vector kernels: the accumulator's row updates and the
//! output layer's SCReLU dot product, each in two versions that give the
//! same numbers bit for bit:
//!
//! - **portable**, plain Rust loops over arrays of a compile-time length
//!   (the compiler vectorises them for the build's target, x86-64-v2:
//!   SSE4.2). The reference, and the path of every CPU without AVX2;
//! - **AVX2** ([`super::avx2`]), chosen at run time when the CPU has it.
//!
//! Which one a network runs is its [`Simd`] ([`super::Network::simd`]):
//! [`Simd::detected`] when it is built or loaded, another on request
//! ([`super::Network::with_simd`], how the tests run both paths on the
//! same positions). Every call into AVX2 code checks
//! `is_x86_feature_detected!("avx2")` first (a cached bit) and takes the
//! portable path otherwise, so no [`Simd`] value can run an instruction
//! the CPU lacks.
//!
//! Why the results are identical: the accumulators add and subtract i16
//! rows with wrapping arithmetic on both paths. The output sums
//! `clamp(a, 0, QA)² · w` per neuron in i32 over at most 256 neurons (the
//! module docs of [`super::network`]); AVX2 computes `clamp(a) · w` in i16
//! and multiplies by `clamp(a)` again while adding pairs into i32
//! (`vpmaddwd`), which is exact when `|clamp(a) · w| ≤ 255 · 128 < 2¹⁵`,
//! i.e. every output weight within ±128 (the trainer's clip gives ±63).
//! A network with a larger output weight (only a hand-made file can have
//! one) runs its output layer on the portable path
//! ([`output_simd`]). Sums in i32 that would overflow wrap alike on both
//! paths in release builds (addition modulo 2³² does not depend on the
//! order).

use super::network::QA;
use std::fmt;

/// The environment variable that can ask for the portable path
/// (`JANGGI_NNUE_SIMD=portable`) when the CPU has AVX2, to compare the
/// two on one binary.
pub const SIMD_ENV: &str = "JANGGI_NNUE_SIMD";

/// Neurons a head's output sum adds in i32 before widening to i64 (see
/// the quantization bound in the docs of [`super::network`]).
pub(crate) const I32_CHUNK: usize = 256;

/// The largest output weight (in magnitude) whose products with a clamped
/// accumulator value (≤ `QA` = 255) fit in i16: `255 · 128 = 32,640`.
pub(crate) const MAX_I16_OUTPUT_WEIGHT: i16 = 128;

/// An implementation of the network's kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Simd {
    /// Plain Rust, vectorised by the compiler for the build's target.
    Portable,
    /// Explicit AVX2 intrinsics (x86-64 CPUs since about 2013).
    Avx2,
}

/// A path this CPU does not have ([`super::Network::with_simd`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SimdUnavailable(pub Simd);

impl fmt::Display for SimdUnavailable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "this CPU cannot run the {} network kernels", self.0)
    }
}

impl std::error::Error for SimdUnavailable {}

impl fmt::Display for Simd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Simd::Portable => "portable",
            Simd::Avx2 => "avx2",
        })
    }
}

impl Simd {
    /// Every path, the reference first.
    pub const ALL: [Simd; 2] = [Simd::Portable, Simd::Avx2];

    /// Whether this CPU runs this path.
    pub fn is_available(self) -> bool {
        match self {
            Simd::Portable => true,
            Simd::Avx2 => avx2_detected(),
        }
    }

    /// The paths this CPU runs, the reference first.
    pub fn available() -> impl Iterator<Item = Simd> {
        Simd::ALL.into_iter().filter(|s| s.is_available())
    }

    /// The path networks take: AVX2 when the CPU has it, unless
    /// [`SIMD_ENV`] is `portable`; decided once per process.
    pub fn detected() -> Simd {
        static DETECTED: once_cell::sync::Lazy<Simd> = once_cell::sync::Lazy::new(|| {
            let portable = std::env::var(SIMD_ENV).is_ok_and(|v| v == "portable");
            match Simd::Avx2.is_available() && !portable {
                true => Simd::Avx2,
                false => Simd::Portable,
            }
        });
        *DETECTED
    }
}

#[inline]
fn avx2_detected() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The path of an output layer whose heads' weights are `w`, for a
/// network on `simd`: the portable one when a weight is outside
/// ±[`MAX_I16_OUTPUT_WEIGHT`] (AVX2's i16 products would wrap).
pub(crate) fn output_simd<'a>(simd: Simd, mut w: impl Iterator<Item = &'a i16>) -> Simd {
    match simd {
        Simd::Avx2 if w.all(|v| v.unsigned_abs() <= MAX_I16_OUTPUT_WEIGHT as u16) => Simd::Avx2,
        _ => Simd::Portable,
    }
}

/// Runs `$avx2` (an AVX2 kernel call) when `$simd` is [`Simd::Avx2`] and
/// the CPU has AVX2, `$portable` otherwise.
macro_rules! kernel {
    ($simd:expr, $avx2:expr, $portable:expr) => {{
        #[cfg(target_arch = "x86_64")]
        if $simd == Simd::Avx2 && is_x86_feature_detected!("avx2") {
            // SAFETY: the AVX2 kernels need only AVX2, which this CPU has
            // (checked on the line above).
            return unsafe { $avx2 };
        }
        $portable
    }};
}

/// `acc += row`, wrapping.
#[inline]
pub(crate) fn add_row<const H: usize>(simd: Simd, acc: &mut [i16; H], row: &[i16; H]) {
    kernel!(simd, super::avx2::add_row(acc, row), {
        for (a, &r) in acc.iter_mut().zip(row.iter()) {
            *a = a.wrapping_add(r);
        }
    })
}

/// `out = parent + add − Σ sub`, wrapping: a quiet move (one row off,
/// `N` = 1) or a capture (two, `N` = 2).
#[inline]
pub(crate) fn add_sub<const H: usize, const N: usize>(
    simd: Simd,
    out: &mut [i16; H],
    parent: &[i16; H],
    add: &[i16; H],
    sub: [&[i16; H]; N],
) {
    kernel!(simd, super::avx2::add_sub(out, parent, add, sub), {
        for i in 0..H {
            let x = parent[i].wrapping_add(add[i]);
            out[i] = sub.iter().fold(x, |x, s| x.wrapping_sub(s[i]));
        }
    })
}

/// `Σ clamp(us, 0, QA)² · w[0] + Σ clamp(them, 0, QA)² · w[1]`: in i32
/// over each [`I32_CHUNK`] neurons of one side (for `H ≤ 256`, one i32
/// sum per side, as before widths were a property of the file), those sums
/// in i64.
#[inline]
pub(crate) fn screlu_dot<const H: usize>(
    simd: Simd,
    us: &[i16; H],
    them: &[i16; H],
    w: &[[i16; H]; 2],
) -> i64 {
    kernel!(simd, super::avx2::screlu_dot(us, them, w), {
        chunked_sum(us, &w[0], screlu_dot_portable) + chunked_sum(them, &w[1], screlu_dot_portable)
    })
}

/// `Σ dot(a, w)` in i64 over the [`I32_CHUNK`]-neuron chunks of `a` and
/// `w`, `dot` summing one chunk in i32.
#[inline(always)]
pub(crate) fn chunked_sum(a: &[i16], w: &[i16], dot: impl Fn(&[i16], &[i16]) -> i32) -> i64 {
    if a.len() <= I32_CHUNK {
        return i64::from(dot(a, w));
    }
    a.chunks(I32_CHUNK)
        .zip(w.chunks(I32_CHUNK))
        .map(|(a, w)| i64::from(dot(a, w)))
        .sum()
}

/// `Σ clamp(a, 0, QA)² · w` in i32 (the reference).
#[inline]
fn screlu_dot_portable(acc: &[i16], w: &[i16]) -> i32 {
    let mut sum = 0i32;
    for (&a, &w) in acc.iter().zip(w.iter()) {
        let a = i32::from(a.clamp(0, QA as i16));
        sum += (a * i32::from(w)) * a;
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A buffer aligned to 64 bytes, so that offsets of 0 and 16 values
    /// give aligned arrays and the others unaligned ones.
    #[repr(C, align(64))]
    struct Buf([i16; 4096]);

    /// A buffer of xorshift values: any i16 (the extremes wrap), or
    /// within ±`lim`.
    fn buf(seed: u64, lim: i16) -> Box<Buf> {
        let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut b = Box::new(Buf([0; 4096]));
        for v in b.0.iter_mut() {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            *v = match lim {
                i16::MAX => x as i16,
                _ => (x % (2 * lim as u64 + 1)) as i16 - lim,
            };
        }
        b
    }

    /// The `k`-th array of `H` values from `off` in `b`.
    fn arr<const H: usize>(b: &Buf, off: usize, k: usize) -> &[i16; H] {
        b.0[off + k * H..off + (k + 1) * H].try_into().unwrap()
    }

    /// Every kernel on every path this CPU has gives the portable
    /// kernel's result, over random values (wrapping ones included) at
    /// every alignment.
    fn every_path_matches_the_portable_kernels<const H: usize>() {
        for seed in 0..48u64 {
            let off = seed as usize % 17;
            let (x, w) = (buf(seed, i16::MAX), buf(seed + 1000, MAX_I16_OUTPUT_WEIGHT));
            let (p, a, s1, s2) = (
                arr(&x, off, 0),
                arr(&x, off, 1),
                arr(&x, off, 2),
                arr(&x, off, 3),
            );
            let (us, them) = (arr::<H>(&x, off, 4), arr::<H>(&x, off, 0));
            let heads = [*arr::<H>(&w, off, 0), *arr::<H>(&w, off, 1)];
            let run = |simd: Simd| {
                let mut out = buf(seed + 7, i16::MAX);
                let o: &mut [i16; H] = (&mut out.0[off..off + H]).try_into().unwrap();
                add_row(simd, o, a);
                let r1 = *o;
                add_sub(simd, o, p, a, [s1]);
                let r2 = *o;
                add_sub(simd, o, p, a, [s1, s2]);
                (r1, r2, *o, screlu_dot(simd, us, them, &heads))
            };
            let want = run(Simd::Portable);
            assert_ne!(want.1, want.2);
            for simd in Simd::available() {
                assert!(run(simd) == want, "{simd}, H = {H}, offset {off}");
            }
        }
    }

    #[test]
    fn every_path_matches_the_portable_kernels_256() {
        every_path_matches_the_portable_kernels::<256>();
    }

    #[test]
    fn every_path_matches_the_portable_kernels_768() {
        every_path_matches_the_portable_kernels::<768>();
    }

    /// The portable kernels compute what they say: a wrapping add, and the
    /// SCReLU sum of a small case worked by hand.
    #[test]
    fn the_portable_kernels_are_the_reference() {
        let mut acc = [i16::MAX; 16];
        add_row(Simd::Portable, &mut acc, &[1; 16]);
        assert_eq!(acc, [i16::MIN; 16]);
        let mut us = [0i16; 256];
        us[..4].copy_from_slice(&[-5, 10, 255, 900]);
        let mut w = [[0i16; 256]; 2];
        w[0][..4].copy_from_slice(&[100, 3, -2, 1]);
        w[1][0] = 7;
        let them = [1i16; 256];
        // 0 + 10² · 3 + 255² · −2 + 255² · 1, and 1² · 7.
        let want = 300 - 65_025 + 7;
        for simd in Simd::available() {
            assert_eq!(screlu_dot(simd, &us, &them, &w), want, "{simd}");
        }
    }

    /// Why [`output_simd`] exists: beyond ±128 an AVX2 product
    /// `clamp(a) · w` wraps in i16 (255 · 200 = 51,000 → −14,536).
    #[test]
    fn avx2_products_wrap_beyond_the_weight_bound() {
        let us = [255i16; 256];
        let mut w = [[0i16; 256]; 2];
        w[0][0] = 200;
        assert_eq!(screlu_dot(Simd::Portable, &us, &us, &w), 255 * 255 * 200);
        if Simd::Avx2.is_available() {
            assert_eq!(screlu_dot(Simd::Avx2, &us, &us, &w), -14_536 * 255);
        }
    }

    #[test]
    fn large_output_weights_keep_the_portable_output() {
        let small = [1i16, -128, 128];
        assert_eq!(output_simd(Simd::Avx2, small.iter()), Simd::Avx2);
        assert_eq!(output_simd(Simd::Avx2, [5, 129].iter()), Simd::Portable);
        assert_eq!(output_simd(Simd::Avx2, [i16::MIN].iter()), Simd::Portable);
        assert_eq!(output_simd(Simd::Portable, small.iter()), Simd::Portable);
    }
}
