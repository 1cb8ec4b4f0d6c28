//! Transposition table (치환표): lock-free, packed into atomics; the one
//! `unsafe` is the cache hint of [`Tt::prefetch`], which reads nothing.
//!
//! Each entry is two `AtomicU64`: `data` and `key ^ data`. A reader accepts
//! an entry only when the two words agree with its key, so a torn write by
//! another thread (Lazy SMP) reads as a miss, never as a wrong hit with a
//! wrong move (moves from the table are still checked for pseudo-legality).
//!
//! `data` layout: bits 0..16 move, 16..32 score (i16), 32..48 static eval
//! (i16), 48..56 depth, 56..58 bound, 58..64 age (search generation).
//!
//! Replacement: four entries per bucket (64 bytes). A store for a key that
//! is already present overwrites it unless the old entry is from this
//! search, deeper by more than 3 plies and not exact (its move is kept when
//! the new store has none). Otherwise the victim is the entry with the
//! lowest `depth - 8 × age distance`: old generations go first, then
//! shallow entries.
//!
//! Clearing (`ucinewgame`, and `bench` before each of its positions) zeroes
//! only the buckets written since the last clear: a bit per bucket, set by
//! [`Tt::store`], says which. The table after a clear is all zeros either
//! way; a short search that touched a few thousand buckets of a large table
//! no longer pays for writing all of it.

use janggi_core::Move;
use std::sync::atomic::{AtomicU64, Ordering};

/// Entries per bucket.
const BUCKET: usize = 4;
/// Bytes per entry.
const ENTRY_BYTES: usize = 16;
/// Bytes per cache line (one bucket).
const CACHE_LINE: usize = 64;

/// Score bound of an entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at most the stored one (fail low).
    Upper = 1,
    /// The true score is at least the stored one (fail high).
    Lower = 2,
    /// Exact score.
    Exact = 3,
}

/// A table hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    /// Best or refutation move, if one was stored.
    pub mv: Option<Move>,
    /// Score, already adjusted to the probing ply.
    pub score: i32,
    /// Static evaluation.
    pub eval: i32,
    /// Depth of the search that stored it.
    pub depth: i32,
    /// Bound.
    pub bound: Bound,
}

/// The table.
pub struct Tt {
    words: Vec<AtomicU64>,
    /// First word of bucket 0: buckets start on a 64-byte boundary so that
    /// a probe touches one cache line.
    offset: usize,
    buckets: usize,
    /// One bit per bucket: written since the last clear.
    dirty: Vec<AtomicU64>,
    age: AtomicU64,
}

impl std::fmt::Debug for Tt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tt")
            .field("buckets", &self.buckets)
            .finish_non_exhaustive()
    }
}

#[inline]
fn pack(mv: Option<Move>, score: i32, eval: i32, depth: i32, bound: Bound, age: u64) -> u64 {
    let m = mv.map_or(0, |m| m.bits()) as u64;
    let s = (score.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16) as u64;
    let e = (eval.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16) as u64;
    let d = depth.clamp(0, 255) as u64;
    m | s << 16 | e << 32 | d << 48 | (bound as u64) << 56 | (age & 63) << 58
}

#[inline]
fn depth_of(data: u64) -> i32 {
    (data >> 48 & 0xFF) as i32
}

#[inline]
fn age_of(data: u64) -> u64 {
    data >> 58
}

#[inline]
fn bound_of(data: u64) -> Option<Bound> {
    match data >> 56 & 3 {
        1 => Some(Bound::Upper),
        2 => Some(Bound::Lower),
        3 => Some(Bound::Exact),
        _ => None,
    }
}

/// Mate and rule-win scores are stored relative to the node, not the root.
#[inline]
fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= super::score::WIN_BOUND {
        score + ply as i32
    } else if score <= -super::score::WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

#[inline]
fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= super::score::WIN_BOUND {
        score - ply as i32
    } else if score <= -super::score::WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

impl Tt {
    /// A table of about `mb` megabytes (at least one bucket).
    pub fn new(mb: usize) -> Tt {
        let bytes = mb.max(1).saturating_mul(1 << 20);
        let buckets = (bytes / (BUCKET * ENTRY_BYTES)).max(1);
        let words_per_line = CACHE_LINE / std::mem::size_of::<AtomicU64>();
        let mut words = Vec::new();
        words.resize_with(buckets * BUCKET * 2 + words_per_line, || AtomicU64::new(0));
        let addr = words.as_ptr() as usize;
        let offset =
            (CACHE_LINE - addr % CACHE_LINE) % CACHE_LINE / std::mem::size_of::<AtomicU64>();
        let mut dirty = Vec::new();
        dirty.resize_with(buckets.div_ceil(64), || AtomicU64::new(0));
        Tt {
            words,
            offset,
            buckets,
            dirty,
            age: AtomicU64::new(0),
        }
    }

    /// Empties the table: zeroes the buckets written since the last clear.
    /// Call it while no search runs (a store racing with it may survive the
    /// clear, which costs nothing but a stale entry: every probe checks its
    /// key).
    pub fn clear(&self) {
        let per_bucket = BUCKET * 2;
        for (i, d) in self.dirty.iter().enumerate() {
            let mut bits = d.swap(0, Ordering::Relaxed);
            while bits != 0 {
                let n = i * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let start = self.offset + n * per_bucket;
                for w in &self.words[start..start + per_bucket] {
                    w.store(0, Ordering::Relaxed);
                }
            }
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Hints the CPU to bring `key`'s bucket into the cache, ahead of its
    /// probe (no effect on the result; a no-op off x86-64).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let p = self.words[self.bucket(key)].as_ptr();
            // SAFETY: a prefetch never faults and reads nothing the program
            // sees; `p` points into `self.words` anyway. SSE is part of
            // every x86-64 target.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p.cast::<i8>().cast_const()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Marks bucket `b` (its first word's index) as written.
    #[inline]
    fn mark(&self, b: usize) {
        let n = (b - self.offset) / (BUCKET * 2);
        let bit = 1u64 << (n % 64);
        let d = &self.dirty[n / 64];
        if d.load(Ordering::Relaxed) & bit == 0 {
            d.fetch_or(bit, Ordering::Relaxed);
        }
    }

    /// Starts a new search generation (older entries age).
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        self.offset + ((key as u128 * self.buckets as u128) >> 64) as usize * BUCKET * 2
    }

    /// Looks up `key` for a node at `ply`.
    #[inline]
    pub fn probe(&self, key: u64, ply: usize) -> Option<Hit> {
        let b = self.bucket(key);
        for i in 0..BUCKET {
            let w = b + 2 * i;
            let data = self.words[w + 1].load(Ordering::Relaxed);
            let check = self.words[w].load(Ordering::Relaxed);
            if data != 0 && check ^ data == key {
                let bound = bound_of(data)?;
                return Some(Hit {
                    mv: Move::from_bits(data as u16),
                    score: from_tt((data >> 16) as u16 as i16 as i32, ply),
                    eval: (data >> 32) as u16 as i16 as i32,
                    depth: depth_of(data),
                    bound,
                });
            }
        }
        None
    }

    /// Stores a result for `key` found at `ply`.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn store(
        &self,
        key: u64,
        ply: usize,
        mv: Option<Move>,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
    ) {
        let age = self.age.load(Ordering::Relaxed) & 63;
        let b = self.bucket(key);
        self.mark(b);
        let mut victim = b;
        let mut worst = i32::MAX;
        for i in 0..BUCKET {
            let w = b + 2 * i;
            let data = self.words[w + 1].load(Ordering::Relaxed);
            let check = self.words[w].load(Ordering::Relaxed);
            if data != 0 && check ^ data == key {
                let old_depth = depth_of(data);
                if bound != Bound::Exact && age_of(data) == age && old_depth > depth + 3 {
                    return;
                }
                let mv = mv.or_else(|| Move::from_bits(data as u16));
                let new = pack(mv, to_tt(score, ply), eval, depth, bound, age);
                self.words[w + 1].store(new, Ordering::Relaxed);
                self.words[w].store(key ^ new, Ordering::Relaxed);
                return;
            }
            let value = if data == 0 {
                i32::MIN
            } else {
                let dist = ((age + 64 - age_of(data)) & 63) as i32;
                depth_of(data) - 8 * dist
            };
            if value < worst {
                worst = value;
                victim = w;
            }
        }
        let new = pack(mv, to_tt(score, ply), eval, depth, bound, age);
        self.words[victim + 1].store(new, Ordering::Relaxed);
        self.words[victim].store(key ^ new, Ordering::Relaxed);
    }

    /// Permille of sampled entries used by the current search generation.
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed) & 63;
        let n = (self.buckets * BUCKET).min(1000);
        if n == 0 {
            return 0;
        }
        let used = (0..n)
            .filter(|&i| {
                let data = self.words[self.offset + 2 * i + 1].load(Ordering::Relaxed);
                data != 0 && age_of(data) == age
            })
            .count();
        (used * 1000 / n) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use janggi_core::Square;

    #[test]
    fn store_and_probe_round_trip() {
        let tt = Tt::new(1);
        let mv = Move::new(Square::ALL[1], Square::ALL[20]);
        tt.store(0xDEAD_BEEF, 3, mv, -123, 45, 7, Bound::Lower);
        let hit = tt.probe(0xDEAD_BEEF, 3).expect("hit");
        assert_eq!(hit.mv, mv);
        assert_eq!(
            (hit.score, hit.eval, hit.depth, hit.bound),
            (-123, 45, 7, Bound::Lower)
        );
        assert!(tt.probe(0xDEAD_BEEE, 3).is_none());
    }

    #[test]
    fn clear_zeroes_every_written_bucket_and_only_needs_those() {
        let tt = Tt::new(1);
        let mut key = 0x1234_5678_9ABC_DEF0u64;
        let mut keys = Vec::new();
        for i in 0..20_000 {
            // SplitMix64's step: keys spread over all the buckets.
            key = key.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let k = (key ^ key >> 31).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            tt.store(k, 0, None, i % 100, 0, i % 20, Bound::Exact);
            keys.push(k);
        }
        // 20,000 stores in 16,384 buckets of 4: about 70 % of the buckets hold
        // something, and every such bucket is marked.
        let written = tt
            .words
            .iter()
            .filter(|w| w.load(Ordering::Relaxed) != 0)
            .count();
        assert!(written > 30_000, "{written} of {}", tt.words.len());
        let used = (0..tt.buckets)
            .filter(|n| {
                let start = tt.offset + n * BUCKET * 2;
                tt.words[start..start + BUCKET * 2]
                    .iter()
                    .any(|w| w.load(Ordering::Relaxed) != 0)
            })
            .count();
        let marked: u32 = tt
            .dirty
            .iter()
            .map(|d| d.load(Ordering::Relaxed).count_ones())
            .sum();
        assert_eq!(marked as usize, used);
        assert!(used > tt.buckets * 2 / 3, "{used} of {}", tt.buckets);
        tt.clear();
        assert!(tt.words.iter().all(|w| w.load(Ordering::Relaxed) == 0));
        assert!(tt.dirty.iter().all(|d| d.load(Ordering::Relaxed) == 0));
        assert!(keys.iter().all(|&k| tt.probe(k, 0).is_none()));
        // A second round after the clear is cleared as well.
        tt.store(keys[7], 0, None, 1, 0, 3, Bound::Lower);
        assert!(tt.probe(keys[7], 0).is_some());
        tt.clear();
        assert!(tt.words.iter().all(|w| w.load(Ordering::Relaxed) == 0));
    }

    #[test]
    fn mate_scores_are_ply_relative() {
        let tt = Tt::new(1);
        let mate_in_3_from_ply_2 = super::super::score::MATE - 5;
        tt.store(42, 2, None, mate_in_3_from_ply_2, 0, 5, Bound::Exact);
        // Seen from ply 4 the same node's mate is 2 plies further from the root.
        let hit = tt.probe(42, 4).expect("hit");
        assert_eq!(hit.score, super::super::score::MATE - 7);
        tt.clear();
        assert!(tt.probe(42, 4).is_none());
    }
}
