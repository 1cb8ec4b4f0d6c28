//! A fake engine for testing the match runner (`janggi-fake-engine
//! KEY=VALUE…`). It speaks UCI or USI, plays legal moves under the rules it
//! was given (`UCI_Variant` and the rule options), preferring the biggest
//! capture, otherwise a pseudo-random move, and misbehaves on request:
//!
//! | key | effect |
//! |---|---|
//! | `mode=illegal` | at the `at`-th `go` of each game: a parseable but illegal move |
//! | `mode=garbage` | at the `at`-th `go`: `bestmove xyzzy` |
//! | `mode=crash` | at the `at`-th `go`: exit with code 3 |
//! | `mode=hang` | from the `at`-th `go` on: never answer, ignore `stop` |
//! | `mode=late` | at the `at`-th `go`: sleep `late` ms (ignoring `stop`), then answer |
//! | `mode=resign` | at the `at`-th `go`: `bestmove resign` |
//! | `pct=P` | every move takes P % of the byoyomi period (once the main time is gone) or of `movetime` |
//! | `score=CP` | report `info depth 1 score cp CP` (default 0) |
//! | `seed=S` | seed of the random choice |
//! | `period=K` | misbehave only in games 1…K−1 of every K (counted by `ucinewgame`) |
//! | `tunable=1` | offer a `SearchTune` option whose `greed=P` (0–100, default 100) is the per cent of moves chosen among the biggest captures, the rest uniformly among all legal moves: a strength knob for the SPSA tests; any other name is answered with `info string error` |
//!
//! A test double, never shipped: the binary of the `janggi-match-tests`
//! package, whose tests (tests/tournament.rs) get its path from
//! `CARGO_BIN_EXE_janggi-fake-engine`, so plain `cargo test` builds it.

use janggi_core::{Color, Game, Move, Notation, Position, Rules, Square};
use janggi_uci::{Dialect, Go};
use std::io::{self, BufRead, Write};
use std::thread;
use std::time::Duration;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Normal,
    Illegal,
    Garbage,
    Crash,
    Hang,
    Late,
    Resign,
}

struct Fake {
    mode: Mode,
    at: u32,
    pct: Option<u64>,
    late_ms: u64,
    score: i32,
    seed: u64,
    notation: Notation,
    variant: String,
    overrides: Vec<(String, String)>,
    game: Option<Game>,
    gos: u32,
    period: u32,
    games: u32,
    tunable: bool,
    greed: u64,
}

fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Fake {
    fn rules(&self) -> Rules {
        let mut r = Rules::from_variant(&self.variant).unwrap_or_default();
        for (k, v) in &self.overrides {
            let _ = r.set_option(k, v);
        }
        r
    }

    fn position(&mut self, line: &str) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let moves_at = words.iter().position(|w| *w == "moves");
        let head = &words[1..moves_at.unwrap_or(words.len())];
        let pos = match head.first() {
            Some(&"startpos") => Some(Position::startpos()),
            Some(&"fen") => Position::from_fen(&head[1..].join(" ")).ok(),
            _ => None,
        };
        self.game = pos.map(|p| {
            let mut g = Game::new(p, self.rules());
            if let Some(i) = moves_at {
                for t in &words[i + 1..] {
                    let Ok(m) = g.position().parse_move(t, self.notation) else {
                        break;
                    };
                    if g.play(m).is_err() {
                        break;
                    }
                }
            }
            g
        });
    }

    fn choose(&self) -> Option<String> {
        let g = self.game.as_ref()?;
        let legal = g.legal_moves();
        if legal.is_empty() {
            return None;
        }
        let pos = g.position();
        let value = |m: &Move| {
            if m.is_pass() {
                return 0;
            }
            pos.piece_at(m.to()).map_or(0, |p| p.kind.points() + 1)
        };
        let best = legal.iter().map(value).max().unwrap_or(0);
        let pool: Vec<Move> = legal.iter().copied().filter(|m| value(m) == best).collect();
        let r = mix(pos.key() ^ self.seed ^ u64::from(g.ply())) as usize;
        let greedy = mix(r as u64 ^ 0x6772_6565_6479) % 100 < self.greed;
        let mv = if greedy {
            pool[r % pool.len()]
        } else {
            legal[r % legal.len()]
        };
        Some(pos.move_text(mv, self.notation))
    }

    fn illegal(&self) -> String {
        // A move from an empty square: parseable, never legal.
        let pos = self.game.as_ref().map(Game::position);
        let empty = Square::ALL
            .iter()
            .copied()
            .find(|&s| pos.is_some_and(|p| p.piece_at(s).is_none()))
            .unwrap_or(Square::ALL[40]);
        let to = Square::ALL
            .iter()
            .copied()
            .find(|&s| s != empty)
            .unwrap_or(empty);
        match Move::new(empty, to) {
            Some(m) => Position::startpos().move_text(m, self.notation),
            None => "e5e6".to_string(),
        }
    }

    /// How long to think for `go` (read as a [`Go`]): `pct` % of the
    /// byoyomi period once the own main time is gone, else of `movetime`.
    fn think_ms(&self, go: &Go) -> Option<u64> {
        let pct = self.pct?;
        let side = self.game.as_ref().map_or(Color::Cho, Game::side_to_move);
        let dialect = match self.notation {
            Notation::Usi => Dialect::Usi,
            Notation::Uci => Dialect::Uci,
        };
        let base = match (go.byoyomi, go.time(dialect, side), go.movetime) {
            (Some(b), Some(0), _) => b,
            (_, _, Some(mt)) => mt,
            _ => return None,
        };
        Some(base.saturating_mul(pct) / 100)
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(run(&args));
}

/// Runs the fake engine on stdin/stdout; returns the exit code.
fn run(args: &[String]) -> i32 {
    let mut f = Fake {
        mode: Mode::Normal,
        at: 1,
        pct: None,
        late_ms: 0,
        score: 0,
        seed: 0,
        notation: Notation::Uci,
        variant: "janggikjf".to_string(),
        overrides: Vec::new(),
        game: None,
        gos: 0,
        period: 0,
        games: 0,
        tunable: false,
        greed: 100,
    };
    for a in args {
        let (k, v) = a.split_once('=').unwrap_or((a.as_str(), ""));
        match k {
            "mode" => {
                f.mode = match v {
                    "illegal" => Mode::Illegal,
                    "garbage" => Mode::Garbage,
                    "crash" => Mode::Crash,
                    "hang" => Mode::Hang,
                    "late" => Mode::Late,
                    "resign" => Mode::Resign,
                    _ => Mode::Normal,
                }
            }
            "at" => f.at = v.parse().unwrap_or(1),
            "pct" => f.pct = v.parse().ok(),
            "late" => f.late_ms = v.parse().unwrap_or(0),
            "score" => f.score = v.parse().unwrap_or(0),
            "seed" => f.seed = v.parse().unwrap_or(0),
            "period" => f.period = v.parse().unwrap_or(0),
            "tunable" => f.tunable = v == "1",
            _ => {}
        }
    }
    let stdin = io::stdin();
    let mut out = io::stdout();
    let mut hung = false;
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        let reply: Vec<String> = match words.first().copied() {
            _ if hung => {
                if words.first() == Some(&"quit") {
                    // A hung engine ignores quit too: the runner must kill it.
                }
                continue;
            }
            Some("uci") | Some("usi") => {
                let usi = words[0] == "usi";
                f.notation = if usi { Notation::Usi } else { Notation::Uci };
                let mut lines: Vec<String> = vec![
                    "id name FakeEngine".into(),
                    "option name UCI_Variant type combo default janggikjf var janggikjf var janggi \
                     var janggitraditional var janggimodern var janggicasual"
                        .into(),
                    "option name Bikjang type combo default kjf var off var kjf var kja30 var fsf"
                        .into(),
                    "option name Scoring type check default true".into(),
                    "option name AllowPass type check default true".into(),
                    "option name MoveLimit type spin default 0 min 0 max 250".into(),
                ];
                if f.tunable {
                    lines.push("option name SearchTune type string default default".into());
                }
                lines.push(if usi { "usiok".into() } else { "uciok".into() });
                lines
            }
            Some("isready") => vec!["readyok".into()],
            Some("ucinewgame") | Some("usinewgame") => {
                // `at` counts the moves of each game.
                f.gos = 0;
                f.games += 1;
                continue;
            }
            Some("setoption") => {
                let text = line.as_str();
                if let (Some(n), Some(v)) = (text.find(" name "), text.find(" value ")) {
                    if n < v {
                        let name = text[n + 6..v].trim().to_string();
                        let value = text[v + 7..].trim().to_string();
                        if name.eq_ignore_ascii_case("UCI_Variant") {
                            f.variant = value;
                        } else if f.tunable && name.eq_ignore_ascii_case("SearchTune") {
                            for item in value.split([',', ' ']).filter(|i| !i.is_empty()) {
                                match item.split_once('=') {
                                    Some(("greed", p)) => {
                                        f.greed = p.parse::<u64>().unwrap_or(100).min(100);
                                    }
                                    // As the real engine answers a name it does not know.
                                    _ => {
                                        let _ = writeln!(
                                            out,
                                            "info string error: no search parameter '{item}'"
                                        );
                                    }
                                }
                            }
                        } else {
                            f.overrides.push((name, value));
                        }
                    }
                }
                continue;
            }
            Some("position") => {
                f.position(&line);
                continue;
            }
            Some("go") => {
                f.gos += 1;
                let active = f.period == 0 || !f.games.is_multiple_of(f.period);
                let now = active && f.gos == f.at;
                match f.mode {
                    Mode::Crash if now => return 3,
                    Mode::Hang if active && f.gos >= f.at => {
                        hung = true;
                        continue;
                    }
                    Mode::Late if now => thread::sleep(Duration::from_millis(f.late_ms)),
                    _ => {}
                }
                // A line the runner wrote is a canonical `Go`; anything
                // else still gets a move, without thinking.
                let go = line.parse::<Go>().unwrap_or_default();
                if let Some(ms) = f.think_ms(&go) {
                    thread::sleep(Duration::from_millis(ms));
                }
                let mv = match f.mode {
                    Mode::Illegal if now => f.illegal(),
                    Mode::Garbage if now => "xyzzy".to_string(),
                    Mode::Resign if now => "resign".to_string(),
                    _ => f.choose().unwrap_or_else(|| match f.notation {
                        Notation::Usi => "resign".to_string(),
                        Notation::Uci => "(none)".to_string(),
                    }),
                };
                vec![
                    format!("info depth 1 score cp {} nodes 1 pv {mv}", f.score),
                    format!("bestmove {mv}"),
                ]
            }
            Some("quit") => return 0,
            _ => continue,
        };
        for r in reply {
            if writeln!(out, "{r}").is_err() {
                return 1;
            }
        }
        if out.flush().is_err() {
            return 1;
        }
    }
    0
}
