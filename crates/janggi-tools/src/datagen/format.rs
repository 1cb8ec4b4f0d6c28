//! The training-data file: fixed-size little-endian records, appendable,
//! resumable and concatenable.
//!
//! # Layout
//!
//! A file is a sequence of 48-byte blocks. A block whose bytes 12..16 are
//! `FF FF FF FF` is a **header** (a record can never have them: they hold
//! bits 96..127 of the occupancy, and the board has 90 points):
//!
//! | bytes | header field |
//! |---|---|
//! | 0..8 | magic `JANGGI\0D` |
//! | 8..12 | format version (u32, [`VERSION`]) |
//! | 12..16 | `FF FF FF FF` |
//! | 16..20 | record size (u32, 48) |
//! | 20..48 | zero |
//!
//! Every other block is a **record** (one position):
//!
//! | bytes | record field |
//! |---|---|
//! | 0..16 | occupancy, u128, bit `rank * 9 + file` |
//! | 16..32 | the pieces in ascending point order, one nibble each (low nibble first): `color * 8 + kind`, colour 0 Cho / 1 Han, kind in [`PieceKind::ALL`] order |
//! | 32 | side to move (0 Cho, 1 Han) |
//! | 33 | the game's result from Cho's view (0 Han won, 1 draw, 2 Cho won) |
//! | 34..36 | search score, i16 centipawns, side to move's view |
//! | 36..40 | game id (u32) |
//! | 40..42 | game ply of the position (u16, saturating) |
//! | 42..44 | index of the record within its game (u16) |
//! | 44..46 | number of records of its game (u16) |
//! | 46..48 | zero |
//!
//! A game's records are written together, so only the file's tail can hold
//! a partial game (a run killed mid-write); [`DataWriter::open`] cuts it off
//! before appending. Since a header is itself a block, `cat a.bin b.bin`
//! is a valid file (the shards of a job array concatenate).

use janggi_core::{Bitboard, Color, Piece, PieceKind, Position, PositionError, Square};
use std::collections::HashSet;
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::Path;

/// The size of a header or record block in bytes.
pub const BLOCK: usize = 48;
/// The file format version.
pub const VERSION: u32 = 1;
const MAGIC: &[u8; 8] = b"JANGGI\0D";

/// A game result from Cho's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Wdl {
    /// Han won.
    HanWin,
    /// Draw.
    Draw,
    /// Cho won.
    ChoWin,
}

impl Wdl {
    /// The result from Cho's view as 0, ½ or 1.
    pub fn cho_score(self) -> f32 {
        match self {
            Wdl::HanWin => 0.0,
            Wdl::Draw => 0.5,
            Wdl::ChoWin => 1.0,
        }
    }

    /// The result as a score (0, ½, 1) for `side`.
    pub fn score_for(self, side: Color) -> f32 {
        match side {
            Color::Cho => self.cho_score(),
            Color::Han => 1.0 - self.cho_score(),
        }
    }

    /// The result for a game won by `winner` (`None`: a draw).
    pub fn from_winner(winner: Option<Color>) -> Wdl {
        match winner {
            Some(Color::Cho) => Wdl::ChoWin,
            Some(Color::Han) => Wdl::HanWin,
            None => Wdl::Draw,
        }
    }
}

/// One training position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// Occupied points.
    pub occupied: u128,
    /// The pieces in ascending point order, a nibble each.
    pub pieces: [u8; 16],
    /// Side to move.
    pub side: Color,
    /// The game's result.
    pub result: Wdl,
    /// The search score in centipawns, side to move's view.
    pub score: i16,
    /// The game this position comes from.
    pub game: u32,
    /// Game ply of the position.
    pub ply: u16,
    /// Index within the game's records.
    pub index: u16,
    /// Number of records of the game.
    pub count: u16,
}

/// Why a file or block could not be read.
#[derive(Debug)]
pub enum DataError {
    /// The file system said no.
    Io(io::Error),
    /// The file does not start with a header block.
    NoHeader,
    /// A header with a different magic, version or record size.
    BadHeader {
        /// Byte offset of the header.
        offset: u64,
    },
    /// A record that does not decode to a valid position.
    BadRecord {
        /// Byte offset of the record.
        offset: u64,
        /// What is wrong with it.
        why: RecordError,
    },
}

/// What is wrong with one record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// More than 32 pieces, or bits at 90 and above.
    Occupancy,
    /// A nibble that is not a piece.
    Piece(u8),
    /// Side-to-move or result byte out of range.
    Field,
    /// The pieces do not form a valid position.
    Position(PositionError),
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Occupancy => write!(f, "bad occupancy"),
            RecordError::Piece(n) => write!(f, "bad piece nibble {n}"),
            RecordError::Field => write!(f, "bad side-to-move or result byte"),
            RecordError::Position(e) => write!(f, "invalid position: {e}"),
        }
    }
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataError::Io(e) => write!(f, "{e}"),
            DataError::NoHeader => write!(f, "not a janggi training-data file (no header)"),
            DataError::BadHeader { offset } => {
                write!(
                    f,
                    "unknown header at byte {offset} (magic, version or size)"
                )
            }
            DataError::BadRecord { offset, why } => write!(f, "record at byte {offset}: {why}"),
        }
    }
}

impl std::error::Error for DataError {}

impl From<io::Error> for DataError {
    fn from(e: io::Error) -> Self {
        DataError::Io(e)
    }
}

/// The header block.
pub fn header() -> [u8; BLOCK] {
    let mut b = [0u8; BLOCK];
    b[0..8].copy_from_slice(MAGIC);
    b[8..12].copy_from_slice(&VERSION.to_le_bytes());
    b[12..16].copy_from_slice(&[0xFF; 4]);
    b[16..20].copy_from_slice(&(BLOCK as u32).to_le_bytes());
    b
}

/// Whether a block is a header (valid or not).
fn is_header(b: &[u8]) -> bool {
    b[12..16] == [0xFF; 4]
}

fn header_ok(b: &[u8]) -> bool {
    b == header()
}

fn nibble(p: Piece) -> u8 {
    (p.color.index() as u8) * 8 + p.kind.index() as u8
}

fn from_nibble(n: u8) -> Option<Piece> {
    let color = match n >> 3 {
        0 => Color::Cho,
        _ => Color::Han,
    };
    PieceKind::ALL
        .get(usize::from(n & 7))
        .map(|&k| Piece::new(color, k))
}

impl Record {
    /// The record of `pos` (the game fields are filled in by the writer).
    pub fn new(pos: &Position, score: i16, ply: u32) -> Record {
        let mut occupied = 0u128;
        let mut pieces = [0u8; 16];
        let mut n = 0;
        for sq in Square::ALL {
            if let Some(p) = pos.piece_at(sq) {
                occupied |= 1u128 << sq.index();
                if n < 32 {
                    pieces[n / 2] |= nibble(p) << (4 * (n % 2));
                }
                n += 1;
            }
        }
        Record {
            occupied,
            pieces,
            side: pos.side_to_move(),
            result: Wdl::Draw,
            score,
            game: 0,
            ply: ply.min(u32::from(u16::MAX)) as u16,
            index: 0,
            count: 0,
        }
    }

    /// The (piece, point) pairs, in ascending point order. Nibbles that are
    /// not pieces are skipped (only [`Record::decode`]d records are valid).
    pub fn piece_squares(&self) -> impl Iterator<Item = (Piece, Square)> + '_ {
        Bitboard(self.occupied)
            .iter()
            .enumerate()
            .filter_map(|(i, sq)| {
                let n = (self.pieces.get(i / 2)? >> (4 * (i % 2))) & 0xF;
                Some((from_nibble(n)?, sq))
            })
    }

    /// The position (counters zero, no history).
    ///
    /// # Errors
    /// When the pieces do not form a valid position.
    pub fn position(&self) -> Result<Position, PositionError> {
        let mut board = [None; 90];
        for (p, sq) in self.piece_squares() {
            board[sq.index()] = Some(p);
        }
        Position::from_board(board, self.side)
    }

    /// The 48-byte block.
    pub fn encode(&self) -> [u8; BLOCK] {
        let mut b = [0u8; BLOCK];
        b[0..16].copy_from_slice(&self.occupied.to_le_bytes());
        b[16..32].copy_from_slice(&self.pieces);
        b[32] = self.side.index() as u8;
        b[33] = match self.result {
            Wdl::HanWin => 0,
            Wdl::Draw => 1,
            Wdl::ChoWin => 2,
        };
        b[34..36].copy_from_slice(&self.score.to_le_bytes());
        b[36..40].copy_from_slice(&self.game.to_le_bytes());
        b[40..42].copy_from_slice(&self.ply.to_le_bytes());
        b[42..44].copy_from_slice(&self.index.to_le_bytes());
        b[44..46].copy_from_slice(&self.count.to_le_bytes());
        b
    }

    /// Decodes and checks a record block.
    ///
    /// # Errors
    /// When the block is not a valid position record.
    pub fn decode(b: &[u8; BLOCK]) -> Result<Record, RecordError> {
        let u16_at = |i: usize| u16::from_le_bytes([b[i], b[i + 1]]);
        let mut occ = [0u8; 16];
        occ.copy_from_slice(&b[0..16]);
        let occupied = u128::from_le_bytes(occ);
        let count = occupied.count_ones() as usize;
        if occupied >> 90 != 0 || count > 32 {
            return Err(RecordError::Occupancy);
        }
        let mut pieces = [0u8; 16];
        pieces.copy_from_slice(&b[16..32]);
        for i in 0..count {
            let n = (pieces[i / 2] >> (4 * (i % 2))) & 0xF;
            if from_nibble(n).is_none() {
                return Err(RecordError::Piece(n));
            }
        }
        let side = match b[32] {
            0 => Color::Cho,
            1 => Color::Han,
            _ => return Err(RecordError::Field),
        };
        let result = match b[33] {
            0 => Wdl::HanWin,
            1 => Wdl::Draw,
            2 => Wdl::ChoWin,
            _ => return Err(RecordError::Field),
        };
        let r = Record {
            occupied,
            pieces,
            side,
            result,
            score: i16::from_le_bytes([b[34], b[35]]),
            game: u32::from_le_bytes([b[36], b[37], b[38], b[39]]),
            ply: u16_at(40),
            index: u16_at(42),
            count: u16_at(44),
        };
        r.position().map_err(RecordError::Position)?;
        Ok(r)
    }
}

/// Reads every record of a data file (headers may repeat: concatenated
/// shards). A partial game at the end (a run killed mid-write, or one
/// still writing) is dropped, as the writer would.
///
/// # Errors
/// A missing or foreign header, or an invalid record.
pub fn read_file(path: &Path) -> Result<Vec<Record>, DataError> {
    let len = std::fs::metadata(path)?.len();
    let mut records = Vec::with_capacity((len / BLOCK as u64) as usize);
    scan(File::open(path)?, |game| records.extend_from_slice(game))?;
    Ok(records)
}

/// Streams a file's blocks, one at a time, and hands each **whole** game's
/// records to `game` (a game's records are contiguous, so a game that is
/// cut short — a killed run's tail, or a killed shard's tail followed by
/// another shard — never reaches it). A trailing part block is ignored.
/// Returns the byte length up to the end of the last whole game (with the
/// headers up to there): where a writer resumes.
fn scan(reader: impl Read, mut game: impl FnMut(&[Record])) -> Result<u64, DataError> {
    let mut reader = io::BufReader::with_capacity(1 << 16, reader);
    let mut block = [0u8; BLOCK];
    if !read_block(&mut reader, &mut block)? {
        return Err(DataError::NoHeader);
    }
    if !header_ok(&block) {
        return Err(if is_header(&block) {
            DataError::BadHeader { offset: 0 }
        } else {
            DataError::NoHeader
        });
    }
    // The records of the game being read, not yet known to be whole.
    let mut pending: Vec<Record> = Vec::new();
    let mut good_len = BLOCK as u64;
    let mut offset = BLOCK as u64;
    while read_block(&mut reader, &mut block)? {
        if is_header(&block) {
            if !header_ok(&block) {
                return Err(DataError::BadHeader { offset });
            }
            if pending.is_empty() {
                good_len = offset + BLOCK as u64;
            }
        } else {
            let r = Record::decode(&block).map_err(|why| DataError::BadRecord { offset, why })?;
            // A record that does not continue the pending game starts a
            // new one; the pending part game is dropped.
            if pending
                .last()
                .is_some_and(|p| p.game != r.game || p.index + 1 != r.index)
            {
                pending.clear();
            }
            let last = r.index + 1 == r.count;
            if r.index == 0 || !pending.is_empty() {
                pending.push(r);
            }
            if last && !pending.is_empty() {
                game(&pending);
                pending.clear();
                good_len = offset + BLOCK as u64;
            }
        }
        offset += BLOCK as u64;
    }
    Ok(good_len)
}

/// Fills `block` from `reader`; false at the end of the input (or before a
/// trailing part block).
fn read_block(reader: &mut impl Read, block: &mut [u8; BLOCK]) -> io::Result<bool> {
    let mut filled = 0;
    while filled < BLOCK {
        match reader.read(&mut block[filled..]) {
            Ok(0) => return Ok(false),
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(true)
}

/// Appends whole games to a data file.
#[derive(Debug)]
pub struct DataWriter {
    file: File,
    records: u64,
}

impl DataWriter {
    /// Opens (or creates) `path` for appending. An existing file is checked
    /// and a partial game at its end (a killed run) is cut off. Returns the
    /// writer and the ids of the games already in the file.
    ///
    /// # Errors
    /// As [`read_file`].
    pub fn open(path: &Path) -> Result<(DataWriter, HashSet<u32>), DataError> {
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)?;
        let (games, records, len) = if file.metadata()?.len() == 0 {
            file.write_all(&header())?;
            (HashSet::new(), 0, BLOCK as u64)
        } else {
            let mut games = HashSet::new();
            let mut records = 0u64;
            let len = scan(&mut file, |game| {
                games.insert(game[0].game);
                records += game.len() as u64;
            })?;
            (games, records, len)
        };
        file.set_len(len)?;
        file.seek(SeekFrom::Start(len))?;
        Ok((DataWriter { file, records }, games))
    }

    /// Appends one game's records (their game fields are set here) and
    /// flushes them to the file.
    ///
    /// # Errors
    /// When the write fails.
    pub fn write_game(&mut self, game: u32, result: Wdl, records: &[Record]) -> io::Result<()> {
        let count = records.len().min(usize::from(u16::MAX)) as u16;
        let mut buf = Vec::with_capacity(records.len() * BLOCK);
        for (i, r) in records.iter().take(usize::from(count)).enumerate() {
            let r = Record {
                game,
                result,
                index: i as u16,
                count,
                ..*r
            };
            buf.extend_from_slice(&r.encode());
        }
        self.file.write_all(&buf)?;
        self.file.flush()?;
        self.records += u64::from(count);
        Ok(())
    }

    /// Records in the file (whole games).
    pub fn records(&self) -> u64 {
        self.records
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use janggi_core::Setup;

    fn tmp(name: &str) -> std::path::PathBuf {
        let p = std::env::temp_dir().join(format!("janggi-fmt-{}-{name}", std::process::id()));
        let _ = std::fs::remove_file(&p);
        p
    }

    #[test]
    fn record_round_trip() {
        let pos = Position::from_setups(Setup::Smsm, Setup::Msms);
        let r = Record {
            game: 7,
            index: 0,
            count: 1,
            result: Wdl::ChoWin,
            ..Record::new(&pos, -123, 5)
        };
        let back = Record::decode(&r.encode()).unwrap();
        assert_eq!(back, r);
        assert_eq!(back.position().unwrap().fen(), pos.fen());
        assert_eq!(back.score, -123);
    }

    #[test]
    fn bad_blocks_are_refused() {
        let pos = Position::startpos();
        let mut b = Record::new(&pos, 0, 0).encode();
        b[32] = 5;
        assert_eq!(Record::decode(&b), Err(RecordError::Field));
        let mut b = Record::new(&pos, 0, 0).encode();
        b[16] = 0x77; // two non-pieces
        assert!(matches!(Record::decode(&b), Err(RecordError::Piece(_))));
        let mut b = Record::new(&pos, 0, 0).encode();
        // Remove Cho's general's nibble meaning: turn every nibble into a soldier.
        for x in &mut b[16..32] {
            *x = 0x66;
        }
        assert!(matches!(Record::decode(&b), Err(RecordError::Position(_))));
    }

    #[test]
    fn partial_tail_is_cut_and_files_concatenate() {
        let pos = Position::startpos();
        let recs = vec![Record::new(&pos, 10, 0); 3];
        let a = tmp("a");
        {
            let (mut w, games) = DataWriter::open(&a).unwrap();
            assert!(games.is_empty());
            w.write_game(1, Wdl::ChoWin, &recs).unwrap();
            w.write_game(3, Wdl::Draw, &recs).unwrap();
        }
        // Simulate a run killed in the middle of a game: one record of
        // game 5 of 3, then half a block.
        {
            let mut f = OpenOptions::new().append(true).open(&a).unwrap();
            let r = Record {
                game: 5,
                index: 0,
                count: 3,
                ..recs[0]
            };
            f.write_all(&r.encode()).unwrap();
            f.write_all(&[1, 2, 3]).unwrap();
        }
        // Readers see the two whole games only.
        assert_eq!(read_file(&a).unwrap().len(), 6);
        let (mut w, games) = DataWriter::open(&a).unwrap();
        assert_eq!(games, HashSet::from([1, 3]));
        assert_eq!(w.records(), 6);
        w.write_game(5, Wdl::HanWin, &recs[..2]).unwrap();
        drop(w);
        let all = read_file(&a).unwrap();
        assert_eq!(all.len(), 8);
        assert_eq!(all[6].game, 5);
        assert_eq!(all[7].result, Wdl::HanWin);
        // cat a a > b reads as twice the records.
        let b = tmp("b");
        let bytes = std::fs::read(&a).unwrap();
        std::fs::write(&b, [bytes.clone(), bytes.clone()].concat()).unwrap();
        assert_eq!(read_file(&b).unwrap().len(), 16);
        // A killed shard's part game followed by another shard: the part
        // game is dropped, the games after it are kept.
        let part = Record {
            game: 9,
            index: 0,
            count: 3,
            ..recs[0]
        };
        let image = [bytes.as_slice(), &part.encode(), &part.encode(), &bytes].concat();
        std::fs::write(&b, image).unwrap();
        let all = read_file(&b).unwrap();
        assert_eq!(all.len(), 16);
        assert!(all.iter().all(|r| r.game != 9));
        let (w, games) = DataWriter::open(&b).unwrap();
        assert_eq!((w.records(), games), (16, HashSet::from([1, 3, 5])));
        drop(w);
        // A foreign header is refused.
        let mut bad = std::fs::read(&a).unwrap();
        bad[8] = 9;
        std::fs::write(&b, bad).unwrap();
        assert!(matches!(read_file(&b), Err(DataError::BadHeader { .. })));
        let _ = std::fs::remove_file(&a);
        let _ = std::fs::remove_file(&b);
    }
}
