//! The AVX2 kernels of [`super::simd`]: the same functions as its portable
//! ones, 16 i16 lanes at a time. Every width H is a multiple of 16
//! (checked at compile time), so there is no remainder.
//!
//! The functions are safe to call only on a CPU with AVX2; their one
//! caller, [`super::simd`]'s dispatch, checks `is_x86_feature_detected!`
//! first. The only `unsafe` left inside are the unaligned loads and stores
//! ([`load`], [`store`]), of 16 i16 each from arrays of exactly 16.

#![cfg(target_arch = "x86_64")]

use super::network::QA;
use super::simd::{chunked_sum, I32_CHUNK};
use std::arch::x86_64::{
    __m256i, _mm256_add_epi16, _mm256_add_epi32, _mm256_castsi256_si128, _mm256_extracti128_si256,
    _mm256_loadu_si256, _mm256_madd_epi16, _mm256_max_epi16, _mm256_min_epi16, _mm256_mullo_epi16,
    _mm256_set1_epi16, _mm256_setzero_si256, _mm256_storeu_si256, _mm256_sub_epi16, _mm_add_epi32,
    _mm_cvtsi128_si32, _mm_shuffle_epi32,
};

/// Lanes of one register.
const LANES: usize = 16;

/// Fails the build for a width that is not a whole number of registers.
struct Whole<const H: usize>;
impl<const H: usize> Whole<H> {
    const OK: () = assert!(H % LANES == 0 && I32_CHUNK % LANES == 0);
}

#[inline]
#[target_feature(enable = "avx2")]
fn load(v: &[i16; LANES]) -> __m256i {
    // SAFETY: `v` is 32 readable bytes, and the load is unaligned.
    unsafe { _mm256_loadu_si256(v.as_ptr().cast()) }
}

#[inline]
#[target_feature(enable = "avx2")]
fn store(v: &mut [i16; LANES], x: __m256i) {
    // SAFETY: `v` is 32 writable bytes, and the store is unaligned.
    unsafe { _mm256_storeu_si256(v.as_mut_ptr().cast(), x) }
}

/// `acc += row`, wrapping.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn add_row<const H: usize>(acc: &mut [i16; H], row: &[i16; H]) {
    let () = Whole::<H>::OK;
    let (row, _) = row.as_chunks::<LANES>();
    for (a, r) in acc.as_chunks_mut::<LANES>().0.iter_mut().zip(row) {
        store(a, _mm256_add_epi16(load(a), load(r)));
    }
}

/// `out = parent + add − sub`, wrapping.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn add_sub<const H: usize>(
    out: &mut [i16; H],
    parent: &[i16; H],
    add: &[i16; H],
    sub: &[i16; H],
) {
    let () = Whole::<H>::OK;
    let rows = parent
        .as_chunks::<LANES>()
        .0
        .iter()
        .zip(add.as_chunks::<LANES>().0)
        .zip(sub.as_chunks::<LANES>().0);
    for (o, ((p, a), s)) in out.as_chunks_mut::<LANES>().0.iter_mut().zip(rows) {
        store(
            o,
            _mm256_sub_epi16(_mm256_add_epi16(load(p), load(a)), load(s)),
        );
    }
}

/// `out = parent + add − sub[0] − sub[1]`, wrapping.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn add_sub2<const H: usize>(
    out: &mut [i16; H],
    parent: &[i16; H],
    add: &[i16; H],
    sub: [&[i16; H]; 2],
) {
    let () = Whole::<H>::OK;
    let rows = parent
        .as_chunks::<LANES>()
        .0
        .iter()
        .zip(add.as_chunks::<LANES>().0)
        .zip(sub[0].as_chunks::<LANES>().0)
        .zip(sub[1].as_chunks::<LANES>().0);
    for (o, (((p, a), s1), s2)) in out.as_chunks_mut::<LANES>().0.iter_mut().zip(rows) {
        let x = _mm256_add_epi16(load(p), load(a));
        store(o, _mm256_sub_epi16(_mm256_sub_epi16(x, load(s1)), load(s2)));
    }
}

/// Both sides' SCReLU dot products, summed as the portable kernel sums
/// them (i32 per [`I32_CHUNK`] neurons of a side, i64 over those).
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn screlu_dot<const H: usize>(us: &[i16; H], them: &[i16; H], w: &[[i16; H]; 2]) -> i64 {
    let () = Whole::<H>::OK;
    let dot = |a: &[i16], w: &[i16]| dot_chunk(a, w);
    chunked_sum(us, &w[0], dot) + chunked_sum(them, &w[1], dot)
}

/// `Σ clamp(a, 0, QA)² · w` in i32 over one chunk (a whole number of
/// registers): `clamp(a) · w` in i16 (exact: every output weight of a
/// network on this path is within ±128), then `· clamp(a)` with pairs
/// added into i32 (`vpmaddwd`), two running sums for the latency.
#[inline]
#[target_feature(enable = "avx2")]
fn dot_chunk(a: &[i16], w: &[i16]) -> i32 {
    let (zero, qa) = (_mm256_setzero_si256(), _mm256_set1_epi16(QA as i16));
    let term = |a: &[i16; LANES], w: &[i16; LANES]| {
        let a = _mm256_min_epi16(_mm256_max_epi16(load(a), zero), qa);
        _mm256_madd_epi16(_mm256_mullo_epi16(a, load(w)), a)
    };
    let (a, _) = a.as_chunks::<LANES>();
    let (w, _) = w.as_chunks::<LANES>();
    let mut sums = [_mm256_setzero_si256(); 2];
    for (i, (a, w)) in a.iter().zip(w).enumerate() {
        sums[i % 2] = _mm256_add_epi32(sums[i % 2], term(a, w));
    }
    hsum(_mm256_add_epi32(sums[0], sums[1]))
}

/// The sum of the eight i32 lanes of `x`, wrapping.
#[inline]
#[target_feature(enable = "avx2")]
fn hsum(x: __m256i) -> i32 {
    let x = _mm_add_epi32(_mm256_castsi256_si128(x), _mm256_extracti128_si256::<1>(x));
    let x = _mm_add_epi32(x, _mm_shuffle_epi32::<0b01_00_11_10>(x));
    let x = _mm_add_epi32(x, _mm_shuffle_epi32::<0b10_11_00_01>(x));
    _mm_cvtsi128_si32(x)
}
