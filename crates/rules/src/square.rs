//! Files, ranks and squares (Art. 2.4).

use crate::Color;
use core::fmt;
use core::str::FromStr;

/// A file (column) a–h, index 0–7.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct File(u8);

/// A rank (row) 1–8, index 0–7.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rank(u8);

impl File {
    /// File a.
    pub const A: File = File(0);
    /// File b.
    pub const B: File = File(1);
    /// File c.
    pub const C: File = File(2);
    /// File d.
    pub const D: File = File(3);
    /// File e.
    pub const E: File = File(4);
    /// File f.
    pub const F: File = File(5);
    /// File g.
    pub const G: File = File(6);
    /// File h.
    pub const H: File = File(7);
    /// All files, a first.
    pub const ALL: [File; 8] = [
        File(0),
        File(1),
        File(2),
        File(3),
        File(4),
        File(5),
        File(6),
        File(7),
    ];

    /// File from index 0–7.
    #[inline]
    pub const fn new(index: u8) -> Option<File> {
        if index < 8 {
            Some(File(index))
        } else {
            None
        }
    }
    /// Index 0–7.
    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }
    /// The lower-case letter.
    #[inline]
    pub const fn char(self) -> char {
        (b'a' + self.0) as char
    }
    /// File from its letter, either case.
    pub const fn from_char(c: char) -> Option<File> {
        match c {
            'a'..='h' => Some(File(c as u8 - b'a')),
            'A'..='H' => Some(File(c as u8 - b'A')),
            _ => None,
        }
    }
    /// Index difference `other - self`.
    #[inline]
    pub const fn distance(self, other: File) -> u8 {
        self.0.abs_diff(other.0)
    }
}

impl Rank {
    /// Rank 1.
    pub const FIRST: Rank = Rank(0);
    /// Rank 2.
    pub const SECOND: Rank = Rank(1);
    /// Rank 3.
    pub const THIRD: Rank = Rank(2);
    /// Rank 4.
    pub const FOURTH: Rank = Rank(3);
    /// Rank 5.
    pub const FIFTH: Rank = Rank(4);
    /// Rank 6.
    pub const SIXTH: Rank = Rank(5);
    /// Rank 7.
    pub const SEVENTH: Rank = Rank(6);
    /// Rank 8.
    pub const EIGHTH: Rank = Rank(7);
    /// All ranks, 1 first.
    pub const ALL: [Rank; 8] = [
        Rank(0),
        Rank(1),
        Rank(2),
        Rank(3),
        Rank(4),
        Rank(5),
        Rank(6),
        Rank(7),
    ];

    /// Rank from index 0–7.
    #[inline]
    pub const fn new(index: u8) -> Option<Rank> {
        if index < 8 {
            Some(Rank(index))
        } else {
            None
        }
    }
    /// Index 0–7.
    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }
    /// The digit 1–8.
    #[inline]
    pub const fn char(self) -> char {
        (b'1' + self.0) as char
    }
    /// Rank from its digit.
    pub const fn from_char(c: char) -> Option<Rank> {
        match c {
            '1'..='8' => Some(Rank(c as u8 - b'1')),
            _ => None,
        }
    }
    /// The rank as seen from `color`'s side (rank 1 for Black is rank 8).
    #[inline]
    pub const fn relative_to(self, color: Color) -> Rank {
        match color {
            Color::White => self,
            Color::Black => Rank(7 - self.0),
        }
    }
    /// `color`'s back rank.
    #[inline]
    pub const fn back_rank(color: Color) -> Rank {
        match color {
            Color::White => Rank(0),
            Color::Black => Rank(7),
        }
    }
}

/// A square, index 0 (a1) to 63 (h8), rank by rank.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

macro_rules! squares {
    ($($name:ident = $i:expr),* $(,)?) => {
        impl Square {
            $(
                #[doc = concat!("The square ", stringify!($name), ".")]
                pub const $name: Square = Square($i);
            )*
        }
    };
}

squares! {
    A1 = 0, B1 = 1, C1 = 2, D1 = 3, E1 = 4, F1 = 5, G1 = 6, H1 = 7,
    A2 = 8, B2 = 9, C2 = 10, D2 = 11, E2 = 12, F2 = 13, G2 = 14, H2 = 15,
    A3 = 16, B3 = 17, C3 = 18, D3 = 19, E3 = 20, F3 = 21, G3 = 22, H3 = 23,
    A4 = 24, B4 = 25, C4 = 26, D4 = 27, E4 = 28, F4 = 29, G4 = 30, H4 = 31,
    A5 = 32, B5 = 33, C5 = 34, D5 = 35, E5 = 36, F5 = 37, G5 = 38, H5 = 39,
    A6 = 40, B6 = 41, C6 = 42, D6 = 43, E6 = 44, F6 = 45, G6 = 46, H6 = 47,
    A7 = 48, B7 = 49, C7 = 50, D7 = 51, E7 = 52, F7 = 53, G7 = 54, H7 = 55,
    A8 = 56, B8 = 57, C8 = 58, D8 = 59, E8 = 60, F8 = 61, G8 = 62, H8 = 63,
}

impl Square {
    /// Square from index 0–63.
    #[inline]
    pub const fn new(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// Square from an index known to be below 64.
    ///
    /// # Panics
    /// In debug builds, if `index >= 64`. In release builds the index is masked to 0–63.
    #[inline]
    pub const fn new_unchecked(index: u8) -> Square {
        debug_assert!(index < 64);
        Square(index & 63)
    }

    /// The square on `file` and `rank`.
    #[inline]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square(rank.0 * 8 + file.0)
    }

    /// Index 0–63.
    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// Index as `usize`, for tables.
    #[inline]
    pub const fn idx(self) -> usize {
        self.0 as usize
    }

    /// The file.
    #[inline]
    pub const fn file(self) -> File {
        File(self.0 & 7)
    }

    /// The rank.
    #[inline]
    pub const fn rank(self) -> Rank {
        Rank(self.0 >> 3)
    }

    /// The same square seen from the other side (a1 ↔ a8).
    #[inline]
    pub const fn flip_vertical(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// The square mirrored for `color`: unchanged for White, flipped for Black.
    #[inline]
    pub const fn relative_to(self, color: Color) -> Square {
        match color {
            Color::White => self,
            Color::Black => self.flip_vertical(),
        }
    }

    /// The square `df` files and `dr` ranks away, if on the board.
    #[inline]
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = (self.0 & 7) as i8 + df;
        let r = (self.0 >> 3) as i8 + dr;
        if f >= 0 && f < 8 && r >= 0 && r < 8 {
            Some(Square((r * 8 + f) as u8))
        } else {
            None
        }
    }

    /// `true` for a light square (h1 is light, Art. 2.1).
    #[inline]
    pub const fn is_light(self) -> bool {
        ((self.0 & 7) + (self.0 >> 3)) % 2 == 1
    }

    /// The larger of the file and rank distances (king steps).
    pub const fn distance(self, other: Square) -> u8 {
        let df = (self.0 & 7).abs_diff(other.0 & 7);
        let dr = (self.0 >> 3).abs_diff(other.0 >> 3);
        if df > dr {
            df
        } else {
            dr
        }
    }

    /// All 64 squares, a1 first.
    pub fn all() -> impl Iterator<Item = Square> + Clone {
        (0..64u8).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().char())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            self.file().char().to_ascii_uppercase(),
            self.rank().char()
        )
    }
}

impl fmt::Display for File {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// A string that is not a square name such as `e4`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseSquareError;

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("expected a square such as e4")
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let mut chars = s.chars();
        let (Some(f), Some(r), None) = (chars.next(), chars.next(), chars.next()) else {
            return Err(ParseSquareError);
        };
        match (File::from_char(f), Rank::from_char(r)) {
            (Some(f), Some(r)) if s.as_bytes()[0].is_ascii_lowercase() => {
                Ok(Square::from_coords(f, r))
            }
            _ => Err(ParseSquareError),
        }
    }
}
