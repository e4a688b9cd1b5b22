//! # arbiter-openings
//!
//! Opening names — the ECO code and name — looked up **by position**, so a game that reaches a
//! named position by another move order (a transposition) finds the same name.
//!
//! The data is the lichess-org `chess-openings` project's (`data/{a..e}.tsv`, bundled with
//! `include_str!`), dedicated to the public domain under **CC0-1.0**; see `data/PROVENANCE.md`.
//! At first use each line's SAN moves are replayed with `arbiter-rules` from the standard start
//! position, and the openings are indexed by the resulting position's
//! [`RepetitionKey`](arbiter_rules::RepetitionKey): placement, side to move, castling rights,
//! and the en passant square only when an en passant capture is legal (the identity of
//! Art. 9.2.2, which is also the EPD convention of the data's own generator).
//!
//! Standard chess only: a Chess960 position has no opening name.
//!
//! ```
//! use arbiter_openings::Openings;
//! use arbiter_rules::Position;
//!
//! // The Italian Game reached by its usual move order…
//! let mut positions = vec![Position::new()];
//! for san in ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "a3"] {
//!     let mut next = *positions.last().unwrap();
//!     let m = next.parse_san(san).unwrap();
//!     next.play_unchecked(m);
//!     positions.push(next);
//! }
//! let openings = Openings::get();
//! // …is named by its last named position (here 3...Bc5, the Giuoco Piano; 4. a3 has no name).
//! let named = openings.classify(&positions).unwrap();
//! assert_eq!((named.eco, named.name), ("C50", "Italian Game: Giuoco Piano"));
//! assert_eq!(named.ply, 6);
//! ```

use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

use arbiter_rules::{CastlingMode, Position, RepetitionKey};

/// The bundled data files, in ECO order (CC0-1.0, lichess-org/chess-openings).
const DATA: [(&str, &str); 5] = [
    ("a.tsv", include_str!("../data/a.tsv")),
    ("b.tsv", include_str!("../data/b.tsv")),
    ("c.tsv", include_str!("../data/c.tsv")),
    ("d.tsv", include_str!("../data/d.tsv")),
    ("e.tsv", include_str!("../data/e.tsv")),
];

/// A named opening: its ECO code, its name, and the length of its line in plies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Opening {
    /// The ECO code, e.g. `C50`.
    pub eco: &'static str,
    /// The name, e.g. `Italian Game` or `Sicilian Defense: Najdorf Variation`.
    pub name: &'static str,
    /// The number of half-moves of the data's line for this position.
    pub ply: u16,
}

impl fmt::Display for Opening {
    /// `C50 Italian Game`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.eco, self.name)
    }
}

/// A line of the data that does not replay (a fault in the bundled files, found by the tests).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataError {
    /// The file, e.g. `c.tsv`.
    pub file: &'static str,
    /// The line number, 1-based.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.message)
    }
}

impl std::error::Error for DataError {}

/// The openings indexed by position.
#[derive(Debug, Clone)]
pub struct Openings {
    by_position: HashMap<RepetitionKey, Opening>,
    lines: usize,
}

impl Openings {
    /// The bundled openings, indexed at first use (a few milliseconds; see the crate's tests).
    ///
    /// # Panics
    /// If a bundled line does not replay — impossible for the shipped data, which the tests
    /// replay in full.
    pub fn get() -> &'static Openings {
        static OPENINGS: OnceLock<Openings> = OnceLock::new();
        OPENINGS.get_or_init(|| Openings::bundled().expect("bundled openings replay"))
    }

    /// Index the bundled data afresh (what [`Openings::get`] does once).
    ///
    /// # Errors
    /// The first line that is malformed or whose moves are not legal.
    pub fn bundled() -> Result<Openings, DataError> {
        Openings::from_tsv(&DATA)
    }

    /// Index `(file name, TSV text)` pairs with the columns `eco`, `name`, `pgn` (a header
    /// line first). When two lines reach one position, the first keeps it.
    ///
    /// # Errors
    /// The first line that is malformed or whose moves are not legal.
    pub fn from_tsv(files: &[(&'static str, &'static str)]) -> Result<Openings, DataError> {
        let mut by_position = HashMap::with_capacity(4096);
        let mut lines = 0;
        for &(file, text) in files {
            for (i, line) in text.lines().enumerate().skip(1) {
                if line.trim().is_empty() {
                    continue;
                }
                let err = |message: String| DataError {
                    file,
                    line: i + 1,
                    message,
                };
                let mut cols = line.split('\t');
                let (Some(eco), Some(name), Some(pgn)) = (cols.next(), cols.next(), cols.next())
                else {
                    return Err(err("expected three tab-separated columns".into()));
                };
                let (pos, ply) = replay(pgn).map_err(err)?;
                lines += 1;
                by_position
                    .entry(pos.repetition_key())
                    .or_insert(Opening { eco, name, ply });
            }
        }
        Ok(Openings { by_position, lines })
    }

    /// The opening named for exactly this position, if any (`None` for Chess960 positions).
    pub fn lookup(&self, position: &Position) -> Option<&Opening> {
        if position.mode() != CastlingMode::Standard {
            return None;
        }
        self.by_position.get(&position.repetition_key())
    }

    /// The name of a game's line: that of the **last** of `positions` (the game's positions
    /// in order, the start included) that has one, as lichess names games. A game that leaves
    /// the book keeps the name of its last book position.
    pub fn classify<'a, I>(&self, positions: I) -> Option<&Opening>
    where
        I: IntoIterator<Item = &'a Position>,
    {
        positions.into_iter().filter_map(|p| self.lookup(p)).last()
    }

    /// The number of distinct named positions.
    pub fn len(&self) -> usize {
        self.by_position.len()
    }

    /// Whether there are no named positions.
    pub fn is_empty(&self) -> bool {
        self.by_position.is_empty()
    }

    /// The number of data lines read (more than [`Openings::len`] when lines share a
    /// position).
    pub fn lines(&self) -> usize {
        self.lines
    }
}

/// Replay a line `1. e4 e5 2. Nf3` from the standard start: the position reached and its ply.
fn replay(pgn: &str) -> Result<(Position, u16), String> {
    let mut pos = Position::new();
    let mut ply = 0u16;
    for token in pgn.split_whitespace() {
        // Move numbers: `1.` (and `1...` should a line ever start with Black).
        if token.ends_with('.') && token.starts_with(|c: char| c.is_ascii_digit()) {
            continue;
        }
        let m = pos
            .parse_san(token)
            .map_err(|e| format!("move {token:?} after {ply} plies: {e}"))?;
        pos.play_unchecked(m);
        ply += 1;
    }
    if ply == 0 {
        return Err("no moves".into());
    }
    Ok((pos, ply))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn after(sans: &[&str]) -> Vec<Position> {
        let mut positions = vec![Position::new()];
        for san in sans {
            let mut next = *positions.last().unwrap();
            let m = next.parse_san(san).unwrap();
            next.play_unchecked(m);
            positions.push(next);
        }
        positions
    }

    #[test]
    fn every_bundled_line_replays_and_is_indexed() {
        let o = Openings::bundled().unwrap();
        let rows: usize = DATA
            .iter()
            .map(|(_, t)| t.lines().skip(1).filter(|l| !l.is_empty()).count())
            .sum();
        assert_eq!(o.lines(), rows);
        assert!(rows > 3_500, "{rows} lines");
        // The data promises one line per position; allow none lost.
        assert_eq!(o.len(), rows, "lines sharing a position");
    }

    #[test]
    fn lookup_by_position_names_the_italian_game() {
        let p = after(&["e4", "e5", "Nf3", "Nc6", "Bc4"]);
        let o = Openings::get().lookup(p.last().unwrap()).unwrap();
        assert_eq!(o.to_string(), "C50 Italian Game");
        assert_eq!(o.ply, 5);
    }

    #[test]
    fn transposition_finds_the_name_of_the_data_line() {
        // The data's line is 1. d4 d5 2. c4 e6; 1. c4 e6 2. d4 d5 reaches the same position.
        let data_order = after(&["d4", "d5", "c4", "e6"]);
        let transposed = after(&["c4", "e6", "d4", "d5"]);
        let openings = Openings::get();
        let a = openings.lookup(data_order.last().unwrap()).unwrap();
        let b = openings.lookup(transposed.last().unwrap()).unwrap();
        assert_eq!(a, b);
        assert_eq!((b.eco, b.name), ("D30", "Queen's Gambit Declined"));
        // Its ply is the data line's, not the game's move count.
        assert_eq!(b.ply, 4);
    }

    #[test]
    fn transposition_through_a_knight_tour_finds_the_name() {
        // 1. Nf3 Nf6 2. Ng1 Ng8: the start position again (no name); then 3. e4 is the
        // King's Pawn Game position with Black to move, but the fullmove differs — the key
        // ignores counters.
        let p = after(&["Nf3", "Nf6", "Ng1", "Ng8", "e4"]);
        let direct = after(&["e4"]);
        let openings = Openings::get();
        assert_eq!(openings.lookup(&p[4]), None);
        assert_eq!(
            openings.lookup(p.last().unwrap()),
            openings.lookup(direct.last().unwrap())
        );
        assert!(openings.lookup(p.last().unwrap()).is_some());
    }

    #[test]
    fn unknown_position_has_no_name() {
        let p = after(&["a4", "h5", "Ra3", "Rh6", "Rb3", "Rg6"]);
        assert_eq!(Openings::get().lookup(p.last().unwrap()), None);
        assert_eq!(Openings::get().lookup(&Position::new()), None);
    }

    #[test]
    fn classify_picks_the_last_named_position() {
        // 1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6: the Najdorf; then 6. a4 h5
        // 7. h4 leaves the book — the last named position keeps its name.
        let p = after(&[
            "e4", "c5", "Nf3", "d6", "d4", "cxd4", "Nxd4", "Nf6", "Nc3", "a6", "a4", "h5", "h4",
        ]);
        let openings = Openings::get();
        let named = openings.classify(&p).unwrap();
        let najdorf = openings.lookup(&p[10]).unwrap();
        assert!(
            named
                .name
                .starts_with("Sicilian Defense: Najdorf Variation"),
            "{named}"
        );
        // Deepest named position, not the first nor the Sicilian of move 1.
        let deepest = p
            .iter()
            .rposition(|q| openings.lookup(q).is_some())
            .unwrap();
        assert!(deepest >= 10);
        assert_eq!(named, openings.lookup(&p[deepest]).unwrap());
        assert!(named.ply >= najdorf.ply);
        assert_ne!(openings.lookup(&p[2]).unwrap(), named);
    }

    #[test]
    fn chess960_positions_have_no_name() {
        let mut p = after(&["e4"]).pop().unwrap();
        p.set_mode(CastlingMode::Chess960);
        assert_eq!(Openings::get().lookup(&p), None);
    }

    #[test]
    fn a_bad_line_is_reported_with_file_and_line() {
        const BAD: &str = "eco\tname\tpgn\nA00\tOk\t1. e4\nA00\tBad\t1. e5\n";
        let e = Openings::from_tsv(&[("x.tsv", BAD)]).unwrap_err();
        assert_eq!((e.file, e.line), ("x.tsv", 3));
        assert!(e.message.contains("e5"), "{e}");
    }

    #[test]
    fn index_build_time() {
        let start = std::time::Instant::now();
        let o = Openings::bundled().unwrap();
        let took = start.elapsed();
        eprintln!("indexed {} openings in {took:?}", o.len());
    }
}
