use super::*;
use janggi_core::{LegalityModel, Position, Rules};
use janggi_records::pgn::read_pgn;
use janggi_records::GameResult;

/// A two-ply material search standing in for an engine: finds a piece
/// left hanging and a mate in one.
struct Material;

fn material(pos: &Position) -> i32 {
    let us = pos.side_to_move();
    pos.material(us) as i32 - pos.material(!us) as i32
}

fn search(pos: &Position, depth: u32) -> Score {
    let moves = pos.legal_moves(LegalityModel::Casual);
    if moves.is_empty() {
        return if pos.in_check() {
            Score::Mate(-1)
        } else {
            Score::Cp(0)
        };
    }
    if depth == 0 {
        return Score::Cp(100 * material(pos));
    }
    let mut best = i32::MIN;
    for &m in moves.iter() {
        let mut p = pos.clone();
        p.make(m);
        let s = match search(&p, depth - 1) {
            Score::Mate(n) if n < 0 => return Score::Mate(1),
            Score::Mate(_) => -100_000,
            Score::Cp(c) => -c,
        };
        best = best.max(s);
    }
    Score::Cp(best)
}

impl Evaluator for Material {
    fn evaluate(&mut self, fen: &str, moves: &[String]) -> Result<Eval, AnalysisError> {
        let mut pos = Position::from_fen(fen).unwrap();
        for m in moves {
            let mv = pos.parse_move(m, Notation::Uci).unwrap();
            pos.make(mv);
        }
        let score = search(&pos, 2);
        // The best move: the first whose reply search matches.
        let best = pos
            .legal_moves(LegalityModel::Casual)
            .iter()
            .copied()
            .find(|&m| {
                let mut p = pos.clone();
                p.make(m);
                match (score, search(&p, 1)) {
                    (Score::Mate(_), Score::Mate(n)) => n < 0,
                    (Score::Cp(c), Score::Cp(r)) => -r == c,
                    _ => false,
                }
            })
            .map(|m| pos.move_text(m, Notation::Uci))
            .unwrap_or_default();
        Ok(Eval { score, best })
    }
}

fn record(fen: &str, moves: &[&str]) -> Record {
    let mut game = Game::new(Position::from_fen(fen).unwrap(), Rules::default());
    for m in moves {
        let mv = game.position().parse_move(m, Notation::Uci).unwrap();
        game.play(mv).unwrap();
    }
    Record::from_game(&game)
}

#[test]
fn a_hanging_chariot_is_a_blunder() {
    // Cho's chariot goes to i1, where Han's chariot takes it.
    let rec = record("3k4r/9/9/9/9/9/9/9/4K4/R8 w - - 0 1", &["a1i1", "i10i1"]);
    let mut calls = 0;
    let a = analyse(&rec, &mut Material, &mut |_, _| calls += 1).unwrap();
    assert_eq!(calls, 3);
    assert_eq!(a.moves[0].mark, Some(Mark::Blunder), "{:?}", a.moves[0]);
    assert!(a.moves[0].loss >= BLUNDER);
    assert!(a.moves[0].best.is_some());
    assert_eq!(a.moves[1].mark, None, "taking the chariot is right");
    assert_eq!(a.sides[0].marks, [0, 0, 1]);
    assert!(a.sides[0].accuracy < a.sides[1].accuracy);
    // The annotated PGN reads back, with the marks and evals.
    let pgn = annotated_pgn(&rec, &a);
    assert!(pgn.contains("?? blunder"), "{pgn}");
    assert!(pgn.contains("[%eval "), "{pgn}");
    // The per-side summary: tags and the comment before the first move.
    assert!(pgn.contains("[WhiteBlunders \"1\"]"), "{pgn}");
    assert!(pgn.contains("[BlackBlunders \"0\"]"), "{pgn}");
    assert!(
        pgn.contains("[Annotator \"janggi-engine analyse\"]"),
        "{pgn}"
    );
    assert!(
        pgn.contains("{Cho: accuracy ")
            && pgn.contains("0 mistakes, 1 blunder. Han: accuracy 100.0"),
        "{pgn}"
    );
    let back = read_pgn(&pgn).remove(0).unwrap();
    assert_eq!(back.moves(), rec.moves());
    assert_eq!(
        back.tag("WhiteAccuracy"),
        Some(format!("{:.1}", a.sides[0].accuracy).as_str())
    );
    assert!(back.intro.as_deref().unwrap().contains("1 blunder"));
    assert!(back.plies[0]
        .comment
        .as_deref()
        .unwrap()
        .contains("blunder"));
    let json = to_json(&a);
    assert!(
        json.contains("\"mark\":\"blunder\"") && json.contains("\"cho\":{\"moves\":1"),
        "{json}"
    );
    let svg = svg_graph(&a, "test");
    assert!(
        svg.starts_with("<svg") && svg.contains("<circle") && svg.trim_end().ends_with("</svg>")
    );
}

#[test]
fn a_forced_mate_is_reported_as_mate() {
    let rec = record("3k5/R8/9/9/9/9/9/9/4K4/1R7 w - - 0 1", &["b1b10"]);
    let a = analyse(&rec, &mut Material, &mut |_, _| {}).unwrap();
    assert_eq!(a.start, Score::Mate(1));
    assert_eq!(a.start.eval_tag(), "#1");
    assert_eq!(a.moves[0].mark, None);
    assert_eq!(a.moves[0].best, None, "the mate was the best move");
    assert!(to_json(&a).contains("\"start\":{\"mate\":1}"));
}

#[test]
fn thresholds_and_probabilities() {
    assert_eq!(Mark::of_loss(9.9), None);
    assert_eq!(Mark::of_loss(10.0), Some(Mark::Inaccuracy));
    assert_eq!(Mark::of_loss(20.0), Some(Mark::Mistake));
    assert_eq!(Mark::of_loss(30.0), Some(Mark::Blunder));
    assert!((Score::Cp(0).win_probability() - 0.5).abs() < 1e-9);
    // 832 / 85 / 83 permille at +300 (src/protocol/wdl.rs): 0.8745.
    assert!((Score::Cp(300).win_probability() - 0.8745).abs() < 0.001);
    assert_eq!(Score::Mate(-2).win_probability(), 0.0);
    assert!((accuracy(0.0) - 100.0).abs() < 0.01);
    assert!(accuracy(50.0) < 15.0);
}

/// Games of different lengths from one small position.
fn small_games() -> Vec<Record> {
    let fen = "3k4r/9/9/9/9/9/9/9/4K4/R8 w - - 0 1";
    let shuffle = [
        "a1a2", "i10i9", "a2a3", "i9i8", "a3a2", "i8i9", "a2a1", "i9i10",
    ];
    vec![
        record(fen, &shuffle),
        record(fen, &["a1i1", "i10i1"]),
        record(fen, &shuffle[..3]),
        record("3k5/R8/9/9/9/9/9/9/4K4/1R7 w - - 0 1", &["b1b10"]),
        record(fen, &shuffle[..5]),
    ]
}

#[test]
fn many_games_in_parallel_come_back_in_input_order_and_equal_one_by_one() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let games = small_games();
    let one_by_one: Vec<GameAnalysis> = games
        .iter()
        .map(|g| analyse(g, &mut Material, &mut |_, _| {}).unwrap())
        .collect();
    let starts = AtomicUsize::new(0);
    let positions = AtomicUsize::new(0);
    let mut order = Vec::new();
    let mut results = Vec::new();
    batch::analyse_all(
        &games,
        3,
        || {
            starts.fetch_add(1, Ordering::SeqCst);
            Ok(Material)
        },
        |_, _, _| {
            positions.fetch_add(1, Ordering::SeqCst);
        },
        |i, r| {
            order.push(i);
            results.push(r.unwrap());
        },
    );
    assert_eq!(order, [0, 1, 2, 3, 4]);
    assert_eq!(results, one_by_one);
    let s = starts.load(Ordering::SeqCst);
    assert!((1..=3).contains(&s), "{s} engines for 3 jobs");
    let want: usize = games.iter().map(|g| g.plies.len() + 1).sum();
    assert_eq!(positions.load(Ordering::SeqCst), want);
}

#[test]
fn an_engine_that_fails_is_reported_for_its_game_and_replaced() {
    /// Fails on its first position.
    struct Broken;
    impl Evaluator for Broken {
        fn evaluate(&mut self, _: &str, _: &[String]) -> Result<Eval, AnalysisError> {
            Err(AnalysisError::NoAnswer("test".into()))
        }
    }
    let games = small_games();
    let mut errors = 0;
    batch::analyse_all(
        &games,
        2,
        || Ok(Broken),
        |_, _, _| {},
        |_, r| {
            if r.is_err() {
                errors += 1;
            }
        },
    );
    assert_eq!(errors, games.len());
    // An engine that does not start: every game says so.
    let mut starts = Vec::new();
    batch::analyse_all(
        &games[..2],
        1,
        || Err::<Material, _>(AnalysisError::Start("no such program".into())),
        |_, _, _| {},
        |i, r| starts.push((i, r.unwrap_err())),
    );
    assert_eq!(starts.len(), 2);
    assert!(matches!(starts[1], (1, AnalysisError::Start(_))));
}

#[test]
fn shards_split_the_games_by_their_place_in_the_input() {
    use batch::Shard;
    let shards: Vec<Shard> = ["1/3", "2/3", "3/3"]
        .iter()
        .map(|s| s.parse().unwrap())
        .collect();
    for k in 0..10 {
        let owners: Vec<usize> = shards
            .iter()
            .filter(|s| s.owns(k))
            .map(|s| s.index)
            .collect();
        assert_eq!(owners, [k % 3 + 1], "game {k}");
    }
    assert!(Shard::ALL.owns(7));
    for bad in ["0/3", "4/3", "1", "a/b", "1/0", ""] {
        assert!(bad.parse::<Shard>().is_err(), "{bad}");
    }
    assert_eq!(" 2 / 5 ".parse::<Shard>().unwrap().to_string(), "2/5");
}

#[test]
fn the_graph_title_names_the_players_the_record_names() {
    let mut rec = record("3k4r/9/9/9/9/9/9/9/4K4/R8 w - - 0 1", &["a1i1"]);
    assert_eq!(graph_title("a.gib game 1", &rec), "a.gib game 1");
    rec.set_tag("초대국자", "홍길동");
    assert_eq!(
        graph_title("a.gib game 1", &rec),
        "a.gib game 1: 홍길동 (Cho) – ? (Han)"
    );
    rec.set_tag("Black", " 김철수 ");
    assert_eq!(
        graph_title("a.gib game 1", &rec),
        "a.gib game 1: 홍길동 (Cho) – 김철수 (Han)"
    );
    // PGN's unknown player is no name.
    let mut rec = record("3k4r/9/9/9/9/9/9/9/4K4/R8 w - - 0 1", &["a1i1"]);
    rec.set_tag("White", "?");
    rec.set_tag("Black", "?");
    assert_eq!(graph_title("g", &rec), "g");
}

/// Hangul in the title is drawn with the embedded Hangul font (not as
/// `?`, not as empty or missing-glyph boxes); a character in neither font
/// is a `?`.
#[cfg(feature = "png")]
#[test]
fn the_png_graph_draws_hangul_titles() {
    use resvg::tiny_skia::Pixmap;
    let rec = record("3k4r/9/9/9/9/9/9/9/4K4/R8 w - - 0 1", &["a1i1", "i10i1"]);
    let a = analyse(&rec, &mut Material, &mut |_, _| {}).unwrap();
    // The title's band, left of the legend: the dark pixels of each column.
    let ink = |title: &str| -> Vec<u32> {
        let pix = Pixmap::decode_png(&png::png_graph(&a, title).unwrap()).unwrap();
        (0..700u32)
            .map(|x| {
                (0..50u32)
                    .filter(|&y| {
                        pix.pixel(x, y)
                            .is_some_and(|p| p.red() < 80 && p.green() < 80)
                    })
                    .count() as u32
            })
            .collect()
    };
    let total = |v: &[u32]| v.iter().sum::<u32>();
    let hangul = ink("홍길동 한");
    let question = ink("??? ?");
    // Three dense syllables carry far more ink than three question marks
    // (and an empty or boxed glyph would not).
    assert!(
        total(&hangul) > 2 * total(&question),
        "{} against {}",
        total(&hangul),
        total(&question)
    );
    assert_ne!(ink("한"), ink("할"), "two syllables drawn alike");
    // The Hanja of Korean records (楚漢, 段級, names) are drawn, each its
    // own glyph; others (and emoji) as `?`.
    for c in ['楚', '漢', '段', '級', '金', '九'] {
        assert!(png::drawable(c), "{c}");
        assert_ne!(ink(&c.to_string()), ink("?"), "{c} drawn as ?");
    }
    assert_ne!(ink("段"), ink("級"), "two Hanja drawn alike");
    assert!(total(&ink("김정수 九段")) > total(&ink("김정수 ??")));
    assert_eq!(ink("龘"), ink("?"));
    assert!(png::drawable('한') && png::drawable('ㄱ') && png::drawable('a'));
    assert!(!png::drawable('龘') && !png::drawable('😀'));
}

#[cfg(feature = "png")]
#[test]
fn the_png_graph_shows_the_curve_the_marks_and_the_text() {
    use resvg::tiny_skia::Pixmap;
    let rec = record("3k4r/9/9/9/9/9/9/9/4K4/R8 w - - 0 1", &["a1i1", "i10i1"]);
    let a = analyse(&rec, &mut Material, &mut |_, _| {}).unwrap();
    let png = png::png_graph(&a, "game.gib game 1 – 한").unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let pix = Pixmap::decode_png(&png).unwrap();
    assert_eq!((pix.width(), pix.height()), (1600, 600));
    let count = |pred: &dyn Fn(u8, u8, u8) -> bool| {
        pix.pixels()
            .iter()
            .filter(|p| pred(p.red(), p.green(), p.blue()))
            .count()
    };
    // The blunder's red dot (#d7263d, r = 5 at scale 2: about 300 pixels).
    let red = count(&|r, g, b| r > 190 && g < 70 && b < 90);
    assert!(red > 150, "{red} red pixels");
    // The curve (#2a6fdb).
    let blue = count(&|r, g, b| r < 70 && (90..130).contains(&g) && b > 200);
    assert!(blue > 500, "{blue} blue pixels");
    // The title and labels: dark pixels in the top left corner.
    let text = (0..50u32)
        .flat_map(|y| (0..400u32).map(move |x| (x, y)))
        .filter(|&(x, y)| {
            pix.pixel(x, y)
                .is_some_and(|p| p.red() < 80 && p.green() < 80)
        })
        .count();
    assert!(text > 200, "{text} text pixels");
    // The SVG has the same marks and the move numbers.
    let svg = svg_graph(&a, "t");
    assert!(
        svg.contains("#d7263d") && svg.contains(">Cho</text>"),
        "{svg}"
    );
    assert!(png::svg_to_png("<svg", 1.0).is_err());
}

#[cfg(feature = "progress")]
#[test]
fn a_quiet_progress_bar_is_not_drawn_and_counts_games() {
    let p = progress::Progress::new(10, 2, true);
    assert!(!p.is_drawn());
    for _ in 0..10 {
        p.position();
    }
    p.game_done();
    p.game_done();
    p.println("not shown above a hidden bar, printed plainly");
    p.finish();
}

/// Every test binary of this crate is also janggi-match's scripted engine.
#[test]
fn scripted_engine_entry() {
    janggi_match::scripted::entry();
}

/// A UCI engine started as `janggi-engine analyse --engine …` starts it,
/// playing `script`; returns it and the file logging what it was sent.
fn scripted_uci(name: &str, script: &str) -> (UciEngine, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("janggi-analysis-{}-{name}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let file = dir.join("script.txt");
    let log = dir.join("log.txt");
    let _ = std::fs::remove_file(&log);
    std::fs::write(&file, script).unwrap();
    let (cmd, args) = janggi_match::scripted::command(
        "tests::scripted_engine_entry",
        &[
            format!("script={}", file.display()),
            format!("log={}", log.display()),
        ],
    );
    let e = UciEngine::start(&cmd, &args, Limit::Nodes(100), None).expect("it starts");
    (e, log)
}

/// `UCI_Variant` is set from the record's rules, with only what the
/// engine lists: Fairy-Stockfish would otherwise analyse as chess.
#[test]
fn the_engine_is_told_the_records_rules() {
    let fsf = "uci: option name UCI_Variant type combo default chess var chess var janggi var janggicasual var janggimodern var janggitraditional\n\
               go: info depth 3 multipv 1 score cp 20 pv a1a2\n\
               go: info depth 3 multipv 2 score cp -500 pv b1b2\n\
               go: bestmove a1a2\n";
    let game_with = |rules: Rules| {
        let mut g = Game::new(Position::startpos(), rules);
        let m = g.legal_moves()[0];
        g.play(m).unwrap();
        Record::from_game(&g)
    };
    let modern = game_with(Rules::from_variant("janggimodern").unwrap());
    let kjf = game_with(Rules::default());
    let (mut e, log) = scripted_uci("fsf", fsf);
    let a = analyse(&modern, &mut e, &mut |_, _| {}).unwrap();
    assert_eq!(
        e.rules_setup(),
        Some(&RulesSetup::Variant("janggimodern".into()))
    );
    // Exactly the record's rules: nothing to warn about.
    assert_eq!(a.rules_caveat, None);
    assert!(to_json(&a).contains("\"rules_caveat\":null"));
    assert!(!annotated_pgn(&modern, &a).contains("Caution"));
    // The MultiPV line's worse score is not the position's.
    assert_eq!(a.start, Score::Cp(20));
    let a = analyse(&kjf, &mut e, &mut |_, _| {}).unwrap();
    assert_eq!(e.rules_setup(), Some(&RulesSetup::Nearest("janggi".into())));
    // Only the nearest variant: the analysis says so, in the record's
    // first comment and in the JSON.
    let caveat = a.rules_caveat.clone().expect("a caveat");
    assert!(caveat.contains("nearest variant `janggi`"), "{caveat}");
    assert!(caveat.contains(&Rules::default().to_string()), "{caveat}");
    let pgn = annotated_pgn(&kjf, &a);
    assert!(pgn.contains(&format!("{{Caution: {caveat}. Cho")), "{pgn}");
    assert!(to_json(&a).contains(&format!("\"rules_caveat\":\"{caveat}\"")));
    drop(e);
    let sent = std::fs::read_to_string(log).unwrap();
    let options: Vec<&str> = sent
        .lines()
        .filter(|l| l.starts_with("setoption"))
        .collect();
    assert_eq!(
        options,
        [
            "setoption name UCI_Variant value janggimodern",
            "setoption name UCI_Variant value janggi"
        ]
    );
    // Each game: the variant, then `ucinewgame`, before its first search.
    let first = sent.find("setoption").unwrap();
    assert!(sent[first..].find("ucinewgame") < sent[first..].find("position"));

    // An engine without `UCI_Variant` is sent none.
    let (mut e, log) = scripted_uci("plain", "go: bestmove a1a2\n");
    let a = analyse(&modern, &mut e, &mut |_, _| {}).unwrap();
    assert_eq!(e.rules_setup(), Some(&RulesSetup::Unsupported));
    let caveat = a.rules_caveat.expect("a caveat");
    assert!(caveat.contains("told no rules"), "{caveat}");
    drop(e);
    assert!(!std::fs::read_to_string(log).unwrap().contains("setoption"));
}

#[test]
fn the_last_move_of_a_game_ended_by_agreement_or_resignation_is_not_marked() {
    // a1i1 hangs the chariot: a blunder when the game goes on …
    let mut rec = record("3k4r/9/9/9/9/9/9/9/4K4/R8 w - - 0 1", &["a1i1"]);
    let a = analyse(&rec, &mut Material, &mut |_, _| {}).unwrap();
    assert_eq!(a.moves[0].mark, Some(Mark::Blunder));
    assert!(!a.ended_by_moves);
    // … but not when the players agreed a draw (or one resigned) after it:
    // the game ended there, not by the moves.
    for result in [GameResult::Draw, GameResult::HanWins] {
        rec.result = result;
        let a = analyse(&rec, &mut Material, &mut |_, _| {}).unwrap();
        assert_eq!(a.moves[0].mark, None, "{result:?}");
        assert_eq!(a.sides[0].marks, [0, 0, 0]);
        assert!(a.moves[0].loss > 30.0, "the loss is still measured");
    }
    // A mate ends the game by the moves: its marks stay as they are.
    let rec = record("3k5/R8/9/9/9/9/9/9/4K4/1R7 w - - 0 1", &["b1b10"]);
    let a = analyse(&rec, &mut Material, &mut |_, _| {}).unwrap();
    assert!(a.ended_by_moves);
}

#[test]
fn the_graph_counts_plies_and_names_the_result_and_the_rules() {
    // 12 plies: the axis counts 수 (plies) to 10, not full moves to 5.
    let moves = [
        "a1a2", "i10i9", "a2a1", "i9i10", "a1a2", "i10i9", "a2a3", "i9i8", "a3a2", "i8i9", "a2a1",
        "i9i10",
    ];
    let mut rec = record("3k4r/9/9/9/9/9/9/9/4K4/R8 w - - 0 1", &moves);
    rec.result = GameResult::HanWins;
    let a = analyse(&rec, &mut Material, &mut |_, _| {}).unwrap();
    let svg = svg_graph(&a, "t");
    let ticks: Vec<&str> = svg
        .split("text-anchor=\"middle\">")
        .skip(1)
        .filter_map(|t| t.split('<').next())
        .collect();
    assert_eq!(ticks, ["5", "10"], "{svg}");
    assert!(svg.contains(">수<"), "{svg}");
    assert!(
        svg.contains("Han won (0-1), by resignation or time – KJF rules"),
        "{svg}"
    );
    let mut modern = rec.clone();
    modern.rules = Rules::from_variant("janggimodern").unwrap();
    modern.result = GameResult::Draw;
    let a = analyse(&modern, &mut Material, &mut |_, _| {}).unwrap();
    assert!(svg_graph(&a, "t").contains("draw (1/2-1/2), by agreement – janggimodern rules"));
}
