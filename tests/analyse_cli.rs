//! `janggi-engine analyse`: a short game with a hanging chariot is marked
//! as a blunder by this engine, the PGN reads back, the graph is written.

use std::process::Command;

#[test]
fn analyse_marks_a_blunder_and_writes_pgn_json_and_graph() {
    let dir = std::env::temp_dir().join(format!("janggi-analyse-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
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
    assert!(err.contains("3/3 positions"), "{err}");

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
