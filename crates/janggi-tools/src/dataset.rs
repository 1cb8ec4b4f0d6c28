//! A training set that grows generation after generation: a directory of
//! deduplicated parts and a manifest that says where each came from.
//!
//! ```text
//! DIR/manifest.tsv            one line a part (below)
//! DIR/parts/001-gen6data.bin  the positions of gen6data.bin not already in the set
//! DIR/parts/002-gen7data.bin  …
//! ```
//!
//! `janggi-tools dataset add --set DIR --data FILE` reads `FILE` (whole
//! games only, as the trainer does), drops every position the set already
//! holds — in earlier parts or earlier in `FILE`: the same points, pieces
//! and side to move — and writes the rest as the next part, each game's
//! kept positions still together (a valid data file the trainer and
//! `cat` take as any other). The manifest line records the part, its
//! source, the counts (games, positions read, kept, duplicates) and the
//! source's provenance (which network played it, nodes, seed and rules:
//! [`crate::datagen::provenance`]). Adding a source again after its
//! datagen run went on adds only its new positions.
//!
//! `janggi-tools train --data DIR` trains on every part of the set.
//!
//! A part is written under a temporary name and renamed, and only then is
//! its manifest line appended: an interrupted `add` leaves the set as it
//! was (a stray temporary file is overwritten by the next `add`).

use crate::datagen::format::{read_file, DataError, DataWriter, Record};
use crate::datagen::provenance;
use std::collections::HashSet;
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The manifest's file name inside a set's directory.
pub const MANIFEST: &str = "manifest.tsv";

const HEADER: &str =
    "# part\tsource\tadded_unix\tgeneration\tgames\tpositions_read\tkept\tduplicates\tprovenance";

/// One part of a set, as its manifest line says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    /// The part's file, relative to the set's directory.
    pub file: String,
    /// The data file it was made from.
    pub source: String,
    /// When it was added (seconds since 1970, UTC).
    pub added_unix: u64,
    /// The generation it belongs to (`-` when not given).
    pub generation: String,
    /// Games with at least one position kept.
    pub games: u64,
    /// Positions read from the source.
    pub read: u64,
    /// Positions kept (new to the set).
    pub kept: u64,
    /// Positions dropped as already in the set.
    pub duplicates: u64,
    /// The source's provenance, one `;`-separated summary a run.
    pub provenance: String,
}

impl Part {
    fn line(&self) -> String {
        format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
            self.file,
            self.source.replace('\t', " "),
            self.added_unix,
            self.generation.replace('\t', " "),
            self.games,
            self.read,
            self.kept,
            self.duplicates,
            self.provenance.replace('\t', " ")
        )
    }

    fn parse(line: &str) -> Option<Part> {
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() != 9 {
            return None;
        }
        Some(Part {
            file: f[0].to_string(),
            source: f[1].to_string(),
            added_unix: f[2].parse().ok()?,
            generation: f[3].to_string(),
            games: f[4].parse().ok()?,
            read: f[5].parse().ok()?,
            kept: f[6].parse().ok()?,
            duplicates: f[7].parse().ok()?,
            provenance: f[8].to_string(),
        })
    }
}

/// Why a set cannot be read or grown.
#[derive(Debug)]
pub enum DatasetError {
    /// A data file (a part or the source) could not be read or written.
    Data(PathBuf, DataError),
    /// The manifest could not be read or written.
    Io(PathBuf, std::io::Error),
    /// A manifest line that does not parse.
    Manifest {
        /// The manifest.
        path: PathBuf,
        /// 1-based line.
        line: usize,
    },
    /// A `--data` directory that is not a set.
    NotASet(PathBuf),
}

impl fmt::Display for DatasetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DatasetError::Data(p, e) => write!(f, "{}: {e}", p.display()),
            DatasetError::Io(p, e) => write!(f, "{}: {e}", p.display()),
            DatasetError::Manifest { path, line } => {
                write!(f, "{}, line {line}: not a manifest line", path.display())
            }
            DatasetError::NotASet(p) => write!(
                f,
                "{} is a directory without {MANIFEST} (not a dataset: janggi-tools dataset add makes one)",
                p.display()
            ),
        }
    }
}

impl std::error::Error for DatasetError {}

/// The key of a position: points, pieces and side to move (labels and
/// game fields aside), hashed to 64 bits.
fn key(r: &Record) -> u64 {
    let mix = |z: u64| janggi_core::rng::splitmix64(z).1;
    let pieces = u128::from_le_bytes(r.pieces);
    let mut h = mix(r.occupied as u64);
    for w in [
        (r.occupied >> 64) as u64,
        pieces as u64,
        (pieces >> 64) as u64,
        r.side as u64,
    ] {
        h = mix(h ^ w);
    }
    h
}

/// A one-line summary of each run in a source's provenance file.
fn provenance_summary(source: &Path) -> String {
    let runs = provenance::read(source);
    if runs.is_empty() {
        return "unknown (no .provenance file)".to_string();
    }
    let mut out: Vec<String> = Vec::new();
    for run in &runs {
        let get = |k| provenance::get(run, k).unwrap_or("?");
        let net = get("network_sha256");
        let s = format!(
            "{} net={} nodes={} seed={} variant={}",
            get("eval"),
            &net[..net.len().min(16)],
            get("nodes"),
            get("seed"),
            get("variant")
        );
        let s = match provenance::get(run, "relabel_of") {
            Some(src) => format!("{s} relabel_of={src} fraction={}", get("fraction")),
            None => s,
        };
        if !out.contains(&s) {
            out.push(s);
        }
    }
    out.join("; ")
}

/// A dataset directory.
#[derive(Clone, Debug)]
pub struct Dataset {
    dir: PathBuf,
}

impl Dataset {
    /// The set in `dir` (nothing is read or made yet).
    pub fn at(dir: &Path) -> Dataset {
        Dataset {
            dir: dir.to_path_buf(),
        }
    }

    fn manifest(&self) -> PathBuf {
        self.dir.join(MANIFEST)
    }

    /// The parts, in the order they were added (none for a new set).
    ///
    /// # Errors
    /// A manifest that cannot be read or parsed.
    pub fn parts(&self) -> Result<Vec<Part>, DatasetError> {
        let path = self.manifest();
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(DatasetError::Io(path, e)),
        };
        text.lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
            .map(|(i, l)| {
                Part::parse(l).ok_or_else(|| DatasetError::Manifest {
                    path: path.clone(),
                    line: i + 1,
                })
            })
            .collect()
    }

    /// The parts' files.
    ///
    /// # Errors
    /// As [`Dataset::parts`].
    pub fn files(&self) -> Result<Vec<PathBuf>, DatasetError> {
        Ok(self
            .parts()?
            .iter()
            .map(|p| self.dir.join(&p.file))
            .collect())
    }

    /// Adds `source`'s positions that the set does not hold yet as a new
    /// part; returns its manifest entry (`kept` 0, and no part written,
    /// when nothing was new).
    ///
    /// # Errors
    /// A part, the source or the manifest that cannot be read or written.
    pub fn add(&self, source: &Path, generation: Option<&str>) -> Result<Part, DatasetError> {
        let parts = self.parts()?;
        let mut seen: HashSet<u64> = HashSet::new();
        for f in self.files()? {
            let records = read_file(&f).map_err(|e| DatasetError::Data(f.clone(), e))?;
            seen.extend(records.iter().map(key));
        }
        let records = read_file(source).map_err(|e| DatasetError::Data(source.to_path_buf(), e))?;
        let stem = source
            .file_stem()
            .map_or("data".into(), |s| s.to_string_lossy().into_owned());
        let file = format!("parts/{:03}-{stem}.bin", parts.len() + 1);
        let path = self.dir.join(&file);
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        let tmp = PathBuf::from(tmp);
        std::fs::create_dir_all(self.dir.join("parts"))
            .map_err(|e| DatasetError::Io(self.dir.join("parts"), e))?;
        let _ = std::fs::remove_file(&tmp);
        let data_err = |e| DatasetError::Data(tmp.clone(), e);
        let (mut writer, _) = DataWriter::open(&tmp).map_err(data_err)?;
        let (mut games, mut kept) = (0u64, 0u64);
        // A game's records are contiguous and numbered from 0 (read_file
        // hands over whole games only).
        for game in records.chunk_by(|a, b| a.game == b.game && a.index + 1 == b.index) {
            let new: Vec<Record> = game
                .iter()
                .filter(|r| seen.insert(key(r)))
                .copied()
                .collect();
            if !new.is_empty() {
                writer
                    .write_game(game[0].game, game[0].result, &new)
                    .map_err(|e| data_err(DataError::Io(e)))?;
                games += 1;
                kept += new.len() as u64;
            }
        }
        drop(writer);
        let read = records.len() as u64;
        let part = Part {
            file,
            source: source.display().to_string(),
            added_unix: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs()),
            generation: generation.unwrap_or("-").to_string(),
            games,
            read,
            kept,
            duplicates: read - kept,
            provenance: provenance_summary(source),
        };
        if kept == 0 {
            let _ = std::fs::remove_file(&tmp);
            return Ok(part);
        }
        std::fs::rename(&tmp, &path).map_err(|e| DatasetError::Io(path.clone(), e))?;
        let manifest = self.manifest();
        let io_err = |e| DatasetError::Io(manifest.clone(), e);
        let fresh = !manifest.exists();
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&manifest)
            .map_err(io_err)?;
        let mut text = String::new();
        if fresh {
            text = format!("{HEADER}\n");
        }
        text += &part.line();
        text.push('\n');
        f.write_all(text.as_bytes())
            .and_then(|()| f.sync_all())
            .map_err(io_err)?;
        Ok(part)
    }
}

/// The trainer's `--data` list with every dataset directory replaced by
/// its parts (plain files stay as they are).
///
/// # Errors
/// A directory that is not a set, or a manifest that does not parse.
pub fn expand_inputs(paths: &[PathBuf]) -> Result<Vec<PathBuf>, DatasetError> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let set = Dataset::at(p);
            if !set.manifest().exists() {
                return Err(DatasetError::NotASet(p.clone()));
            }
            out.extend(set.files()?);
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datagen::format::Wdl;
    use janggi_core::{Color, Game, Position};

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("janggi-dataset-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    /// The first `n` positions of the game along the first legal moves,
    /// with `score` as their label.
    fn line(n: usize, score: i16) -> Vec<Record> {
        let mut game = Game::new(Position::startpos(), Default::default());
        let mut out = Vec::new();
        for ply in 0..n {
            out.push(Record::new(game.position(), score, ply as u32));
            let mv = game.legal_moves()[0];
            game.play_unchecked(mv);
        }
        out
    }

    fn write(path: &Path, games: &[(u32, Vec<Record>)]) {
        let _ = std::fs::remove_file(path);
        let (mut w, _) = DataWriter::open(path).unwrap();
        for (id, recs) in games {
            w.write_game(*id, Wdl::ChoWin, recs).unwrap();
        }
    }

    #[test]
    fn a_set_grows_by_new_positions_only_and_keeps_games_whole() {
        let d = dir("grow");
        let a = d.join("gen6data.bin");
        // Game 1: positions 0..6; game 2 repeats positions 0..3 (other
        // labels) and adds nothing else; game 3 repeats a position within
        // itself.
        let mut g3 = line(2, 9);
        g3.push(g3[0]);
        write(&a, &[(1, line(6, 5)), (2, line(3, -7)), (3, g3)]);
        provenance::append(
            &a,
            &vec![
                ("eval".into(), "nnue".into()),
                ("network_sha256".into(), "abde2199".repeat(8)),
                ("nodes".into(), "1000".into()),
                ("seed".into(), "7".into()),
                ("variant".into(), "janggi".into()),
            ],
        )
        .unwrap();
        let set = Dataset::at(&d.join("set"));
        assert!(set.parts().unwrap().is_empty());
        let p = set.add(&a, Some("6")).unwrap();
        assert_eq!(
            (p.read, p.kept, p.duplicates, p.games),
            (6 + 3 + 3, 6, 6, 1)
        );
        assert_eq!(p.file, "parts/001-gen6data.bin");
        assert_eq!(p.generation, "6");
        assert_eq!(
            p.provenance,
            "nnue net=abde2199abde2199 nodes=1000 seed=7 variant=janggi"
        );
        let kept = read_file(&d.join("set").join(&p.file)).unwrap();
        assert_eq!(kept.len(), 6);
        assert_eq!(kept[5].count, 6, "the game's records are renumbered whole");
        assert_eq!(kept[0].score, 5, "the first occurrence is kept");
        // The same file again: nothing new, no part.
        let again = set.add(&a, None).unwrap();
        assert_eq!((again.kept, again.duplicates), (0, 12));
        assert_eq!(set.parts().unwrap().len(), 1);
        // A grown source: only its new positions.
        let b = d.join("gen7data.bin");
        write(&b, &[(1, line(8, 1))]);
        let p2 = set.add(&b, Some("7")).unwrap();
        assert_eq!((p2.kept, p2.duplicates), (2, 6));
        assert_eq!(p2.provenance, "unknown (no .provenance file)");
        let parts = set.parts().unwrap();
        assert_eq!(parts, vec![p, p2]);
        // The trainer's list: the set's parts, plain files as given.
        let files = expand_inputs(&[d.join("set"), b.clone()]).unwrap();
        assert_eq!(files.len(), 3);
        assert!(files[1].ends_with("parts/002-gen7data.bin"));
        let total: usize = files[..2].iter().map(|f| read_file(f).unwrap().len()).sum();
        assert_eq!(total, 8, "every distinct position once");
        let e = expand_inputs(std::slice::from_ref(&d)).unwrap_err();
        assert!(e.to_string().contains("not a dataset"), "{e}");
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn the_key_is_the_position_not_its_labels() {
        let l = line(3, 0);
        let mut other = l[1];
        other.score = 300;
        other.result = Wdl::HanWin;
        other.game = 99;
        other.ply = 40;
        assert_eq!(key(&l[1]), key(&other));
        assert_ne!(key(&l[0]), key(&l[1]));
        let mut side = l[1];
        side.side = match side.side {
            Color::Cho => Color::Han,
            Color::Han => Color::Cho,
        };
        assert_ne!(key(&side), key(&l[1]));
    }

    #[test]
    fn a_broken_manifest_is_an_error() {
        let d = dir("broken");
        std::fs::write(d.join(MANIFEST), format!("{HEADER}\nparts/001.bin\tx\n")).unwrap();
        let e = Dataset::at(&d).parts().unwrap_err();
        assert!(e.to_string().contains("line 2"), "{e}");
        std::fs::remove_dir_all(&d).unwrap();
    }
}
