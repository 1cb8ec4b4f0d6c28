//! tools/generation.sh: one generation from nothing (self-play data, the
//! growing set, then training), and a second run that finds all done and
//! redoes nothing.

use janggi_search::nnue::Network;
use janggi_tools::datagen::format::read_file;
use std::path::Path;
use std::process::Command;

fn run(dir: &Path, positions: u32) -> std::process::Output {
    Command::new("bash")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tools/generation.sh"))
        .args(["1", dir.to_str().unwrap(), &positions.to_string()])
        .env("JANGGI_TOOLS", env!("CARGO_BIN_EXE_janggi-tools"))
        .env("EVAL", "hce")
        .env("NODES", "100")
        .env("EPOCHS", "1")
        .env("THREADS", "1")
        .env("NICE", "0")
        .output()
        .unwrap()
}

#[test]
fn a_generation_is_made_and_a_second_run_resumes_without_redoing() {
    if Command::new("bash").arg("--version").output().is_err() {
        eprintln!("no bash: skipped");
        return;
    }
    let dir = std::env::temp_dir().join(format!("janggi-generation-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = run(&dir, 120);
    assert!(out.status.success(), "{out:?}");
    let data = dir.join("gen1data.bin");
    let net = dir.join("gen1.nnue");
    let records = read_file(&data).unwrap().len();
    assert!(records >= 120, "{records} positions");
    Network::load(&net).expect("a network the engine loads");
    let set = janggi_tools::dataset::Dataset::at(&dir.join("set"));
    let parts = set.parts().unwrap();
    assert_eq!(parts.len(), 1);
    assert_eq!(parts[0].kept + parts[0].duplicates, records as u64);
    assert!(
        parts[0]
            .provenance
            .starts_with("hce net=- nodes=100 seed=2"),
        "{parts:?}"
    );
    let trained = std::fs::metadata(&net).unwrap().modified().unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("option.EvalFile="));

    // Again: the data is complete and the network newer than it.
    let again = run(&dir, 120);
    assert!(again.status.success(), "{again:?}");
    assert_eq!(read_file(&data).unwrap().len(), records, "no new data");
    assert_eq!(
        std::fs::metadata(&net).unwrap().modified().unwrap(),
        trained
    );
    assert!(String::from_utf8_lossy(&again.stdout).contains("not trained again"));

    // More positions asked for: the data grows and the network is retrained.
    let more = run(&dir, records as u32 + 60);
    assert!(more.status.success(), "{more:?}");
    assert!(read_file(&data).unwrap().len() >= records + 60);
    let parts = set.parts().unwrap();
    assert_eq!(parts.len(), 2, "the set grew by a part");
    let distinct: u64 = parts.iter().map(|p| p.kept).sum();
    assert!(distinct <= read_file(&data).unwrap().len() as u64);
    assert_eq!(parts[1].generation, "1");
    Network::load(&net).expect("retrained");
    assert!(std::fs::metadata(&net).unwrap().modified().unwrap() > trained);

    // A bad argument is refused before anything runs.
    let bad = Command::new("bash")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tools/generation.sh"))
        .args(["x", dir.to_str().unwrap(), "10"])
        .output()
        .unwrap();
    assert!(!bad.status.success());
    let _ = std::fs::remove_dir_all(&dir);
}
