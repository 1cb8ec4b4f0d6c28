//! `janggi-engine analyse`: a short game with a hanging chariot is marked
//! as a blunder by this engine, the PGN reads back, the graph is written.

use std::path::PathBuf;
use std::process::Command;

/// A new directory of this test process for `name`'s files.
fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("janggi-analyse-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn analyse_marks_a_blunder_and_writes_pgn_json_and_graph() {
    let dir = scratch_dir("blunder");
    // Cho's chariot goes to i1, where Han's chariot takes it.
    let game = dir.join("game.txt");
    std::fs::write(
        &game,
        "position fen 3k4r/9/9/9/9/9/9/9/4K4/R8 w - - 0 1 moves a1i1 i10i1\n",
    )
    .unwrap();
    let graph = dir.join("g.svg");
    let o = Command::new(env!("CARGO_BIN_EXE_janggi-engine"))
        .args(["analyse", game.to_str().unwrap(), "--depth", "4", "--graph"])
        .arg(&graph)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    let pgn = String::from_utf8(o.stdout).unwrap();
    assert!(pgn.contains("1. Ri1 {[%eval "), "{pgn}");
    assert!(pgn.contains("?? blunder"), "{pgn}");
    let back = janggi_records::pgn::read_pgn(&pgn).remove(0).unwrap();
    assert_eq!(back.plies.len(), 2);
    let svg = std::fs::read_to_string(&graph).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("<circle"), "{svg}");
    // The summary line; no progress bar, as stderr is not a terminal.
    assert!(err.contains("analysed 1 of 1 games"), "{err}");
    assert!(!err.contains('\r'), "{err:?}");
    // The annotated PGN sums each side up.
    assert!(pgn.contains("[WhiteBlunders \"1\"]"), "{pgn}");
    assert!(pgn.contains("{Cho: accuracy "), "{pgn}");

    // The graph as PNG, by the extension and by --png; --quiet is silent.
    let (png1, png2) = (dir.join("g.png"), dir.join("p.png"));
    let o = Command::new(env!("CARGO_BIN_EXE_janggi-engine"))
        .args([
            "analyse",
            game.to_str().unwrap(),
            "--depth",
            "3",
            "-q",
            "--graph",
        ])
        .arg(&png1)
        .arg("--png")
        .arg(&png2)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert!(
        o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    for p in [&png1, &png2] {
        let bytes = std::fs::read(p).unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
        // IHDR: 1600 x 600.
        assert_eq!(&bytes[16..24], &[0, 0, 6, 64, 0, 0, 2, 88]);
    }

    let o = Command::new(env!("CARGO_BIN_EXE_janggi-engine"))
        .args([
            "analyse",
            game.to_str().unwrap(),
            "--nodes",
            "2000",
            "--json",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    let json = String::from_utf8(o.stdout).unwrap();
    assert!(json.contains("\"mark\":\"blunder\""), "{json}");
    std::fs::remove_dir_all(&dir).unwrap();
}

fn run(args: &[&str]) -> (i32, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_janggi-engine"))
        .args(args)
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8(o.stdout).unwrap(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// The games of an annotated PGN output, each from its `[Event` tag.
fn games_of(pgn: &str) -> Vec<String> {
    pgn.split("[Event ")
        .filter(|g| !g.trim().is_empty())
        .map(|g| format!("[Event {g}"))
        .collect()
}

#[test]
fn games_in_parallel_and_shards_together_equal_the_plain_run() {
    let dir = scratch_dir("shard");
    let fen = "3k4r/9/9/9/9/9/9/9/4K4/R8 w - - 0 1";
    let mate = "3k5/R8/9/9/9/9/9/9/4K4/1R7 w - - 0 1";
    let mut text = String::new();
    for (i, (f, moves)) in [
        (fen, "1. a1i1 i10i1"),
        (fen, "1. a1a2 i10i9 2. a2a3"),
        (mate, "1. b1b10"),
        (fen, "1. a1a3"),
        (fen, "1. a1b1 i10h10"),
    ]
    .iter()
    .enumerate()
    {
        text.push_str(&format!(
            "[Event \"g{i}\"]\n[Variant \"janggikjf\"]\n[FEN \"{f}\"]\n\n{moves} *\n\n"
        ));
    }
    let file = dir.join("games.pgn");
    std::fs::write(&file, text).unwrap();
    let f = file.to_str().unwrap();
    let (code, all, err) = run(&["analyse", f, "--nodes", "300", "--jobs", "3"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("analysed 5 of 5 games") && err.contains("3 jobs"),
        "{err}"
    );
    let all = games_of(&all);
    assert_eq!(all.len(), 5);
    for (i, g) in all.iter().enumerate() {
        assert!(
            g.starts_with(&format!("[Event \"g{i}\"]")),
            "input order: {g}"
        );
    }
    // One job gives the same games.
    let (_, one, _) = run(&["analyse", f, "--nodes", "300", "--jobs", "1"]);
    assert_eq!(games_of(&one), all);
    // Shards: game k in shard (k mod 3) + 1; together the plain run.
    let mut shards = Vec::new();
    for s in ["1/3", "2/3", "3/3"] {
        let (code, out, err) = run(&["analyse", f, "--nodes", "300", "--shard", s, "-q"]);
        assert_eq!(code, 0, "{err}");
        shards.push(games_of(&out));
    }
    assert_eq!(shards.iter().map(Vec::len).collect::<Vec<_>>(), [2, 2, 1]);
    for (k, g) in all.iter().enumerate() {
        assert_eq!(&shards[k % 3][k / 3], g, "game {k}");
    }
    let (code, _, err) = run(&["analyse", f, "--shard", "4/3"]);
    assert_eq!(code, 2, "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_korean_app_record_is_analysed() {
    // Game 3 of three real Hangame records (CP949), as shard 3/3.
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/crates/janggi-records/tests/data/hangame-2010.gib"
    );
    let dir = scratch_dir("kr");
    let svg = dir.join("graph.svg");
    let png = dir.join("graph.png");
    let (code, pgn, err) = run(&[
        "analyse",
        file,
        "--nodes",
        "200",
        "--shard",
        "3/3",
        "--graph",
        svg.to_str().unwrap(),
        "--png",
        png.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("analysed 1 of 1 games (shard 3/3)"), "{err}");
    // The graphs of the file's third game, titled with its players.
    let svg = std::fs::read_to_string(dir.join("graph-3.svg")).unwrap();
    assert!(
        svg.contains("<title>hangame-2010.gib game 3: 페빠마리솔 4단 (Cho) – "),
        "{svg}"
    );
    let png = std::fs::read(dir.join("graph-3.png")).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(games_of(&pgn).len(), 1);
    assert!(pgn.contains("[White \"페빠마리솔 4단\"]"), "{pgn}");
    assert!(pgn.contains("[WhiteAccuracy "), "{pgn}");
    assert_eq!(pgn.matches("[%eval ").count(), 89, "{pgn}");
    let back = janggi_records::pgn::read_pgn(&pgn).remove(0).unwrap();
    assert_eq!(back.plies.len(), 89);
}

/// An engine that knows only Fairy-Stockfish's `janggi` variant (a shell
/// script speaking just enough UCI): records under `janggikjf` rules are
/// not exactly its, so `analyse` warns once, sums the warnings up, and each
/// record says so in its first comment.
#[cfg(unix)]
#[test]
fn an_engine_without_the_records_rules_is_warned_about() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch_dir("near");
    let engine = dir.join("near.sh");
    std::fs::write(
        &engine,
        "#!/bin/sh\n\
         while read -r line; do\n\
           case \"$line\" in\n\
             uci) echo 'id name near'; echo 'option name UCI_Variant type combo default chess var chess var janggi'; echo uciok ;;\n\
             isready) echo readyok ;;\n\
             go*) echo 'info depth 1 score cp 10 pv a1a2'; echo 'bestmove a1a2' ;;\n\
             quit) exit 0 ;;\n\
           esac\n\
         done\n",
    )
    .unwrap();
    std::fs::set_permissions(&engine, std::fs::Permissions::from_mode(0o755)).unwrap();
    let fen = "3k4r/9/9/9/9/9/9/9/4K4/R8 w - - 0 1";
    let mut text = String::new();
    for i in 0..2 {
        text.push_str(&format!(
            "[Event \"g{i}\"]\n[Variant \"janggikjf\"]\n[FEN \"{fen}\"]\n\n1. a1a2 *\n\n"
        ));
    }
    let file = dir.join("games.pgn");
    std::fs::write(&file, text).unwrap();
    let (code, pgn, err) = run(&[
        "analyse",
        file.to_str().unwrap(),
        "--nodes",
        "100",
        "--engine",
        engine.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        err.matches("warning: the engine has neither").count(),
        1,
        "{err}"
    );
    assert!(err.contains("nearest variant `janggi`"), "{err}");
    assert!(err.contains("warning: 2 of 2 games"), "{err}");
    assert_eq!(
        pgn.matches("{Caution: the engine has neither").count(),
        2,
        "{pgn}"
    );
    // Our own engine takes the rules exactly: no warning.
    let (code, pgn, err) = run(&["analyse", file.to_str().unwrap(), "--nodes", "100"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        !err.contains("warning") && !pgn.contains("Caution"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_broken_game_is_counted_and_the_rules_can_be_chosen() {
    let dir = scratch_dir("counts");
    let file = dir.join("three.gib");
    let game = |moves: &str| {
        format!("[초차림 \"마상상마\"]\n[한차림 \"마상상마\"]\n[대국결과 \"초 승\"]\n\n{moves}\n\n")
    };
    let text = [
        game("1. 79卒78 2. 12馬33"),
        game("1. 79卒78 2. 55車45"),
        game("1. 02馬83 2. 12馬33"),
    ]
    .concat();
    std::fs::write(&file, janggi_records::gib::encode_cp949(&text)).unwrap();
    let f = file.to_str().unwrap();
    let (code, pgn, err) = run(&["analyse", f, "--nodes", "100", "--jobs", "1"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("analysed 2 of 3 games (1 could not be read)"),
        "{err}"
    );
    assert!(err.contains("game 2") && err.contains("'55車45'"), "{err}");
    assert_eq!(games_of(&pgn).len(), 2);
    // The rules every game is read and analysed under, on request.
    let (code, pgn, err) = run(&[
        "analyse",
        f,
        "--nodes",
        "100",
        "--jobs",
        "1",
        "--variant",
        "janggimodern",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(pgn.contains("noCaptureLimit=200"), "{pgn}");
    let (code, _, err) = run(&["analyse", f, "--variant", "nonsense"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown variant 'nonsense'"), "{err}");
    // An empty file holds no game: said, and a failure.
    let empty = dir.join("empty.gib");
    std::fs::write(&empty, "").unwrap();
    let (code, _, err) = run(&["analyse", empty.to_str().unwrap(), "--nodes", "100"]);
    assert_eq!(code, 2);
    assert!(err.contains("no games in the input"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_record_under_the_apps_rules_is_analysed_under_them() {
    // A real game that repeats a position a 4th time and plays on: read
    // under the apps' rules (repetition off), which the engine is told
    // (its `Repetition` option has `off`), so no caution is needed.
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/records/fourth-repetition.gib");
    let (code, pgn, err) = run(&[
        "analyse",
        file.to_str().unwrap(),
        "--nodes",
        "30",
        "--jobs",
        "1",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        !err.contains("Caution") && !pgn.contains("Caution"),
        "{err}"
    );
    assert!(pgn.contains("[Rules \"bikjang=off repetition=off"), "{pgn}");
}
