//! The AVX2 kernels of [`super::simd`]: the same functions as its portable
//! ones, 16 i16 lanes at a time. Every width H is a multiple of 16
//! (checked at compile time), so there is no remainder.
//!
//! The functions are safe to call only on a CPU with AVX2; their one
//! caller, [`super::simd`]'s dispatch, checks `is_x86_feature_detected!`
//! first. The only `unsafe` left inside are the loads and stores
//! ([`load`], [`store`]), of 16 i16 each from arrays of exactly 16,
//! aligned ones only where `aligned` said so.

#![cfg(target_arch = "x86_64")]

use super::network::QA;
use super::simd::{chunked_sum, I32_CHUNK};
use std::arch::x86_64::{
    __m256i, _mm256_add_epi16, _mm256_add_epi32, _mm256_castsi256_si128, _mm256_extracti128_si256,
    _mm256_lddqu_si256, _mm256_load_si256, _mm256_madd_epi16, _mm256_max_epi16, _mm256_min_epi16,
    _mm256_mullo_epi16, _mm256_set1_epi16, _mm256_setzero_si256, _mm256_store_si256,
    _mm256_storeu_si256, _mm256_sub_epi16, _mm_add_epi32, _mm_cvtsi128_si32, _mm_shuffle_epi32,
};

/// Lanes of one register.
const LANES: usize = 16;

/// Fails the build for a width that is not a whole number of registers.
struct Whole<const H: usize>;
impl<const H: usize> Whole<H> {
    const OK: () = assert!(H.is_multiple_of(LANES) && I32_CHUNK.is_multiple_of(LANES));
}

/// Whether every array at `ptrs` starts on a 32-byte boundary (then so
/// does each of its 16-lane chunks). The network's rows and heads and the
/// accumulators ([`super::Sums`]) are aligned to 64 by their types, so the
/// search always takes the aligned loops; the others stay for any array.
#[inline]
fn aligned(ptrs: impl IntoIterator<Item = *const i16>) -> bool {
    ptrs.into_iter().all(|p| (p as usize).is_multiple_of(32))
}

/// 16 lanes from `v`; `A`: `v` is 32-byte aligned.
#[inline]
#[target_feature(enable = "avx2")]
fn load<const A: bool>(v: &[i16; LANES]) -> __m256i {
    if A {
        // SAFETY: `v` is 32 readable bytes, aligned to 32 (`A`: the
        // caller checked with `aligned`).
        unsafe { _mm256_load_si256(v.as_ptr().cast()) }
    } else {
        // SAFETY: `v` is 32 readable bytes; `vlddqu` takes any address
        // (and, unlike `vmovdqu`, is not split in two by the x86-64-v2
        // tuning).
        unsafe { _mm256_lddqu_si256(v.as_ptr().cast()) }
    }
}

/// Writes 16 lanes to `v`; `A`: `v` is 32-byte aligned.
#[inline]
#[target_feature(enable = "avx2")]
fn store<const A: bool>(v: &mut [i16; LANES], x: __m256i) {
    if A {
        // SAFETY: `v` is 32 writable bytes, aligned to 32 (`A`: the
        // caller checked with `aligned`).
        unsafe { _mm256_store_si256(v.as_mut_ptr().cast(), x) }
    } else {
        // SAFETY: `v` is 32 writable bytes, and the store is unaligned.
        unsafe { _mm256_storeu_si256(v.as_mut_ptr().cast(), x) }
    }
}

/// `acc += row`, wrapping.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn add_row<const H: usize>(acc: &mut [i16; H], row: &[i16; H]) {
    let () = Whole::<H>::OK;
    match aligned([acc.as_ptr(), row.as_ptr()]) {
        true => add_row_at::<H, true>(acc, row),
        false => add_row_at::<H, false>(acc, row),
    }
}

#[inline]
#[target_feature(enable = "avx2")]
fn add_row_at<const H: usize, const A: bool>(acc: &mut [i16; H], row: &[i16; H]) {
    let (row, _) = row.as_chunks::<LANES>();
    for (a, r) in acc.as_chunks_mut::<LANES>().0.iter_mut().zip(row) {
        store::<A>(a, _mm256_add_epi16(load::<A>(a), load::<A>(r)));
    }
}

/// `out = parent + add − Σ sub`, wrapping.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn add_sub<const H: usize, const N: usize>(
    out: &mut [i16; H],
    parent: &[i16; H],
    add: &[i16; H],
    sub: [&[i16; H]; N],
) {
    let () = Whole::<H>::OK;
    let ptrs = [out.as_ptr(), parent.as_ptr(), add.as_ptr()];
    match aligned(ptrs.into_iter().chain(sub.map(|s| s.as_ptr()))) {
        true => add_sub_at::<H, N, true>(out, parent, add, sub),
        false => add_sub_at::<H, N, false>(out, parent, add, sub),
    }
}

#[inline]
#[target_feature(enable = "avx2")]
fn add_sub_at<const H: usize, const N: usize, const A: bool>(
    out: &mut [i16; H],
    parent: &[i16; H],
    add: &[i16; H],
    sub: [&[i16; H]; N],
) {
    // Indexed through each array's own chunks (of a compile-time count),
    // so that no index is checked.
    let chunk = |v: &[i16; H], j: usize| load::<A>(&v.as_chunks::<LANES>().0[j]);
    for (j, o) in out.as_chunks_mut::<LANES>().0.iter_mut().enumerate() {
        let x = _mm256_add_epi16(chunk(parent, j), chunk(add, j));
        let x = sub.iter().fold(x, |x, s| _mm256_sub_epi16(x, chunk(s, j)));
        store::<A>(o, x);
    }
}

/// Both sides' SCReLU dot products, summed as the portable kernel sums
/// them (i32 per [`I32_CHUNK`] neurons of a side, i64 over those).
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn screlu_dot<const H: usize>(us: &[i16; H], them: &[i16; H], w: &[[i16; H]; 2]) -> i64 {
    let () = Whole::<H>::OK;
    let ptrs = [us.as_ptr(), them.as_ptr(), w[0].as_ptr(), w[1].as_ptr()];
    if aligned(ptrs) {
        let dot = |a: &[i16], w: &[i16]| dot_chunk::<true>(a, w);
        chunked_sum(us, &w[0], dot) + chunked_sum(them, &w[1], dot)
    } else {
        let dot = |a: &[i16], w: &[i16]| dot_chunk::<false>(a, w);
        chunked_sum(us, &w[0], dot) + chunked_sum(them, &w[1], dot)
    }
}

/// `Σ clamp(a, 0, QA)² · w` in i32 over one chunk (a whole number of
/// registers; `A`: both 32-byte aligned): `clamp(a) · w` in i16 (exact: every output weight of a
/// network on this path is within ±128), then `· clamp(a)` with pairs
/// added into i32 (`vpmaddwd`), two running sums for the latency.
#[inline]
#[target_feature(enable = "avx2")]
fn dot_chunk<const A: bool>(a: &[i16], w: &[i16]) -> i32 {
    let (zero, qa) = (_mm256_setzero_si256(), _mm256_set1_epi16(QA as i16));
    let term = |a: &[i16; LANES], w: &[i16; LANES]| {
        let a = _mm256_min_epi16(_mm256_max_epi16(load::<A>(a), zero), qa);
        _mm256_madd_epi16(_mm256_mullo_epi16(a, load::<A>(w)), a)
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
