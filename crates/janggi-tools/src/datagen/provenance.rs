//! Where a data file's games came from: every `datagen` run appends one
//! line to `FILE.provenance` beside its output before it plays, so a file
//! grown over several runs (resumed, or run again after a machine was
//! lost) lists each run's settings, and a dataset part built from it
//! ([`crate::dataset`]) carries them on.
//!
//! A line is `key=value` fields separated by tabs (→ below):
//!
//! ```text
//! started_unix=1796453418 → tool=janggi-tools 0.1.0 → network_sha256=bcaa516d… → variant=janggi → eval=nnue → nodes=1000 → seed=8 → … → positions_before=1364886
//! ```
//!
//! `network_sha256` is the SHA-256 of the network file that played the
//! games (`sha256sum` of `nets/default.nnue` when it was the embedded
//! one), `-` for the handcrafted evaluation.

use sha2::{Digest, Sha256};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The SHA-256 of `bytes` as lower-case hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The provenance file beside a data file: `FILE.provenance`.
pub fn path_for(data: &Path) -> PathBuf {
    let mut p = data.as_os_str().to_owned();
    p.push(".provenance");
    PathBuf::from(p)
}

/// One run's settings, in the order they are written.
pub type Fields = Vec<(String, String)>;

/// Appends one run's line to `data`'s provenance file.
///
/// # Errors
/// When the file cannot be written.
pub fn append(data: &Path, fields: &Fields) -> std::io::Result<()> {
    let line = fields
        .iter()
        .map(|(k, v)| format!("{k}={}", v.replace(['\t', '\n'], " ")))
        .collect::<Vec<_>>()
        .join("\t");
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path_for(data))?;
    writeln!(f, "{line}")
}

/// Every run's line of `data`'s provenance file (none when it has none:
/// files made before provenance was written).
pub fn read(data: &Path) -> Vec<Fields> {
    std::fs::read_to_string(path_for(data))
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            l.split('\t')
                .filter_map(|f| f.split_once('='))
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

/// The value of `key` in one run's fields.
pub fn get<'a>(fields: &'a Fields, key: &str) -> Option<&'a str> {
    fields
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_matches_the_standard_vectors() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(
            sha256_hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }

    #[test]
    fn lines_append_and_read_back() {
        let data = std::env::temp_dir().join(format!("prov-{}.bin", std::process::id()));
        let _ = std::fs::remove_file(path_for(&data));
        assert!(read(&data).is_empty());
        let run = |seed: &str| -> Fields {
            vec![
                ("seed".to_string(), seed.to_string()),
                ("tool".to_string(), "janggi-tools\t0.1".to_string()),
            ]
        };
        append(&data, &run("8")).unwrap();
        append(&data, &run("9")).unwrap();
        let lines = read(&data);
        assert_eq!(lines.len(), 2);
        assert_eq!(get(&lines[1], "seed"), Some("9"));
        assert_eq!(
            get(&lines[0], "tool"),
            Some("janggi-tools 0.1"),
            "a tab cannot split a field"
        );
        assert_eq!(get(&lines[0], "nodes"), None);
        std::fs::remove_file(path_for(&data)).unwrap();
    }
}
