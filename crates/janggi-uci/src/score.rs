//! The score of an `info` line: centipawns or mate, and its bound.

use crate::error::ParseError;
use std::fmt;
use std::str::FromStr;

/// Mate scores are mapped to centipawns as ±(`MATE_CP` − moves)
/// ([`Score::to_cp`]).
pub const MATE_CP: i32 = 100_000;

/// A score from an `info` line, from the engine's (side to move's) point
/// of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// `cp N`: centipawns.
    Cp(i32),
    /// `mate N`: mate in N moves (negative: being mated).
    Mate(i32),
}

impl Score {
    /// As centipawns, mates mapped to ±([`MATE_CP`] − N); N is taken up
    /// to [`MATE_CP`], so that a mate never reads as the other side's.
    pub fn to_cp(self) -> i32 {
        match self {
            Score::Cp(c) => c,
            Score::Mate(n) => {
                let moves = i32::try_from(n.unsigned_abs()).map_or(MATE_CP, |m| m.min(MATE_CP));
                if n > 0 {
                    MATE_CP - moves
                } else {
                    moves - MATE_CP
                }
            }
        }
    }

    /// The score in pawns as a PGN comment writes it: `+0.35`, `-1.20`,
    /// `+M5`, `-M3`.
    pub fn pawns(self) -> Pawns {
        Pawns(self)
    }

    /// The same score from the other side's point of view (`cp 35` →
    /// `cp -35`, `mate 3` → `mate -3`; `i32::MIN` becomes `i32::MAX`
    /// rather than overflowing).
    pub fn flip(self) -> Score {
        match self {
            Score::Cp(c) => Score::Cp(c.saturating_neg()),
            Score::Mate(n) => Score::Mate(n.saturating_neg()),
        }
    }

    /// The score as lichess writes it in a PGN `[%eval …]` comment: pawns
    /// with two decimals and no `+` (`0.35`, `-1.20`) or `#3` / `#-3`.
    pub fn eval_tag(self) -> String {
        match self {
            Score::Cp(c) => format!("{:.2}", f64::from(c) / 100.0),
            Score::Mate(n) => format!("#{n}"),
        }
    }
}

impl fmt::Display for Score {
    /// The wire form: `cp 35`, `mate -3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(c) => write!(f, "cp {c}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

impl FromStr for Score {
    type Err = ParseError;

    /// `cp N` or `mate N` (without the `score` keyword).
    fn from_str(s: &str) -> Result<Score, ParseError> {
        let mut w = crate::words::Words::new(s);
        let score = Score::read(&mut w)?;
        match w.next() {
            None => Ok(score),
            Some(t) => Err(ParseError::UnknownToken(t.to_string())),
        }
    }
}

impl Score {
    /// Reads `cp N` / `mate N` from the words after `score`.
    pub(crate) fn read(w: &mut crate::words::Words<'_>) -> Result<Score, ParseError> {
        match w.value("score")? {
            "cp" => Ok(Score::Cp(w.number("cp")?)),
            "mate" => Ok(Score::Mate(w.number("mate")?)),
            other => Err(ParseError::BadValue {
                field: "score",
                text: other.to_string(),
            }),
        }
    }
}

/// A [`Score`] in pawns, PGN-comment style (see [`Score::pawns`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pawns(pub Score);

impl fmt::Display for Pawns {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Score::Cp(c) => {
                let sign = if c < 0 { '-' } else { '+' };
                let a = c.unsigned_abs();
                write!(f, "{sign}{}.{:02}", a / 100, a % 100)
            }
            Score::Mate(n) => {
                write!(f, "{}M{}", if n < 0 { '-' } else { '+' }, n.unsigned_abs())
            }
        }
    }
}

/// `lowerbound` / `upperbound` after a score: the search failed high or
/// low, so the score is only a bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bound {
    /// `lowerbound`: the true score is at least this.
    Lower,
    /// `upperbound`: the true score is at most this.
    Upper,
}

impl Bound {
    /// The keyword, if `word` is one.
    pub fn from_word(word: &str) -> Option<Bound> {
        match word {
            "lowerbound" => Some(Bound::Lower),
            "upperbound" => Some(Bound::Upper),
            _ => None,
        }
    }
}

impl fmt::Display for Bound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Bound::Lower => "lowerbound",
            Bound::Upper => "upperbound",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores() {
        assert_eq!(Score::Mate(-3).to_cp(), -MATE_CP + 3);
        assert_eq!(Score::Mate(5).to_cp(), MATE_CP - 5);
        assert_eq!(Score::Mate(0).to_cp(), -MATE_CP);
        assert_eq!(Score::Mate(i32::MIN).to_cp(), 0);
        assert_eq!(Score::Mate(i32::MAX).to_cp(), 0);
        assert_eq!(Score::Mate(-MATE_CP - 5).to_cp(), 0);
        assert_eq!(Score::Cp(-120).pawns().to_string(), "-1.20");
        assert_eq!(Score::Cp(5).pawns().to_string(), "+0.05");
        assert_eq!(Score::Mate(5).pawns().to_string(), "+M5");
        assert_eq!(Score::Mate(-3).pawns().to_string(), "-M3");
        assert_eq!(Score::Cp(i32::MIN).pawns().to_string(), "-21474836.48");
        assert_eq!(Score::Cp(35).flip(), Score::Cp(-35));
        assert_eq!(Score::Mate(-3).flip(), Score::Mate(3));
        assert_eq!(Score::Cp(i32::MIN).flip(), Score::Cp(i32::MAX));
        assert_eq!(Score::Cp(-120).eval_tag(), "-1.20");
        assert_eq!(Score::Cp(5).eval_tag(), "0.05");
        assert_eq!(Score::Mate(3).eval_tag(), "#3");
        assert_eq!(Score::Mate(-2).eval_tag(), "#-2");
        for s in [Score::Cp(-35), Score::Mate(4), Score::Mate(-1)] {
            assert_eq!(s.to_string().parse(), Ok(s));
        }
        assert_eq!("cp 31".parse(), Ok(Score::Cp(31)));
        assert!("cp".parse::<Score>().is_err());
        assert!("cp 1 2".parse::<Score>().is_err());
        assert_eq!(
            "pawns 3".parse::<Score>(),
            Err(ParseError::BadValue {
                field: "score",
                text: "pawns".into()
            })
        );
        assert_eq!(Bound::from_word("lowerbound"), Some(Bound::Lower));
        assert_eq!(Bound::Upper.to_string(), "upperbound");
        assert_eq!(Bound::from_word("bound"), None);
    }
}
