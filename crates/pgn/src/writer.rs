//! The writer: PGN export format (PGN standard 8.1 and 8.2), or national notation for display.

use crate::comment::{format_duration, DRAW_OFFER_MARK};
use crate::game::{GameRecord, Line, Node};
use arbiter_rules::{Color, FenError, Lang, Move, Position};
use core::fmt;

/// Longest line the writer produces (the export format wants lines shorter than 80
/// characters). A single token longer than this (a long tag value, a long word in a comment)
/// is written on a line of its own.
pub const MAX_LINE: usize = 79;

/// Why a record cannot be written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WriteError {
    /// The `FEN` tag is not a legal position.
    BadFen(FenError),
    /// A move of the record is not legal where it stands.
    IllegalMove {
        /// The ply (1-based half-move number from the start of the game) of the move.
        ply: usize,
        /// The move.
        mv: Move,
    },
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WriteError::BadFen(e) => write!(f, "bad FEN tag: {e}"),
            WriteError::IllegalMove { ply, mv } => {
                write!(f, "move {mv:?} at ply {ply} is not legal")
            }
        }
    }
}

impl std::error::Error for WriteError {}

/// Writes game records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Writer {
    lang: Lang,
    export: bool,
}

impl Default for Writer {
    fn default() -> Writer {
        Writer::export()
    }
}

impl Writer {
    /// The PGN export format: Seven Tag Roster first and in order, the other tags in ASCII
    /// order, English SAN, NAGs as `$n`, Black's move number repeated after a comment or a
    /// variation, lines shorter than 80 characters, the result token equal to the `Result` tag.
    pub fn export() -> Writer {
        Writer {
            lang: Lang::English,
            export: true,
        }
    }

    /// The same layout with the piece letters of `lang` (or figurines), for reading by people
    /// (Appendix C.3). Not PGN: other programs cannot read it back unless they know `lang`.
    pub fn display(lang: Lang) -> Writer {
        Writer {
            lang,
            export: lang == Lang::English,
        }
    }

    /// Whether this writer produces the export format.
    pub fn is_export(&self) -> bool {
        self.export
    }

    /// The game as text, ending with a line break (write an empty line between games).
    ///
    /// # Errors
    /// [`WriteError`] if the `FEN` tag is bad or a move is not legal.
    pub fn write(&self, game: &GameRecord) -> Result<String, WriteError> {
        let mut out = String::with_capacity(256 + game.moves.len() * 8);
        self.write_to(game, &mut out)?;
        Ok(out)
    }

    /// Appends the game to `out` (see [`Writer::write`]).
    ///
    /// # Errors
    /// [`WriteError`] if the `FEN` tag is bad or a move is not legal.
    pub fn write_to(&self, game: &GameRecord, out: &mut String) -> Result<(), WriteError> {
        let start = game.start_position().map_err(WriteError::BadFen)?;
        let result = game.effective_result();
        for (name, value) in game.tags.export_order() {
            let value = if name == "Result" {
                result.as_str()
            } else {
                value
            };
            out.push('[');
            out.push_str(name);
            out.push_str(" \"");
            for c in value.chars() {
                match c {
                    '\\' => out.push_str("\\\\"),
                    '"' => out.push_str("\\\""),
                    '\n' | '\r' => out.push(' '),
                    c => out.push(c),
                }
            }
            out.push_str("\"]\n");
        }
        out.push('\n');
        let mut lines = Lines {
            out,
            len: 0,
            pending_open: false,
        };
        let mut ply = 0;
        self.line(&mut lines, &game.moves, start, &mut ply, true)?;
        lines.token(result.as_str());
        lines.out.push('\n');
        Ok(())
    }

    fn line(
        &self,
        w: &mut Lines<'_>,
        line: &Line,
        mut pos: Position,
        ply: &mut usize,
        _main: bool,
    ) -> Result<(), WriteError> {
        let start_ply = *ply;
        let mut need_number = true;
        for c in &line.comments {
            w.comment(c);
        }
        for node in &line.nodes {
            *ply += 1;
            if !pos.is_legal(node.mv) {
                return Err(WriteError::IllegalMove {
                    ply: *ply,
                    mv: node.mv,
                });
            }
            let n = pos.fullmoves();
            if pos.turn() == Color::White {
                w.token(&format!("{n}."));
            } else if need_number {
                w.token(&format!("{n}..."));
            }
            let san = pos.san_lang(node.mv, self.lang);
            w.token(&san);
            need_number = self.annotations(w, node);
            for var in &node.variations {
                w.open();
                let mut vply = *ply - 1;
                self.line(w, var, pos, &mut vply, false)?;
                w.close();
                need_number = true;
            }
            pos.play_unchecked(node.mv);
        }
        let _ = start_ply;
        Ok(())
    }

    /// Writes NAGs and comments of a node; true if a comment was written (so Black's move
    /// number must be repeated).
    fn annotations(&self, w: &mut Lines<'_>, node: &Node) -> bool {
        for nag in &node.nags {
            w.token(&format!("${}", nag.0));
        }
        let mut commented = false;
        let mut first = String::new();
        if let Some(c) = node.clock {
            first.push_str("[%clk ");
            first.push_str(&format_duration(c));
            first.push(']');
        }
        if let Some(e) = node.emt {
            if !first.is_empty() {
                first.push(' ');
            }
            first.push_str("[%emt ");
            first.push_str(&format_duration(e));
            first.push(']');
        }
        let mut rest = node.comments.iter();
        if !first.is_empty() {
            if let Some(c) = rest.next() {
                first.push(' ');
                first.push_str(c);
            }
            w.comment(&first);
            commented = true;
        }
        for c in rest {
            w.comment(c);
            commented = true;
        }
        if node.draw_offer {
            w.comment(DRAW_OFFER_MARK);
            commented = true;
        }
        commented
    }
}

/// Token output with line breaking.
struct Lines<'a> {
    out: &'a mut String,
    /// Characters on the current line.
    len: usize,
    /// A `(` waits to be glued to the next token.
    pending_open: bool,
}

impl Lines<'_> {
    fn token(&mut self, tok: &str) {
        let extra = usize::from(self.pending_open);
        let tlen = tok.chars().count() + extra;
        if self.len > 0 {
            if self.len + 1 + tlen > MAX_LINE {
                self.out.push('\n');
                self.len = 0;
            } else {
                self.out.push(' ');
                self.len += 1;
            }
        }
        if self.pending_open {
            self.out.push('(');
            self.pending_open = false;
        }
        self.out.push_str(tok);
        self.len += tlen;
    }

    fn open(&mut self) {
        if self.pending_open {
            // An empty variation opened right after another `(`: write it out.
            self.token("");
        }
        self.pending_open = true;
    }

    fn close(&mut self) {
        if self.pending_open {
            // Empty variation.
            self.token(")");
            return;
        }
        if self.len + 1 > MAX_LINE {
            self.out.push('\n');
            self.len = 0;
        }
        self.out.push(')');
        self.len += 1;
    }

    /// A comment, broken at spaces when it does not fit. A comment holding `}` cannot be
    /// written in braces (PGN has no escape), so it is written as a `;` comment, which runs to
    /// the end of its line (and may make that line longer than [`MAX_LINE`]).
    fn comment(&mut self, text: &str) {
        if text.contains('}') {
            let words: Vec<&str> = crate::comment::words(text).collect();
            self.token(&format!(";{}", words.join(" ")));
            self.out.push('\n');
            self.len = 0;
            return;
        }
        // Words, with a short `[%command …]` kept whole so that no line break falls inside it.
        let raw: Vec<String> = crate::comment::words(text).map(str::to_owned).collect();
        let mut words: Vec<String> = Vec::with_capacity(raw.len());
        let mut i = 0;
        while i < raw.len() {
            let mut w = raw[i].clone();
            i += 1;
            if w.starts_with("[%") && !w.contains(']') {
                if let Some(k) = raw[i..].iter().take(3).position(|x| x.contains(']')) {
                    let mut whole = w.clone();
                    for x in &raw[i..=i + k] {
                        whole.push(' ');
                        whole.push_str(x);
                    }
                    // Only a command that fits on a line is kept whole.
                    if whole.chars().count() + 2 <= MAX_LINE {
                        w = whole;
                        i += k + 1;
                    }
                }
            }
            words.push(w);
        }
        if words.is_empty() {
            self.token("{}");
            return;
        }
        let whole = format!("{{{}}}", words.join(" "));
        let wlen = whole.chars().count() + usize::from(self.pending_open);
        if self.len + 1 + wlen <= MAX_LINE || (self.len == 0 && wlen <= MAX_LINE) {
            self.token(&whole);
            return;
        }
        let last = words.len() - 1;
        for (i, word) in words.iter().enumerate() {
            let mut t = String::with_capacity(word.len() + 2);
            if i == 0 {
                t.push('{');
            }
            t.push_str(word);
            if i == last {
                t.push('}');
            }
            self.token(&t);
        }
    }
}
