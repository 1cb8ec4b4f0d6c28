//! tools/label-depth.sh: the label-depth comparison's two arms (self-play
//! data at two node counts with the same nodes in all, each trained from
//! the same warm start), a second run that redoes nothing, and bad
//! arguments refused before anything runs. The match step is the runner's
//! own (`MATCH=none` here: this package has no engine binary).

use janggi_search::nnue::Network;
use janggi_tools::datagen::format::read_file;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tools/label-depth.sh")
}

fn run(dir: &Path, positions: &str, nodes: (&str, &str)) -> Output {
    Command::new("bash")
        .arg(script())
        .args([dir.to_str().unwrap(), positions])
        .env("JANGGI_TOOLS", env!("CARGO_BIN_EXE_janggi-tools"))
        .env("MATCH", "none")
        .env("NODES_A", nodes.0)
        .env("NODES_B", nodes.1)
        .env("EPOCHS", "1")
        .env("NICE", "0")
        .output()
        .unwrap()
}

#[test]
fn both_arms_are_made_trained_and_not_redone() {
    if Command::new("bash").arg("--version").output().is_err() {
        eprintln!("no bash: skipped");
        return;
    }
    let dir = std::env::temp_dir().join(format!("janggi-label-depth-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = run(&dir, "300", ("40", "200"));
    assert!(out.status.success(), "{out:?}");
    let (a, b) = (dir.join("ld-n40.bin"), dir.join("ld-n200.bin"));
    let (na, nb) = (read_file(&a).unwrap().len(), read_file(&b).unwrap().len());
    assert!(na >= 300, "arm A: {na} positions");
    assert!(nb >= 60, "arm B: {nb} positions (300 × 40 / 200 asked)");
    for arm in ["ld-n40", "ld-n200"] {
        Network::load(&dir.join(format!("{arm}.nnue"))).expect("a network the engine loads");
        let secs = std::fs::read_to_string(dir.join(format!("{arm}.seconds"))).unwrap();
        assert_eq!(secs.lines().count(), 1, "one timed run: {secs}");
        let prov = std::fs::read_to_string(dir.join(format!("{arm}.bin.provenance"))).unwrap();
        let nodes = &arm[4..];
        assert!(prov.contains(&format!("nodes={nodes}")), "{prov}");
    }
    let trained = std::fs::metadata(dir.join("ld-n40.nnue"))
        .unwrap()
        .modified()
        .unwrap();

    // Again: the data is complete, the networks are not trained again.
    let again = run(&dir, "300", ("40", "200"));
    assert!(again.status.success(), "{again:?}");
    assert_eq!(read_file(&a).unwrap().len(), na, "no new data");
    assert_eq!(read_file(&b).unwrap().len(), nb, "no new data");
    let stdout = String::from_utf8_lossy(&again.stdout);
    assert_eq!(stdout.matches("not trained again").count(), 2, "{stdout}");
    assert_eq!(
        std::fs::metadata(dir.join("ld-n40.nnue"))
            .unwrap()
            .modified()
            .unwrap(),
        trained
    );

    // Bad arguments are refused before anything runs (not even the
    // directory is made).
    let fresh = dir.join("never");
    for (positions, nodes) in [
        ("x", ("40", "200")),
        ("300", ("200", "40")),
        ("3", ("40", "200")),
        ("300", ("", "200")),
        ("300", ("0", "200")),
    ] {
        let bad = run(&fresh, positions, nodes);
        assert_eq!(bad.status.code(), Some(2), "{positions} {nodes:?}: {bad:?}");
        assert!(!fresh.exists(), "{positions} {nodes:?} made the directory");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
