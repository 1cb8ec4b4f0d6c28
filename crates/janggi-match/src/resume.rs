//! `--resume`: a match cut off (the session's end, a reboot, Ctrl-C) goes
//! on from the games its `--pgnout` file already holds.
//!
//! The same command line with `--resume` added plays only the games the
//! file does not hold finished, appends them, and counts the file's games
//! in every score, Elo and SPRT line, so the last summary is the whole
//! match's. A game is known by its number (`[Round]`); before any game is
//! played, every game of the file is checked against the game of that
//! number the match would play: the same engines on the same sides, the
//! same opening (`[Opening]`, `[FEN]` and its book moves), time controls,
//! rule set and event. A file of another match (another seed, book,
//! engine name or clock) is refused, naming the first game that differs,
//! and left as it is.
//!
//! Aborted games (`*`, the game in progress at a Ctrl-C) are played again.
//! A last game cut off while being written (the machine stopped in the
//! middle of the write) is removed from the file and played again; every
//! other damage is refused.

use super::pgn::{read_pgn, PgnGame};
use super::referee::Termination;
use janggi_core::Color;
use std::collections::BTreeSet;
use std::fmt;

/// The tags that say which game of which match a game is.
const IDENTITY: [&str; 11] = [
    "Event",
    "White",
    "Black",
    "FEN",
    "Variant",
    "RuleSet",
    "Rules",
    "Opening",
    "TimeControl",
    "WhiteTimeControl",
    "BlackTimeControl",
];

/// A finished game of the file, counted in the resumed match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayedGame {
    /// Its number in the match (`[Round]`).
    pub number: usize,
    /// The winner (`None`: a draw).
    pub winner: Option<Color>,
    /// How it ended (`[Termination]`).
    pub termination: Termination,
}

/// What the file holds for the match.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Resumed {
    /// Finished games, in file order.
    pub played: Vec<PlayedGame>,
    /// Games the file holds only aborted (`*`): played again.
    pub aborted: usize,
    /// A last game cut off while being written: the byte offset where it
    /// starts (the file is cut back to it) and its number when readable.
    pub cut: Option<(usize, Option<usize>)>,
}

impl Resumed {
    /// The numbers of the finished games.
    pub fn numbers(&self) -> BTreeSet<usize> {
        self.played.iter().map(|g| g.number).collect()
    }
}

/// Why a file cannot be resumed: the game (1-based, in file order) and
/// what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResumeError {
    /// The game's place in the file (1-based; 0: before the first game).
    pub game: usize,
    /// What is wrong.
    pub why: String,
}

impl fmt::Display for ResumeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.game == 0 {
            write!(f, "{}", self.why)
        } else {
            write!(f, "game {} of the file: {}", self.game, self.why)
        }
    }
}

impl std::error::Error for ResumeError {}

/// Byte offsets where the games of a PGN file this runner wrote start:
/// each line that opens with `[Event ` (the runner writes `Event` first).
pub fn game_starts(text: &str) -> Vec<usize> {
    let mut starts = Vec::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        if line.starts_with("[Event ") {
            starts.push(at);
        }
        at += line.len();
    }
    starts
}

/// The one complete game of `chunk` (game `game` of the file), or why it
/// is not one.
fn complete_game(chunk: &str, game: usize) -> Result<PgnGame, ResumeError> {
    let err = |why: String| ResumeError { game, why };
    let mut games = read_pgn(chunk).map_err(|e| err(e.to_string()))?;
    if games.len() != 1 {
        return Err(err(format!("{} games where one was expected", games.len())));
    }
    let g = games.remove(0);
    if g.result.is_empty() {
        return Err(err("no result at the end of its moves".to_string()));
    }
    if g.tag("Result") != Some(g.result.as_str()) {
        return Err(err(format!(
            "its result {} differs from its [Result] tag",
            g.result
        )));
    }
    Ok(g)
}

/// Reads the PGN file's `text` against the match: `expected(n)` is game
/// `n` as the match would start it (its identity tags and book moves, as
/// the runner writes them), `None` when the match has no game `n`.
///
/// # Errors
/// [`ResumeError`] when the file holds something other than this match's
/// games, or a damaged game before the last.
pub fn scan(
    text: &str,
    expected: &dyn Fn(usize) -> Option<PgnGame>,
) -> Result<Resumed, ResumeError> {
    let starts = game_starts(text);
    let head = &text[..starts.first().copied().unwrap_or(text.len())];
    if !head.trim().is_empty() {
        return Err(ResumeError {
            game: 0,
            why: "text before the first [Event] tag: not a file this runner wrote".to_string(),
        });
    }
    let mut resumed = Resumed::default();
    let mut seen = BTreeSet::new();
    let mut aborted = BTreeSet::new();
    for (i, &start) in starts.iter().enumerate() {
        let end = starts.get(i + 1).copied().unwrap_or(text.len());
        let chunk = &text[start..end];
        let err = |why: String| ResumeError { game: i + 1, why };
        let game = match complete_game(chunk, i + 1) {
            Ok(g) => g,
            Err(_) if i + 1 == starts.len() => {
                // The last game, cut off while being written.
                let number = chunk
                    .lines()
                    .find_map(|l| l.strip_prefix("[Round \"")?.strip_suffix("\"]"))
                    .and_then(|r| r.parse().ok());
                resumed.cut = Some((start, number));
                break;
            }
            Err(e) => return Err(e),
        };
        let number: usize = game
            .tag("Round")
            .and_then(|r| r.parse().ok())
            .ok_or_else(|| err("no game number ([Round])".to_string()))?;
        let want = expected(number).ok_or_else(|| {
            err(format!(
                "game number {number}: this match has no such game (fewer --games?)"
            ))
        })?;
        for tag in IDENTITY {
            if game.tag(tag) != want.tag(tag) {
                return Err(err(format!(
                    "game number {number}'s [{tag}] is {}, this match's is {}: another match \
                     (engines, seed, openings, clocks or rules differ); move the file away to \
                     start afresh",
                    shown(game.tag(tag)),
                    shown(want.tag(tag))
                )));
            }
        }
        if !game.moves.starts_with(&want.moves) {
            return Err(err(format!(
                "game number {number} does not start with this match's opening moves {}",
                want.moves.join(" ")
            )));
        }
        let winner = match game.result.as_str() {
            "*" => {
                aborted.insert(number);
                continue;
            }
            "1-0" => Some(Color::Cho),
            "0-1" => Some(Color::Han),
            "1/2-1/2" => None,
            other => return Err(err(format!("unknown result {other}"))),
        };
        let termination = game.termination().ok_or_else(|| {
            err(format!(
                "game number {number} has no known [Termination] reason"
            ))
        })?;
        if !seen.insert(number) {
            return Err(err(format!(
                "game number {number} is finished twice in the file"
            )));
        }
        resumed.played.push(PlayedGame {
            number,
            winner,
            termination,
        });
    }
    resumed.aborted = aborted.difference(&seen).count();
    Ok(resumed)
}

fn shown(v: Option<&str>) -> String {
    v.map_or_else(|| "missing".to_string(), |s| format!("\"{s}\""))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(round: usize, white: &str, result: &str, moves: &str) -> String {
        format!(
            "[Event \"m\"]\n[Round \"{round}\"]\n[White \"{white}\"]\n[Black \"b\"]\n\
             [Result \"{result}\"]\n[FEN \"f\"]\n[Termination \"checkmate; x\"]\n\n\
             {moves} {result}\n\n"
        )
    }

    fn expected(n: usize) -> Option<PgnGame> {
        (1..=4).contains(&n).then(|| PgnGame {
            tags: vec![
                ("Event".into(), "m".into()),
                ("White".into(), "a".into()),
                ("Black".into(), "b".into()),
                ("FEN".into(), "f".into()),
            ],
            moves: vec!["b1c3".into()],
            result: String::new(),
        })
    }

    #[test]
    fn finished_games_count_aborted_and_cut_ones_are_played_again() {
        // Game 1 was aborted once and then finished; game 4 only aborted.
        let mut text = game(2, "a", "0-1", "1. b1c3 b10c8");
        text += &game(1, "a", "*", "1. b1c3");
        text += &game(4, "a", "*", "1. b1c3");
        text += &game(1, "a", "1-0", "1. b1c3 b10c8 2. c1d3");
        let whole = text.clone();
        text += "[Event \"m\"]\n[Round \"3\"]\n[White \"a\"]\n[Bla";
        let r = scan(&text, &expected).unwrap();
        assert_eq!(
            r.played.iter().map(|g| g.number).collect::<Vec<_>>(),
            [2, 1]
        );
        assert_eq!(r.played[0].winner, Some(Color::Han));
        assert_eq!(r.played[1].winner, Some(Color::Cho));
        assert_eq!(r.aborted, 1);
        assert_eq!(r.cut, Some((whole.len(), Some(3))));
        // Cut in the moves, in a comment, or whole: the same.
        let third = game(3, "a", "1-0", "1. b1c3 {0.1s} b10c8");
        for end in [
            third.find("{0.1").unwrap() + 3,
            third.find("b10c8").unwrap() + 5,
        ] {
            let cut = whole.clone() + &third[..end];
            let r = scan(&cut, &expected).unwrap();
            assert_eq!(r.cut, Some((whole.len(), Some(3))), "{}", &third[..end]);
            assert_eq!(r.played.len(), 2);
        }
        assert_eq!(scan(&whole, &expected).unwrap().cut, None);
        assert_eq!(scan("", &expected).unwrap(), Resumed::default());
    }

    #[test]
    fn another_match_or_damage_is_refused() {
        // Another engine on Cho's side.
        let e = scan(&game(1, "x", "1-0", "1. b1c3"), &expected).unwrap_err();
        assert!(e.why.contains("[White]"), "{e}");
        // A game number the match does not have.
        let e = scan(&game(9, "a", "1-0", "1. b1c3"), &expected).unwrap_err();
        assert!(e.why.contains("no such game"), "{e}");
        // Other opening moves.
        let e = scan(&game(1, "a", "1-0", "1. a1a2"), &expected).unwrap_err();
        assert!(e.why.contains("opening moves"), "{e}");
        // The same game finished twice.
        let twice = game(1, "a", "1-0", "1. b1c3") + &game(1, "a", "0-1", "1. b1c3");
        assert_eq!(scan(&twice, &expected).unwrap_err().game, 2);
        // A damaged game before the last.
        let damaged = game(1, "a", "1-0", "1. b1c3 {x") + &game(2, "a", "1-0", "1. b1c3");
        assert_eq!(scan(&damaged, &expected).unwrap_err().game, 1);
        // Not this runner's file.
        assert_eq!(
            scan("1. b1c3 *\n", &expected).unwrap_err().game,
            0,
            "text before the first game"
        );
        // Result token and tag disagree (hand-edited): refused, not guessed.
        let edited = game(1, "a", "1-0", "1. b1c3").replace("1-0\n\n", "0-1\n\n");
        let two = edited + &game(2, "a", "1-0", "1. b1c3");
        assert!(scan(&two, &expected).unwrap_err().why.contains("[Result]"));
    }
}
