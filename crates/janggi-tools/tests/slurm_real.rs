//! tools/slurm on a real scheduler: tools/slurm/local-cluster.sh starts a
//! one-node Slurm (munged, slurmctld, slurmd) in a temporary directory,
//! tools/slurm/submit.sh submits a 3-task datagen array and the dependent
//! concatenation, and the test waits for them through `scontrol`, then
//! checks what the jobs wrote: three different shards whose game ids are
//! those of their shard, concatenated byte for byte into one file.
//!
//! It needs Debian's `slurm-wlm` and `munge` and root (slurmd starts the
//! jobs); without them it says so and passes, unless
//! `JANGGI_SLURM_REQUIRED` is set (.ci/run sets it once it has installed
//! them). About 15 s, most of it Slurm starting and stopping
//! (docs/nnue.md, "Job arrays on a cluster (Slurm)").

use janggi_tools::datagen::format::{read_file, Record};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const SHARDS: u32 = 3;
const POSITIONS: usize = 300;

fn script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tools/slurm")
        .join(name)
}

fn text(out: &Output) -> String {
    format!(
        "{}\nstdout:\n{}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The running cluster: stopped (jobs cancelled, daemons ended) and its
/// directory removed when dropped, also when an assertion fails.
struct Cluster {
    dir: PathBuf,
}

impl Cluster {
    fn conf(&self) -> PathBuf {
        self.dir.join("cluster/slurm.conf")
    }

    fn script(&self, args: &[&str]) -> Output {
        Command::new("bash")
            .arg(script("local-cluster.sh"))
            .args(args)
            .output()
            .unwrap()
    }

    /// `scontrol show job ID`: one record per job (per task of an array).
    fn show_job(&self, id: u32) -> String {
        let out = Command::new("scontrol")
            .args(["show", "job", &id.to_string()])
            .env("SLURM_CONF", self.conf())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "scontrol show job {id}: {}",
            text(&out)
        );
        String::from_utf8(out.stdout).unwrap()
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let cluster = self.dir.join("cluster");
        let out = self.script(&["stop", cluster.to_str().unwrap()]);
        if !out.status.success() {
            eprintln!("local-cluster.sh stop: {}", text(&out));
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The `Key=value` fields of `scontrol show job` records, in order.
fn fields<'a>(show: &'a str, key: &str) -> Vec<&'a str> {
    show.split_whitespace()
        .filter_map(|w| w.strip_prefix(key)?.strip_prefix('='))
        .collect()
}

#[test]
fn job_array_runs_on_a_real_one_node_slurm() {
    let required = std::env::var_os("JANGGI_SLURM_REQUIRED").is_some();
    let dir = std::env::temp_dir().join(format!("janggi-slurm-real-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("work")).unwrap();
    let cluster = Cluster { dir: dir.clone() };
    let started = cluster.script(&["start", dir.join("cluster").to_str().unwrap()]);
    if started.status.code() == Some(77) {
        let why = String::from_utf8_lossy(&started.stderr);
        assert!(!required, "JANGGI_SLURM_REQUIRED is set but: {why}");
        eprintln!("skipped: the real-Slurm check did not run: {}", why.trim());
        return;
    }
    assert!(
        started.status.success(),
        "local-cluster.sh start: {}",
        text(&started)
    );

    // submit.sh from the work directory: the jobs' logs go there (sbatch's
    // working directory is the one it was run from).
    let work = dir.join("work");
    let (shard_dir, all) = (work.join("shards"), work.join("all.bin"));
    let submitted = Command::new("bash")
        .arg(script("submit.sh"))
        .arg(SHARDS.to_string())
        .arg(&shard_dir)
        .arg(&all)
        .arg(format!(
            "--positions {POSITIONS} --nodes 50 --seed 11 --hash 1"
        ))
        .current_dir(&work)
        .env("SLURM_CONF", cluster.conf())
        .env("JANGGI_TOOLS", env!("CARGO_BIN_EXE_janggi-tools"))
        // One CPU a task (two tasks at once on two cores; a one-core
        // machine still runs them) and little memory.
        .env(
            "SBATCH_ARGS",
            "--cpus-per-task=1 --mem=256M --time=00:10:00",
        )
        .output()
        .unwrap();
    assert!(
        submitted.status.success(),
        "submit.sh: {}",
        text(&submitted)
    );
    // Its output: the concatenation's id (sbatch --parsable), then
    // "array job ID: …".
    let stdout = String::from_utf8(submitted.stdout.clone()).unwrap();
    let mut lines = stdout.lines();
    let concat: u32 = lines.next().unwrap().trim().parse().unwrap();
    let array: u32 = lines
        .next()
        .and_then(|l| l.strip_prefix("array job "))
        .and_then(|l| l.split(':').next())
        .and_then(|id| id.parse().ok())
        .unwrap_or_else(|| panic!("submit.sh: {}", text(&submitted)));

    let waited = cluster.script(&[
        "wait",
        dir.join("cluster").to_str().unwrap(),
        &concat.to_string(),
        "300",
    ]);
    let logs = || -> String {
        let mut s = String::new();
        for e in std::fs::read_dir(&work).unwrap().flatten() {
            if e.path().extension().is_some_and(|x| x == "log") {
                s += &format!(
                    "== {}\n{}",
                    e.path().display(),
                    std::fs::read_to_string(e.path()).unwrap_or_default()
                );
            }
        }
        s
    };
    assert!(
        waited.status.success(),
        "concat job: {}\n{}",
        text(&waited),
        logs()
    );

    // Slurm ran the array's three tasks, each to completion.
    let show = cluster.show_job(array);
    let mut tasks: Vec<u32> = fields(&show, "ArrayTaskId")
        .iter()
        .map(|t| t.parse().unwrap())
        .collect();
    tasks.sort_unstable();
    assert_eq!(tasks, (0..SHARDS).collect::<Vec<_>>(), "{show}");
    assert_eq!(
        fields(&show, "JobState"),
        vec!["COMPLETED"; SHARDS as usize],
        "{show}"
    );
    assert!(
        fields(&show, "ArrayJobId")
            .iter()
            .all(|&a| a == array.to_string()),
        "{show}"
    );
    // Each task's log (datagen.sbatch's --output, %A_%a) names its shard.
    for task in 0..SHARDS {
        let log = std::fs::read_to_string(work.join(format!("janggi-datagen-{array}_{task}.log")))
            .unwrap_or_else(|e| panic!("task {task}'s log: {e}\n{}", logs()));
        assert!(log.contains(&format!("shard {task}/{SHARDS} ->")), "{log}");
    }
    // afterok: the concatenation started after every task ended.
    let ends = fields(&show, "EndTime");
    let cat_show = cluster.show_job(concat);
    let cat_start = fields(&cat_show, "StartTime");
    assert_eq!(
        (ends.len(), cat_start.len()),
        (SHARDS as usize, 1),
        "{show}\n{cat_show}"
    );
    // (ISO 8601 times: their order is the strings' order.)
    assert!(
        ends.iter().all(|&e| e <= cat_start[0]),
        "{show}\n{cat_show}"
    );
    let cat_log =
        std::fs::read_to_string(work.join(format!("janggi-datagen-cat-{concat}.log"))).unwrap();
    assert!(
        cat_log.contains(&format!("{SHARDS} shards ->")),
        "{cat_log}"
    );

    // The shards: each at least the positions asked for, from its own
    // games (ids ≡ task mod 3), so no two alike.
    let mut bytes = Vec::new();
    let mut records: Vec<Record> = Vec::new();
    let mut shard_bytes = Vec::new();
    for task in 0..SHARDS {
        let path = shard_dir.join(format!("shard-{task:04}.bin"));
        let data = std::fs::read(&path).unwrap();
        let recs = read_file(&path).unwrap();
        assert!(
            recs.len() >= POSITIONS,
            "shard {task}: {} positions",
            recs.len()
        );
        let games: BTreeSet<u32> = recs.iter().map(|r| r.game).collect();
        assert!(
            games.iter().all(|g| g % SHARDS == task),
            "shard {task}: games {games:?}"
        );
        bytes.extend_from_slice(&data);
        records.extend(recs);
        shard_bytes.push(data);
    }
    for a in 0..shard_bytes.len() {
        for b in a + 1..shard_bytes.len() {
            assert_ne!(
                shard_bytes[a], shard_bytes[b],
                "shards {a} and {b} are the same"
            );
        }
    }
    // The concatenation: the shards' bytes in order, so their records.
    let joined = std::fs::read(&all).unwrap();
    assert_eq!(joined.len(), bytes.len());
    assert!(joined == bytes, "all.bin is not the shards in order");
    let all_records = read_file(&all).unwrap();
    assert_eq!(all_records.len(), records.len());
    assert_eq!(all_records, records);
    assert!(!work.join("all.bin.tmp").exists());
    drop(cluster);
    assert!(!dir.exists());
}
