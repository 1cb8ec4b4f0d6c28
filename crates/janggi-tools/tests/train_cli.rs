//! `janggi-tools train --hidden`: the widths this build has, a usage error
//! (exit 2) for any other, and the option in the help.

use std::process::{Command, Output};

fn train(hidden: &str) -> Output {
    let dir = std::env::temp_dir();
    let id = std::process::id();
    Command::new(env!("CARGO_BIN_EXE_janggi-tools"))
        .arg("train")
        .arg("--data")
        .arg(dir.join(format!("janggi-no-such-data-{id}.bin")))
        .arg("--out")
        .arg(dir.join(format!("janggi-no-such-net-{id}.nnue")))
        .arg(format!("--hidden={hidden}"))
        .arg("--quiet")
        .output()
        .unwrap()
}

#[test]
fn hidden_takes_the_built_widths_only() {
    for bad in ["300", "0", "255", "1024", "-256", "wide"] {
        let out = train(bad);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "--hidden {bad}: {err}");
        assert!(err.contains("--hidden"), "{err}");
        assert!(err.contains("[256, 384, 512, 768]"), "{err}");
    }
    // A width it has gets past the arguments: the run then fails on the
    // missing data file (exit 1), not on --hidden.
    for good in ["256", "384", "512", "768"] {
        let out = train(good);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "--hidden {good}: {err}");
        assert!(err.contains("janggi-no-such-data"), "{err}");
    }
    let help = Command::new(env!("CARGO_BIN_EXE_janggi-tools"))
        .args(["train", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(help.contains("--hidden <HIDDEN>"), "{help}");
    assert!(
        help.contains("Default: the `--init-from` network's, otherwise 256"),
        "{help}"
    );
}
