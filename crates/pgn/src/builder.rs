//! A visitor that builds [`GameRecord`]s.

use crate::comment::parse_comment;
use crate::error::{ErrorKind, Location, ReadError};
use crate::game::{GameRecord, Line, Nag, Node};
use crate::reader::{Control, Reader, Visitor};
use crate::tags::GameResult;
use arbiter_rules::{Move, Position};

/// Builds a [`GameRecord`] from the reader's calls; its output is the record or the first
/// error of the game.
#[derive(Debug, Default)]
pub struct GameBuilder {
    record: GameRecord,
    /// Open lines: the main line first, then nested variations.
    lines: Vec<Line>,
    result_seen: bool,
    error: Option<ReadError>,
}

impl GameBuilder {
    /// A fresh builder.
    pub fn new() -> GameBuilder {
        GameBuilder::default()
    }
}

impl Visitor for GameBuilder {
    type Output = Result<GameRecord, ReadError>;

    fn begin_game(&mut self, _game: u64) {
        self.record = GameRecord::new();
        self.lines.clear();
        self.lines.push(Line::new());
        self.result_seen = false;
        self.error = None;
    }

    fn tag(&mut self, name: &str, value: &str) {
        self.record.tags.set(name, value);
    }

    fn mv(&mut self, _before: &Position, mv: Move) {
        if let Some(line) = self.lines.last_mut() {
            line.nodes.push(Node::new(mv));
        }
    }

    fn nag(&mut self, nag: Nag) {
        if let Some(node) = self.lines.last_mut().and_then(|l| l.nodes.last_mut()) {
            node.nags.push(nag);
        }
    }

    fn comment(&mut self, text: &str) {
        let Some(line) = self.lines.last_mut() else {
            return;
        };
        match line.nodes.last_mut() {
            Some(node) => {
                let c = parse_comment(text);
                if c.clock.is_some() {
                    node.clock = c.clock;
                }
                if c.emt.is_some() {
                    node.emt = c.emt;
                }
                node.draw_offer |= c.draw_offer;
                if !c.text.is_empty() {
                    node.comments.push(c.text);
                }
            }
            None => {
                let text = normalize_ws(text);
                if !text.is_empty() {
                    line.comments.push(text);
                }
            }
        }
    }

    fn begin_variation(&mut self) -> Control {
        self.lines.push(Line::new());
        Control::Continue
    }

    fn end_variation(&mut self) {
        if self.lines.len() > 1 {
            let var = self.lines.pop().expect("checked");
            if let Some(node) = self.lines.last_mut().and_then(|l| l.nodes.last_mut()) {
                node.variations.push(var);
            }
        }
    }

    fn result(&mut self, result: GameResult) {
        self.record.result = result;
        self.result_seen = true;
    }

    fn error(&mut self, error: ReadError) {
        self.error.get_or_insert(error);
    }

    fn end_game(&mut self) -> Self::Output {
        while self.lines.len() > 1 {
            self.end_variation();
        }
        let mut record = std::mem::take(&mut self.record);
        record.moves = self.lines.pop().unwrap_or_default();
        if !self.result_seen {
            record.result = record
                .tags
                .get("Result")
                .and_then(|r| r.parse().ok())
                .unwrap_or_default();
        }
        match self.error.take() {
            Some(e) => Err(e),
            None => Ok(record),
        }
    }
}

/// Collapses runs of whitespace (including line breaks) to single spaces and trims.
pub(crate) fn normalize_ws(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for w in crate::comment::words(text) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
    out
}

impl GameRecord {
    /// Reads the first game of a PGN text.
    ///
    /// # Errors
    /// The first [`ReadError`] of the game, or an error at 1:1 if the text holds no game.
    pub fn from_pgn(text: &str) -> Result<GameRecord, ReadError> {
        let mut reader = Reader::new(text.as_bytes());
        let mut b = GameBuilder::new();
        match reader.read_game(&mut b) {
            Ok(Some(r)) => r,
            _ => Err(ReadError {
                location: Location {
                    game: 1,
                    line: 1,
                    column: 1,
                },
                kind: ErrorKind::NotAMove {
                    text: String::new(),
                    reason: "no game in the input".into(),
                },
            }),
        }
    }
}

/// Reads every game of a PGN text.
pub fn read_all(text: &str) -> Vec<Result<GameRecord, ReadError>> {
    Reader::new(text.as_bytes())
        .into_games()
        .map(|g| g.expect("reading from memory cannot fail"))
        .collect()
}
