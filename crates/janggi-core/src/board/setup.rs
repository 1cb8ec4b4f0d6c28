//! The four horse/elephant arrangements (상차림) and the 16 start positions.
//!
//! Each player picks an arrangement as seen from their own side, left to
//! right. Cho's left is file b; Han sits opposite, so Han's left is file h.
//! Cho SMSM therefore puts elephant, horse on b1, c1 and elephant, horse on
//! g1, h1 (`RBNA1ABNR`); Han SMSM puts elephant, horse on h10, g10 and
//! elephant, horse on c10, b10 (`rnba1anbr`).

use super::fen::FenError;
use super::position::Position;
use std::fmt;
use std::str::FromStr;

/// A horse (마, M) / elephant (상, S) arrangement, read from the player's own
/// left to right over the four points between chariots and guards.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Setup {
    /// 마상상마 (안상차림, 원앙마).
    Mssm,
    /// 상마마상 (바깥상차림, 양귀마).
    Smms,
    /// 상마상마 (왼상차림, 귀마).
    Smsm,
    /// 마상마상 (오른상차림, 귀마).
    Msms,
}

impl Setup {
    /// All four, in the spec's order.
    pub const ALL: [Setup; 4] = [Setup::Mssm, Setup::Smms, Setup::Smsm, Setup::Msms];

    /// The name (`MSSM` …).
    pub const fn name(self) -> &'static str {
        match self {
            Setup::Mssm => "MSSM",
            Setup::Smms => "SMMS",
            Setup::Smsm => "SMSM",
            Setup::Msms => "MSMS",
        }
    }

    /// Letters (N = horse, B = elephant) for the player's own left-to-right points.
    const fn own_order(self) -> [char; 4] {
        match self {
            Setup::Mssm => ['N', 'B', 'B', 'N'],
            Setup::Smms => ['B', 'N', 'N', 'B'],
            Setup::Smsm => ['B', 'N', 'B', 'N'],
            Setup::Msms => ['N', 'B', 'N', 'B'],
        }
    }

    /// Cho's back rank (rank 1) FEN text.
    fn cho_rank(self) -> String {
        let o = self.own_order();
        // Cho's left-to-right is files b, c, g, h.
        format!("R{}{}A1A{}{}R", o[0], o[1], o[2], o[3])
    }

    /// Han's back rank (rank 10) FEN text, lower case.
    fn han_rank(self) -> String {
        let o = self.own_order();
        // Han's left-to-right is files h, g, c, b; FEN lists files a → i.
        format!("r{}{}a1a{}{}r", o[3], o[2], o[1], o[0]).to_ascii_lowercase()
    }
}

impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown arrangement name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownSetup(pub String);

impl fmt::Display for UnknownSetup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown setup '{}' (expected MSSM, SMMS, SMSM or MSMS)",
            self.0
        )
    }
}

impl std::error::Error for UnknownSetup {}

impl FromStr for Setup {
    type Err = UnknownSetup;
    fn from_str(s: &str) -> Result<Setup, UnknownSetup> {
        Setup::ALL
            .into_iter()
            .find(|x| x.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownSetup(s.to_string()))
    }
}

/// The standard start (`startpos`): Han MSSM, Cho MSSM.
pub const START_FEN: &str =
    "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1";

/// The FEN of the start position for Han's and Cho's arrangements.
pub fn setup_fen(han: Setup, cho: Setup) -> String {
    format!(
        "{}/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/{} w - - 0 1",
        han.han_rank(),
        cho.cho_rank()
    )
}

impl Position {
    /// The standard start position (Han MSSM, Cho MSSM).
    pub fn startpos() -> Position {
        Position::from_setups(Setup::Mssm, Setup::Mssm)
    }

    /// The start position for Han's and Cho's arrangements.
    pub fn from_setups(han: Setup, cho: Setup) -> Position {
        match Position::from_fen(&setup_fen(han, cho)) {
            Ok(p) => p,
            Err(e) => unreachable_setup(e),
        }
    }
}

#[cold]
fn unreachable_setup(e: FenError) -> Position {
    // The 16 setup FENs are fixed text covered by tests; this cannot happen.
    panic!("setup FEN invalid: {e}")
}
