//! The game record: tags and a tree of moves with comments, NAGs, clock values and variations.

use crate::tags::{GameResult, Tags};
use arbiter_rules::{FenError, Move, Position};
use core::fmt;
use std::time::Duration;

/// A Numeric Annotation Glyph (`$1` … `$255`). `!`, `?`, `!!`, `??`, `!?`, `?!` are read as
/// NAGs 1 to 6 and always written as `$n` in the export format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Nag(pub u8);

impl Nag {
    /// `!`
    pub const GOOD_MOVE: Nag = Nag(1);
    /// `?`
    pub const MISTAKE: Nag = Nag(2);
    /// `!!`
    pub const BRILLIANT_MOVE: Nag = Nag(3);
    /// `??`
    pub const BLUNDER: Nag = Nag(4);
    /// `!?`
    pub const SPECULATIVE_MOVE: Nag = Nag(5);
    /// `?!`
    pub const DUBIOUS_MOVE: Nag = Nag(6);

    /// Reads a suffix annotation (`!`, `?`, `!!`, `??`, `!?`, `?!`).
    pub fn from_suffix(s: &[u8]) -> Option<Nag> {
        Some(match s {
            b"!" => Nag::GOOD_MOVE,
            b"?" => Nag::MISTAKE,
            b"!!" => Nag::BRILLIANT_MOVE,
            b"??" => Nag::BLUNDER,
            b"!?" => Nag::SPECULATIVE_MOVE,
            b"?!" => Nag::DUBIOUS_MOVE,
            _ => return None,
        })
    }
}

impl fmt::Display for Nag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "${}", self.0)
    }
}

/// One move of the record with what is written after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    /// The move, legal in the position before it.
    pub mv: Move,
    /// Annotation glyphs after the move, in order.
    pub nags: Vec<Nag>,
    /// Comments after the move (without clock commands and the draw-offer mark), in order.
    pub comments: Vec<String>,
    /// `[%clk]`: the time left on the mover's clock after the move.
    pub clock: Option<Duration>,
    /// `[%emt]`: the time the move took.
    pub emt: Option<Duration>,
    /// The mover offered a draw with this move, marked `(=)` (Art. 9.1.2.2).
    pub draw_offer: bool,
    /// Alternatives to this move (each starts in the position before it), in order.
    pub variations: Vec<Line>,
}

impl Node {
    /// A move with nothing written after it.
    pub fn new(mv: Move) -> Node {
        Node {
            mv,
            nags: Vec::new(),
            comments: Vec::new(),
            clock: None,
            emt: None,
            draw_offer: false,
            variations: Vec::new(),
        }
    }

    /// Builder: sets the clock value.
    #[must_use]
    pub fn with_clock(mut self, clock: Duration) -> Node {
        self.clock = Some(clock);
        self
    }
}

/// A sequence of moves: the main line of a game or a variation.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Line {
    /// Comments before the first move (for the main line: the game comment).
    pub comments: Vec<String>,
    /// The moves.
    pub nodes: Vec<Node>,
}

impl Line {
    /// An empty line.
    pub fn new() -> Line {
        Line::default()
    }

    /// Appends a move and returns it for annotation.
    pub fn push(&mut self, mv: Move) -> &mut Node {
        self.nodes.push(Node::new(mv));
        self.nodes.last_mut().expect("just pushed")
    }

    /// The moves.
    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.nodes.iter().map(|n| n.mv)
    }

    /// Number of moves (plies) in the line, not counting variations.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// No moves.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }
}

/// A game as PGN records it (Art. 8, Appendix C): tags, the moves with their annotations, and
/// the result.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GameRecord {
    /// The tag pairs, in the order they were read or set.
    pub tags: Tags,
    /// The main line.
    pub moves: Line,
    /// The game termination marker. When a record is written, the `Result` tag (if it holds a
    /// result) decides the marker, so that both agree as the export format requires.
    pub result: GameResult,
}

impl GameRecord {
    /// An empty record with no tags.
    pub fn new() -> GameRecord {
        GameRecord::default()
    }

    /// The starting position (from the `FEN`, `SetUp` and `Variant` tags).
    ///
    /// # Errors
    /// [`FenError`] when the `FEN` tag is not a legal position.
    pub fn start_position(&self) -> Result<Position, FenError> {
        self.tags.start_position()
    }

    /// The result the record stands for: the `Result` tag if it holds a result token,
    /// otherwise the termination marker.
    pub fn effective_result(&self) -> GameResult {
        self.tags
            .get("Result")
            .and_then(|r| r.parse().ok())
            .unwrap_or(self.result)
    }

    /// The written result this record contradicts, if any: its `Result` tag against its
    /// termination marker, and both against a checkmate or stalemate on the board (Art. 5.1.1,
    /// 5.2.1; see [`crate::check_result`]). `None` also when the moves do not replay.
    pub fn result_conflict(&self) -> Option<crate::ResultConflict> {
        let end = self.end_position().ok()?;
        let tag = self.tags.get("Result").and_then(|r| r.parse().ok());
        crate::check_result(tag, Some(self.result), &end)
    }

    /// The position after the last move of the main line.
    ///
    /// # Errors
    /// [`crate::WriteError`] if the FEN tag is bad or a move is illegal.
    pub fn end_position(&self) -> Result<Position, crate::WriteError> {
        let mut pos = self.start_position().map_err(crate::WriteError::BadFen)?;
        for (i, n) in self.moves.nodes.iter().enumerate() {
            if !pos.is_legal(n.mv) {
                return Err(crate::WriteError::IllegalMove {
                    ply: i + 1,
                    mv: n.mv,
                });
            }
            pos.play_unchecked(n.mv);
        }
        Ok(pos)
    }
}
