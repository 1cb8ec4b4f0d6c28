//! `janggi-match spsa` end to end with the fake engine's strength knob
//! (`tunable=1`: `SearchTune` `greed=P`, the per cent of moves taken
//! among the biggest captures): the run climbs toward the stronger
//! setting, an interrupted run goes on to exactly the result of an
//! uninterrupted one, and bad set-ups are refused without touching the
//! state.

use janggi_match::spsa::run_spsa;
use janggi_match::{EXIT_FAILURE, EXIT_INTERRUPTED};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

const FAKE_ENGINE: &str = env!("CARGO_BIN_EXE_janggi-fake-engine");

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("janggi-spsa-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn args(d: &Path, params: &str, iterations: u32, tunable: bool) -> Vec<String> {
    let list = d.join("params.txt");
    std::fs::write(&list, params).unwrap();
    let mut a: Vec<String> = format!(
        "--params {} --state {} --iterations {iterations} --pairs 1 \
         --engine cmd={FAKE_ENGINE} arg=seed=3 --each nodes=1 \
         --openings setups order=random --seed 11 --variant janggi --maxmoves 120",
        list.display(),
        d.join("run.state").display()
    )
    .split_whitespace()
    .map(str::to_string)
    .collect();
    if tunable {
        a.push("arg=tunable=1".to_string());
        // `arg=` after `--each` would belong to it: move it to the engine.
        let e = a.iter().position(|w| w == "--each").unwrap();
        let last = a.pop().unwrap();
        a.insert(e, last);
    }
    a
}

const GREED: &str = "# the fake engine's strength knob\ngreed, 20, 0, 100, 10, 0.2\n";

fn spsa(a: &[String], stop: &AtomicBool) -> (i32, String) {
    let mut out = Vec::new();
    let code = run_spsa(a, &mut out, stop);
    (code, String::from_utf8_lossy(&out).into_owned())
}

fn theta(state: &Path) -> f64 {
    let text = std::fs::read_to_string(state).unwrap();
    let line = text
        .lines()
        .find(|l| l.starts_with("param greed "))
        .unwrap();
    line[12..].parse().unwrap()
}

#[test]
fn spsa_climbs_toward_the_stronger_setting() {
    let d = dir("climb");
    let (code, out) = spsa(&args(&d, GREED, 16, true), &AtomicBool::new(false));
    assert_eq!(code, 0, "{out}");
    let greed = theta(&d.join("run.state"));
    assert!(greed > 40.0, "greed went from 20 to {greed}:\n{out}");
    assert!(out.contains("SPSA done: 16 iterations"), "{out}");
    assert!(out.contains("SearchTune value: greed="), "{out}");
    let history = std::fs::read_to_string(d.join("run.state.history")).unwrap();
    assert_eq!(history.lines().filter(|l| !l.starts_with('#')).count(), 16);
    // Done is done: running again plays nothing and says the result.
    let (code, again) = spsa(&args(&d, GREED, 16, true), &AtomicBool::new(false));
    assert_eq!(code, 0);
    assert!(!again.contains("Iteration "), "{again}");
    assert!(again.contains("SPSA done: 16 iterations"), "{again}");
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn an_interrupted_run_goes_on_to_the_result_of_an_uninterrupted_one() {
    let whole = dir("whole");
    let (code, out) = spsa(&args(&whole, GREED, 5, true), &AtomicBool::new(false));
    assert_eq!(code, 0, "{out}");

    let cut = dir("cut");
    let a = args(&cut, GREED, 5, true);
    let stop = AtomicBool::new(false);
    let history = cut.join("run.state.history");
    let (code, out) = std::thread::scope(|s| {
        s.spawn(|| {
            // Stop once two iterations are written, in the third's games.
            while std::fs::read_to_string(&history)
                .map_or(0, |h| h.lines().filter(|l| !l.starts_with('#')).count())
                < 2
            {
                std::thread::sleep(Duration::from_millis(2));
            }
            stop.store(true, Ordering::SeqCst);
        });
        spsa(&a, &stop)
    });
    assert_eq!(code, EXIT_INTERRUPTED, "{out}");
    assert!(out.contains("not counted"), "{out}");
    let st = std::fs::read_to_string(cut.join("run.state")).unwrap();
    assert!(st.contains("done 2\n") || st.contains("done 3\n"), "{st}");
    let (code, out) = spsa(&a, &AtomicBool::new(false));
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("going on from iteration"), "{out}");
    let state = |d: &Path| std::fs::read_to_string(d.join("run.state")).unwrap();
    assert_eq!(state(&cut), state(&whole));
    let games = |d: &Path| {
        std::fs::read_to_string(d.join("run.state.history"))
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(games(&cut), games(&whole));
    std::fs::remove_dir_all(&whole).unwrap();
    std::fs::remove_dir_all(&cut).unwrap();
}

#[test]
fn bad_set_ups_are_refused_and_leave_the_state_alone() {
    let d = dir("refused");
    // An engine without the option would tune nothing.
    let (code, out) = spsa(&args(&d, GREED, 3, false), &AtomicBool::new(false));
    assert_eq!(code, EXIT_FAILURE, "{out}");
    assert!(out.contains("has no option SearchTune"), "{out}");
    assert!(!d.join("run.state").exists());
    // A state of another run is not overwritten.
    let (code, out) = spsa(&args(&d, GREED, 2, true), &AtomicBool::new(false));
    assert_eq!(code, 0, "{out}");
    let before = std::fs::read_to_string(d.join("run.state")).unwrap();
    let other = "greed, 20, 0, 100, 10, 0.2\nspeed, 1, 0, 5, 1, 0.1\n";
    let (code, out) = spsa(&args(&d, other, 2, true), &AtomicBool::new(false));
    assert_eq!(code, EXIT_FAILURE, "{out}");
    assert!(out.contains("another run"), "{out}");
    let (code, out) = spsa(&args(&d, GREED, 9, true), &AtomicBool::new(false));
    assert_eq!(code, EXIT_FAILURE, "{out}");
    assert_eq!(
        std::fs::read_to_string(d.join("run.state")).unwrap(),
        before
    );
    // A name the engine does not know is refused before any game.
    let d2 = dir("refused-name");
    let typo = "greed, 20, 0, 100, 10, 0.2\ngreeed, 1, 0, 5, 1, 0.1\n";
    let (code, out) = spsa(&args(&d2, typo, 2, true), &AtomicBool::new(false));
    assert_eq!(code, EXIT_FAILURE, "{out}");
    assert!(
        out.contains("refuses the parameter list") && out.contains("greeed"),
        "{out}"
    );
    assert!(!d2.join("run.state").exists());
    std::fs::remove_dir_all(&d2).unwrap();
    // A broken list names its line.
    let (code, out) = spsa(
        &args(&d, "greed, 20, 0, 100, 10\n", 2, true),
        &AtomicBool::new(false),
    );
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("line 1"), "{out}");
    std::fs::remove_dir_all(&d).unwrap();
}
