//! Colors, piece kinds and pieces.

use std::ops::{Index, IndexMut, Not};

/// A side. Cho (초, blue/green) moves first; Han (한, red) moves second and
/// receives the 1.5-point deom (덤).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Color {
    /// Cho (초), upper case in FEN, `w` to move.
    Cho = 0,
    /// Han (한), lower case in FEN, `b` to move.
    Han = 1,
}

impl Color {
    /// Both colors, Cho first.
    pub const BOTH: [Color; 2] = [Color::Cho, Color::Han];

    /// 0 for Cho, 1 for Han.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The rank direction this side's soldiers advance in (+1 for Cho, -1 for Han).
    #[inline]
    pub const fn forward(self) -> i8 {
        match self {
            Color::Cho => 1,
            Color::Han => -1,
        }
    }

    /// English name.
    pub const fn name(self) -> &'static str {
        match self {
            Color::Cho => "cho",
            Color::Han => "han",
        }
    }

    /// Korean name (초 / 한).
    pub const fn korean(self) -> &'static str {
        match self {
            Color::Cho => "초",
            Color::Han => "한",
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        match self {
            Color::Cho => Color::Han,
            Color::Han => Color::Cho,
        }
    }
}

/// The seven piece kinds.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum PieceKind {
    /// General (궁/장, gung), FEN `K`.
    General = 0,
    /// Guard (사, sa), FEN `A`.
    Guard = 1,
    /// Elephant (상, sang), FEN `B` (or `E`).
    Elephant = 2,
    /// Horse (마, ma), FEN `N` (or `H`).
    Horse = 3,
    /// Chariot (차, cha), FEN `R`.
    Chariot = 4,
    /// Cannon (포, po), FEN `C`.
    Cannon = 5,
    /// Soldier (졸/병, jol/byeong), FEN `P`.
    Soldier = 6,
}

impl PieceKind {
    /// All kinds in index order.
    pub const ALL: [PieceKind; 7] = [
        PieceKind::General,
        PieceKind::Guard,
        PieceKind::Elephant,
        PieceKind::Horse,
        PieceKind::Chariot,
        PieceKind::Cannon,
        PieceKind::Soldier,
    ];

    /// 0..7.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Upper-case FEN letter.
    pub const fn letter(self) -> char {
        match self {
            PieceKind::General => 'K',
            PieceKind::Guard => 'A',
            PieceKind::Elephant => 'B',
            PieceKind::Horse => 'N',
            PieceKind::Chariot => 'R',
            PieceKind::Cannon => 'C',
            PieceKind::Soldier => 'P',
        }
    }

    /// Parses an upper- or lower-case FEN letter (H/E accepted for horse/elephant).
    pub const fn from_letter(c: char) -> Option<PieceKind> {
        Some(match c.to_ascii_uppercase() {
            'K' => PieceKind::General,
            'A' => PieceKind::Guard,
            'B' | 'E' => PieceKind::Elephant,
            'N' | 'H' => PieceKind::Horse,
            'R' => PieceKind::Chariot,
            'C' => PieceKind::Cannon,
            'P' => PieceKind::Soldier,
            _ => return None,
        })
    }

    /// How many of this kind a side starts with (and may have at most).
    pub const fn max_count(self) -> u32 {
        match self {
            PieceKind::General => 1,
            PieceKind::Soldier => 5,
            _ => 2,
        }
    }

    /// Point value for counting (spec §6): chariot 13, cannon 7, horse 5,
    /// elephant 3, guard 3, soldier 2, general 0.
    pub const fn points(self) -> u32 {
        match self {
            PieceKind::General => 0,
            PieceKind::Guard => 3,
            PieceKind::Elephant => 3,
            PieceKind::Horse => 5,
            PieceKind::Chariot => 13,
            PieceKind::Cannon => 7,
            PieceKind::Soldier => 2,
        }
    }

    /// Korean name.
    pub const fn korean(self) -> &'static str {
        match self {
            PieceKind::General => "궁",
            PieceKind::Guard => "사",
            PieceKind::Elephant => "상",
            PieceKind::Horse => "마",
            PieceKind::Chariot => "차",
            PieceKind::Cannon => "포",
            PieceKind::Soldier => "졸",
        }
    }

    /// English name, lower case (`"chariot"`).
    pub const fn english(self) -> &'static str {
        match self {
            PieceKind::General => "general",
            PieceKind::Guard => "guard",
            PieceKind::Elephant => "elephant",
            PieceKind::Horse => "horse",
            PieceKind::Chariot => "chariot",
            PieceKind::Cannon => "cannon",
            PieceKind::Soldier => "soldier",
        }
    }
}

/// A colored piece.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    /// Owner.
    pub color: Color,
    /// Kind.
    pub kind: PieceKind,
}

impl Piece {
    /// A piece of `color` and `kind`.
    #[inline]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece { color, kind }
    }

    /// 0..14: color * 7 + kind.
    #[inline]
    pub const fn index(self) -> usize {
        self.color.index() * 7 + self.kind.index()
    }

    /// FEN letter: upper case for Cho, lower case for Han.
    pub const fn letter(self) -> char {
        match self.color {
            Color::Cho => self.kind.letter(),
            Color::Han => self.kind.letter().to_ascii_lowercase(),
        }
    }

    /// Parses a FEN letter (H/E accepted).
    pub const fn from_letter(c: char) -> Option<Piece> {
        match PieceKind::from_letter(c) {
            Some(kind) => Some(Piece {
                color: if c.is_ascii_uppercase() {
                    Color::Cho
                } else {
                    Color::Han
                },
                kind,
            }),
            None => None,
        }
    }
}

/// A value per color, indexed by [`Color`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct ByColor<T>(pub [T; 2]);

impl<T> Index<Color> for ByColor<T> {
    type Output = T;
    #[inline]
    fn index(&self, c: Color) -> &T {
        &self.0[c.index()]
    }
}

impl<T> IndexMut<Color> for ByColor<T> {
    #[inline]
    fn index_mut(&mut self, c: Color) -> &mut T {
        &mut self.0[c.index()]
    }
}

/// A value per piece kind, indexed by [`PieceKind`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct ByKind<T>(pub [T; 7]);

impl<T> Index<PieceKind> for ByKind<T> {
    type Output = T;
    #[inline]
    fn index(&self, k: PieceKind) -> &T {
        &self.0[k.index()]
    }
}

impl<T> IndexMut<PieceKind> for ByKind<T> {
    #[inline]
    fn index_mut(&mut self, k: PieceKind) -> &mut T {
        &mut self.0[k.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_round_trip() {
        for c in Color::BOTH {
            for k in PieceKind::ALL {
                let p = Piece::new(c, k);
                assert_eq!(Piece::from_letter(p.letter()), Some(p));
            }
        }
        assert_eq!(PieceKind::from_letter('h'), Some(PieceKind::Horse));
        assert_eq!(PieceKind::from_letter('E'), Some(PieceKind::Elephant));
        assert_eq!(PieceKind::from_letter('Q'), None);
    }

    #[test]
    fn starting_material_is_72() {
        let total: u32 = PieceKind::ALL
            .iter()
            .map(|k| k.points() * k.max_count())
            .sum();
        assert_eq!(total, 72);
    }
}
