//! tools/slurm: the job-array file's body, run here with a faked
//! `SLURM_ARRAY_TASK_ID` for each shard (no Slurm needed; slurm_real.rs
//! runs the scripts on a real one), then the concatenation script: the
//! concatenated file holds the same games, record for record, as one
//! unsharded run.

use janggi_tools::datagen::format::{read_file, Record};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tools/slurm")
        .join(name)
}

fn games(path: &Path) -> BTreeMap<u32, Vec<Record>> {
    let mut map: BTreeMap<u32, Vec<Record>> = BTreeMap::new();
    for r in read_file(path).unwrap() {
        map.entry(r.game).or_default().push(r);
    }
    map
}

#[test]
fn sbatch_shards_concatenate_to_the_unsharded_run() {
    if Command::new("bash").arg("--version").output().is_err() {
        eprintln!("no bash: skipped");
        return;
    }
    let dir = std::env::temp_dir().join(format!("janggi-slurm-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let tools = env!("CARGO_BIN_EXE_janggi-tools");
    let (shards, per_shard) = (3u32, 2u32);
    let args = "--nodes 100 --max-plies 40 --eval hce --seed 5 --hash 1";
    let shard_dir = dir.join("shards");
    for task in 0..shards {
        let out = Command::new("bash")
            .arg(script("datagen.sbatch"))
            .env("SLURM_ARRAY_TASK_ID", task.to_string())
            .env("SLURM_ARRAY_TASK_COUNT", shards.to_string())
            .env("SLURM_CPUS_PER_TASK", "1")
            .env("JANGGI_TOOLS", tools)
            .env("OUT_DIR", &shard_dir)
            .env("DATAGEN_ARGS", format!("--games {per_shard} {args}"))
            .output()
            .unwrap();
        assert!(out.status.success(), "shard {task}: {out:?}");
    }
    // A task outside the array is refused.
    let bad = Command::new("bash")
        .arg(script("datagen.sbatch"))
        .env("SLURM_ARRAY_TASK_ID", shards.to_string())
        .env("SLURM_ARRAY_TASK_COUNT", shards.to_string())
        .env("JANGGI_TOOLS", tools)
        .env("OUT_DIR", &shard_dir)
        .output()
        .unwrap();
    assert!(!bad.status.success());
    let all = dir.join("all.bin");
    let out = Command::new("bash")
        .arg(script("concat.sbatch"))
        .env("OUT_DIR", &shard_dir)
        .env("OUT", &all)
        .env("SHARDS", shards.to_string())
        .env("SET", dir.join("set"))
        .env("GEN", "3")
        .env("JANGGI_TOOLS", tools)
        .output()
        .unwrap();
    assert!(out.status.success(), "concat: {out:?}");
    // Every shard's provenance line, and the file added to the set.
    let runs = janggi_tools::datagen::provenance::read(&all);
    assert_eq!(runs.len(), shards as usize);
    let parts = janggi_tools::dataset::Dataset::at(&dir.join("set"))
        .parts()
        .unwrap();
    assert_eq!(parts.len(), 1);
    assert_eq!(parts[0].generation, "3");
    assert_eq!(
        parts[0].kept + parts[0].duplicates,
        janggi_tools::datagen::format::read_file(&all)
            .unwrap()
            .len() as u64
    );
    // One unsharded run of all the games, on one thread (so that it plays
    // exactly the ids 0 … shards × per_shard − 1).
    let single = dir.join("single.bin");
    let mut cmd = Command::new(tools);
    cmd.args(["datagen", "--quiet", "--threads", "1", "--out"])
        .arg(&single)
        .args(["--games", &(shards * per_shard).to_string()])
        .args(args.split_whitespace());
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "single: {out:?}");
    let (a, b) = (games(&all), games(&single));
    assert_eq!(
        a.keys().copied().collect::<Vec<_>>(),
        (0..shards * per_shard).collect::<Vec<_>>()
    );
    assert_eq!(a, b);
    let _ = std::fs::remove_dir_all(&dir);
}
