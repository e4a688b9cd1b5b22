//! Tag pairs (`[Name "value"]`) and the game result.

use arbiter_rules::{CastlingMode, FenError, Position};
use core::fmt;
use core::str::FromStr;

/// The Seven Tag Roster, in the order the export format writes it.
pub const SEVEN_TAG_ROSTER: [&str; 7] =
    ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// The value the export format writes for a roster tag the game does not have.
pub fn roster_default(name: &str) -> &'static str {
    match name {
        "Date" => "????.??.??",
        "Result" => "*",
        _ => "?",
    }
}

/// The tag pairs of a game, in the order they were read or set.
///
/// Names are case-sensitive, as in PGN. Setting a tag that exists replaces its value in place.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Tags(Vec<(String, String)>);

impl Tags {
    /// No tags.
    pub fn new() -> Tags {
        Tags(Vec::new())
    }

    /// The seven roster tags with their "unknown" values (`?`, `????.??.??`, `*`).
    pub fn roster() -> Tags {
        Tags(
            SEVEN_TAG_ROSTER
                .iter()
                .map(|n| ((*n).to_owned(), roster_default(n).to_owned()))
                .collect(),
        )
    }

    /// The value of a tag.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets a tag (replacing the value if the tag exists, otherwise appending it).
    pub fn set(&mut self, name: impl Into<String>, value: impl Into<String>) {
        let name = name.into();
        let value = value.into();
        match self.0.iter_mut().find(|(n, _)| *n == name) {
            Some(slot) => slot.1 = value,
            None => self.0.push((name, value)),
        }
    }

    /// Removes a tag, returning its value.
    pub fn remove(&mut self, name: &str) -> Option<String> {
        let i = self.0.iter().position(|(n, _)| n == name)?;
        Some(self.0.remove(i).1)
    }

    /// The tags in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }

    /// Number of tags.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// No tags at all.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The tags in export order: the Seven Tag Roster first and in its order (filled with
    /// [`roster_default`] values where missing), then the others in ASCII order of their names.
    pub fn export_order(&self) -> Vec<(&str, &str)> {
        let mut out: Vec<(&str, &str)> = SEVEN_TAG_ROSTER
            .iter()
            .map(|n| (*n, self.get(n).unwrap_or(roster_default(n))))
            .collect();
        let mut rest: Vec<(&str, &str)> = self
            .iter()
            .filter(|(n, _)| !SEVEN_TAG_ROSTER.contains(n))
            .collect();
        rest.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
        out.extend(rest);
        out
    }

    /// Whether the `Variant` tag names Chess960 (`Chess960`, `chess 960`, `Fischerandom`,
    /// `Fischer Random`, …; case-insensitive).
    pub fn is_chess960(&self) -> bool {
        self.get("Variant").is_some_and(is_chess960_name)
    }

    /// Whether the `Variant` tag names a game other than chess (and Chess960): crazyhouse,
    /// atomic, … Such games are not played by the Laws this library knows.
    pub fn is_other_variant(&self) -> Option<&str> {
        let v = self.get("Variant")?;
        let l = v.trim().to_ascii_lowercase();
        let standard = matches!(
            l.as_str(),
            "" | "standard" | "chess" | "normal" | "from position" | "fromposition" | "classical"
        ) || l.starts_with("wild/")
            || is_chess960_name(v);
        (!standard).then_some(v)
    }

    /// The starting position from the `FEN` (with `SetUp`) and `Variant` tags: the standard
    /// starting position when there is no `FEN` tag (Art. 2.1).
    ///
    /// Chess960 castling (Guideline II) is used when the `Variant` tag says so or when the FEN's
    /// castling rights only make sense in Chess960 (Shredder-FEN or X-FEN files).
    ///
    /// # Errors
    /// [`FenError`] when the `FEN` tag is not a legal position.
    pub fn start_position(&self) -> Result<Position, FenError> {
        start_position(self.get("FEN"), self.is_chess960())
    }
}

/// The starting position for a `FEN` tag value (none: the standard starting position, Art. 2.1),
/// in Chess960 mode when asked or when the castling rights only make sense in Chess960.
pub(crate) fn start_position(fen: Option<&str>, chess960: bool) -> Result<Position, FenError> {
    match fen {
        None => Ok(Position::new()),
        Some(fen) => {
            let fen = fen.trim();
            if chess960 {
                Position::from_fen(fen, CastlingMode::Chess960)
            } else {
                match Position::from_fen(fen, CastlingMode::Standard) {
                    Ok(p) => Ok(p),
                    Err(e) => match Position::from_fen(fen, CastlingMode::Chess960) {
                        Ok(p) => Ok(p),
                        Err(_) => Err(e),
                    },
                }
            }
        }
    }
}

pub(crate) fn is_chess960_name(v: &str) -> bool {
    let l: String = v
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-' && *c != '_')
        .flat_map(char::to_lowercase)
        .collect();
    matches!(
        l.as_str(),
        "chess960" | "fischerandom" | "fischerrandom" | "frc" | "960" | "fischerrandomchess"
    )
}

impl<'a> FromIterator<(&'a str, &'a str)> for Tags {
    fn from_iter<I: IntoIterator<Item = (&'a str, &'a str)>>(iter: I) -> Tags {
        let mut t = Tags::new();
        for (n, v) in iter {
            t.set(n, v);
        }
        t
    }
}

/// The result of a game as PGN writes it: `1-0`, `0-1`, `1/2-1/2` or `*` (unknown or still
/// being played).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum GameResult {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`.
    #[default]
    Unknown,
}

impl GameResult {
    /// The PGN token.
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }

    /// Reads a result token (also `1/2` and `½-½`, as some files write them).
    pub fn from_token(s: &[u8]) -> Option<GameResult> {
        Some(match s {
            b"1-0" => GameResult::WhiteWins,
            b"0-1" => GameResult::BlackWins,
            // `1/2` and `½-½` are not PGN, but real files use them.
            b"1/2-1/2" | b"1/2" | b"\xc2\xbd-\xc2\xbd" => GameResult::Draw,
            b"*" => GameResult::Unknown,
            _ => return None,
        })
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The text is not a PGN result token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseResultError;

impl fmt::Display for ParseResultError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("expected a result: 1-0, 0-1, 1/2-1/2 or *")
    }
}

impl std::error::Error for ParseResultError {}

impl FromStr for GameResult {
    type Err = ParseResultError;
    fn from_str(s: &str) -> Result<GameResult, ParseResultError> {
        GameResult::from_token(s.trim().as_bytes()).ok_or(ParseResultError)
    }
}
