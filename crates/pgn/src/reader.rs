//! The streaming reader: bytes in, visitor calls out, every move checked against the Laws.
//!
//! Memory does not grow with the input: the reader holds a fixed buffer, the tag and comment it
//! is reading (each capped), and one position per open variation (capped by
//! [`MAX_VARIATION_DEPTH`]).

use crate::error::{ErrorKind, Location, ReadError};
use crate::game::Nag;
use crate::tags::{self, GameResult};
use arbiter_rules::{
    CastlingSide, Color, File, Move, Position, Rank, Role, San, SanError, SanPlus, Square,
};
use std::borrow::Cow;
use std::io::{self, Read};

/// Deepest nesting of variations the reader follows; deeper input is reported as an error
/// ([`ErrorKind::TooDeep`]) so that memory stays bounded.
pub const MAX_VARIATION_DEPTH: usize = 255;
/// Longest comment kept, in bytes; the rest of a longer comment is dropped.
pub const MAX_COMMENT: usize = 1 << 20;
/// Longest tag line kept, in bytes; the rest of a longer line is dropped.
pub const MAX_TAG_LINE: usize = 1 << 16;
/// Longest movetext token looked at, in bytes (longer ones are reported as not a move).
const MAX_TOKEN: usize = 255;
const BUF_SIZE: usize = 1 << 16;

/// What a visitor wants the reader to do next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Control {
    /// Go on.
    #[default]
    Continue,
    /// Skip this part (the movetext, or the variation).
    Skip,
}

/// Receives what the reader finds, game by game. Every method but [`Visitor::end_game`] has a
/// default that ignores the call.
///
/// Order of calls for one game: `begin_game`, `tag`*, `begin_movetext` (unless the start
/// position is bad), then movetext calls (`mv`, `nag`, `comment`, `begin_variation` /
/// `end_variation`, `result`) in input order, `error` at most once (after which the rest of the
/// game is skipped), and `end_game`.
pub trait Visitor {
    /// What a game turns into.
    type Output;

    /// A game starts (`game` counts from 1).
    fn begin_game(&mut self, game: u64) {
        let _ = game;
    }
    /// A tag pair; the value is unescaped and decoded (UTF-8, or Latin-1 when the bytes are not
    /// UTF-8).
    fn tag(&mut self, name: &str, value: &str) {
        let _ = (name, value);
    }
    /// The tags are over; `start` is the position the moves start from.
    fn begin_movetext(&mut self, start: &Position) -> Control {
        let _ = start;
        Control::Continue
    }
    /// A legal move `mv`, played in `before`.
    fn mv(&mut self, before: &Position, mv: Move) {
        let _ = (before, mv);
    }
    /// An annotation glyph after the last move.
    fn nag(&mut self, nag: Nag) {
        let _ = nag;
    }
    /// A comment (`{…}` or `;…`), raw: see [`crate::parse_comment`] for its clock values.
    fn comment(&mut self, text: &str) {
        let _ = text;
    }
    /// Whether [`Visitor::tag`] wants to be called (the reader reads `FEN` and `Variant`
    /// itself either way).
    fn wants_tags(&self) -> bool {
        true
    }
    /// Whether [`Visitor::comment`] wants to be called. A visitor that ignores comments says
    /// `false`, and the reader then only steps over them (faster on files with a clock comment
    /// on every move).
    fn wants_comments(&self) -> bool {
        true
    }
    /// A variation starts: an alternative to the last move. [`Control::Skip`] skips it
    /// (and `end_variation` is then not called for it).
    fn begin_variation(&mut self) -> Control {
        Control::Continue
    }
    /// The variation ends.
    fn end_variation(&mut self) {}
    /// The game termination marker.
    fn result(&mut self, result: GameResult) {
        let _ = result;
    }
    /// An error: the reader skips the rest of this game.
    fn error(&mut self, error: ReadError) {
        let _ = error;
    }
    /// The game is over.
    fn end_game(&mut self) -> Self::Output;
}

#[derive(Clone, Copy)]
struct Frame {
    /// The position before `pending` (where a variation of the last move starts).
    pos: Position,
    /// The last move of this line, played into `pos` only when the next move comes: so no
    /// position is copied per move, only per variation.
    pending: Option<Move>,
}

/// Reads games from any [`Read`] (a file, stdin, a byte slice) without loading it whole.
///
/// Lenient with real files: a UTF-8 byte order mark, CRLF, Latin-1 tags and comments, missing
/// blank lines between games, tags after movetext without an empty line, castling written with
/// zeros, move numbers glued to moves (`1.e4`), a missing result, `%` escape lines. A game ends
/// at its result token, at an empty line or at the next tag line.
pub struct Reader<R> {
    inner: R,
    buf: Vec<u8>,
    pos: usize,
    end: usize,
    eof: bool,
    /// Absolute offset of `buf[0]`.
    base: u64,
    line: u64,
    /// Absolute offset of the first byte of the current line.
    line_start: u64,
    games: u64,
    scratch: Vec<u8>,
    tag_value: Vec<u8>,
    stack: Vec<Frame>,
    /// The standard starting position, made once (Art. 2.1).
    standard: Position,
    /// Where the last game's termination marker was.
    result_at: Option<Location>,
    /// Where the last game's `Result` tag was.
    result_tag_at: Option<Location>,
}

fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c)
}

/// Bytes below 64 that end a movetext token: whitespace, `$`, `(`, `)`, `;`.
const DELIM_LO: u64 = (1 << b' ')
    | (1 << b'\t')
    | (1 << b'\n')
    | (1 << b'\r')
    | (1 << 0x0b)
    | (1 << 0x0c)
    | (1 << b'$')
    | (1 << b'(')
    | (1 << b')')
    | (1 << b';');
/// Bytes 64..128 that end a movetext token: `[`, `]`, `{`, `}`.
const DELIM_HI: u64 =
    (1 << (b'[' - 64)) | (1 << (b']' - 64)) | (1 << (b'{' - 64)) | (1 << (b'}' - 64));

/// Whether `b` ends a movetext token (branch-free: this runs for every byte of every move).
#[inline]
fn is_delim(b: u8) -> bool {
    let mask = if b < 64 { DELIM_LO } else { DELIM_HI };
    b < 128 && (mask >> (b & 63)) & 1 != 0
}

/// Whether any byte of `word` equals `b` (the classic zero-byte test on `word ^ bbbbbbbb`).
#[inline]
fn has_byte(word: u64, b: u8) -> bool {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    let x = word ^ (LO * u64::from(b));
    x.wrapping_sub(LO) & !x & HI != 0
}

/// UTF-8 if it is, Latin-1 otherwise (never fails: real files mix encodings).
pub(crate) fn decode(bytes: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => Cow::Owned(bytes.iter().map(|&b| char::from(b)).collect()),
    }
}

impl<R: Read> Reader<R> {
    /// A reader over `inner` (wrap nothing: the reader buffers itself).
    pub fn new(inner: R) -> Reader<R> {
        Reader {
            inner,
            buf: vec![0; BUF_SIZE],
            pos: 0,
            end: 0,
            eof: false,
            base: 0,
            line: 1,
            line_start: 0,
            games: 0,
            scratch: Vec::new(),
            tag_value: Vec::new(),
            stack: Vec::new(),
            standard: Position::new(),
            result_at: None,
            result_tag_at: None,
        }
    }

    /// Games started so far.
    pub fn games_read(&self) -> u64 {
        self.games
    }

    /// Bytes consumed so far.
    pub fn bytes_read(&self) -> u64 {
        self.base + self.pos as u64
    }

    /// Where the result of the game last read is written (game, line, column): its
    /// termination marker, or without one its `Result` tag; the place to name when the
    /// result is wrong.
    pub fn result_location(&self) -> Option<Location> {
        self.result_at.or(self.result_tag_at)
    }

    /// Reads more input. Returns false at the end of the input.
    fn fill(&mut self) -> io::Result<bool> {
        if self.eof {
            return Ok(self.pos < self.end);
        }
        if self.pos > 0 {
            self.buf.copy_within(self.pos..self.end, 0);
            self.base += self.pos as u64;
            self.end -= self.pos;
            self.pos = 0;
        }
        while self.end < self.buf.len() {
            match self.inner.read(&mut self.buf[self.end..]) {
                Ok(0) => {
                    self.eof = true;
                    break;
                }
                Ok(n) => {
                    self.end += n;
                    break;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(self.pos < self.end)
    }

    #[inline]
    fn peek(&mut self) -> io::Result<Option<u8>> {
        if self.pos < self.end || self.fill()? {
            Ok(Some(self.buf[self.pos]))
        } else {
            Ok(None)
        }
    }

    /// Makes at least `n` bytes available unless the input ends first.
    fn ensure(&mut self, n: usize) -> io::Result<()> {
        while self.end - self.pos < n && !self.eof {
            let before = self.end - self.pos;
            self.fill()?;
            if self.end - self.pos == before && self.eof {
                break;
            }
        }
        Ok(())
    }

    #[inline]
    fn bump(&mut self) {
        if self.buf[self.pos] == b'\n' {
            self.line += 1;
            self.line_start = self.base + self.pos as u64 + 1;
        }
        self.pos += 1;
    }

    #[inline]
    fn at_line_start(&self) -> bool {
        self.base + self.pos as u64 == self.line_start
    }

    fn location(&self) -> Location {
        Location {
            game: self.games,
            line: self.line,
            column: self.base + self.pos as u64 - self.line_start + 1,
        }
    }

    /// Skips to the end of the line (the line break stays unread). With `keep`, the bytes are
    /// kept in `scratch` (up to `cap`).
    fn read_line_into_scratch(&mut self, keep: bool, cap: usize) -> io::Result<()> {
        self.scratch.clear();
        loop {
            if self.pos == self.end && !self.fill()? {
                return Ok(());
            }
            let avail = &self.buf[self.pos..self.end];
            let (n, done) = match memchr::memchr(b'\n', avail) {
                Some(i) => (i, true),
                None => (avail.len(), false),
            };
            if keep && self.scratch.len() < cap {
                let take = n.min(cap - self.scratch.len());
                self.scratch.extend_from_slice(&avail[..take]);
            }
            self.pos += n;
            if done {
                return Ok(());
            }
        }
    }

    /// Skips whitespace, byte order marks, `%` escape lines and `;` lines before a game.
    /// Returns false at the end of the input.
    fn skip_preamble(&mut self) -> io::Result<bool> {
        loop {
            let Some(b) = self.peek()? else {
                return Ok(false);
            };
            if is_ws(b) {
                self.bump();
            } else if b == 0xef {
                self.ensure(3)?;
                if self.buf[self.pos..self.end].starts_with(&[0xef, 0xbb, 0xbf]) {
                    self.pos += 3;
                } else {
                    return Ok(true);
                }
            } else if (b == b'%' && self.at_line_start()) || b == b';' {
                self.read_line_into_scratch(false, 0)?;
            } else {
                return Ok(true);
            }
        }
    }

    /// Reads the next game into the visitor. `Ok(None)` at the end of the input.
    ///
    /// # Errors
    /// Only I/O errors of the underlying reader; errors in a game go to [`Visitor::error`].
    pub fn read_game<V: Visitor>(&mut self, v: &mut V) -> io::Result<Option<V::Output>> {
        if !self.skip_preamble()? {
            return Ok(None);
        }
        self.games += 1;
        self.result_at = None;
        self.result_tag_at = None;
        v.begin_game(self.games);

        // Tag section.
        let mut fen: Option<(String, Location)> = None;
        let mut variant: Option<(String, Location)> = None;
        let mut result_tag: Option<Location> = None;
        let mut newlines = 0;
        let mut tags_seen = false;
        let mut header_only = false;
        while let Some(b) = self.peek()? {
            if is_ws(b) {
                newlines += usize::from(b == b'\n');
                self.bump();
                continue;
            }
            if b == b'%' && self.at_line_start() {
                self.read_line_into_scratch(false, 0)?;
                continue;
            }
            if b != b'[' {
                break;
            }
            if tags_seen && newlines > 2 {
                // Two empty lines after tags, then tags again: the first game had tags only
                // (python-chess allows one empty line inside the tag section).
                header_only = true;
                break;
            }
            tags_seen = true;
            newlines = 0;
            let loc = self.location();
            let wants_tags = v.wants_tags();
            let mut on_tag = |name: &[u8], value: &[u8]| {
                if name == b"FEN" {
                    fen = Some((decode(value).into_owned(), loc));
                } else if name == b"Variant" {
                    variant = Some((decode(value).into_owned(), loc));
                } else if name == b"Result" {
                    result_tag = Some(loc);
                }
                if wants_tags {
                    v.tag(&decode(name), &decode(value));
                }
            };
            let avail = &self.buf[self.pos..self.end];
            match memchr::memchr(b'\n', avail) {
                // The whole line is in the buffer: parse it in place.
                Some(i) => {
                    parse_tag_line(&avail[..i], &mut self.tag_value, &mut on_tag);
                    self.pos += i;
                }
                _ => {
                    self.read_line_into_scratch(true, MAX_TAG_LINE)?;
                    parse_tag_line(&self.scratch, &mut self.tag_value, &mut on_tag);
                }
            }
        }

        self.result_tag_at = result_tag;

        // Starting position.
        let mut skipping = false;
        let mut start = self.standard;
        if let Some((name, loc)) = &variant {
            let mut t = tags::Tags::new();
            t.set("Variant", name.as_str());
            if let Some(other) = t.is_other_variant() {
                v.error(ReadError {
                    location: *loc,
                    kind: ErrorKind::UnsupportedVariant(other.to_owned()),
                });
                skipping = true;
            }
        }
        if !skipping {
            let chess960 = variant
                .as_ref()
                .is_some_and(|(n, _)| tags::is_chess960_name(n));
            let from_tags = match &fen {
                None => Ok(self.standard),
                Some((f, _)) => tags::start_position(Some(f), chess960),
            };
            match from_tags {
                Ok(p) => start = p,
                Err(e) => {
                    let (text, loc) = fen.clone().unwrap_or_default();
                    v.error(ReadError {
                        location: loc,
                        kind: ErrorKind::BadFen {
                            fen: text,
                            reason: e.to_string(),
                        },
                    });
                    skipping = true;
                }
            }
        }
        if !skipping && v.begin_movetext(&start) == Control::Skip {
            skipping = true;
        }
        if !header_only {
            self.movetext(v, start, skipping)?;
        }
        Ok(Some(v.end_game()))
    }

    fn movetext<V: Visitor>(
        &mut self,
        v: &mut V,
        start: Position,
        mut skipping: bool,
    ) -> io::Result<()> {
        self.stack.clear();
        self.stack.push(Frame {
            pos: start,
            pending: None,
        });
        // Nesting depth while skipping (after an error) and of a variation being skipped.
        let mut skip_depth: usize = 0;
        let mut var_skip: usize = 0;
        let mut content_on_line = true;
        let mut finished = false;
        while let Some(b) = self.peek()? {
            match b {
                b'\n' => {
                    if !content_on_line {
                        // An empty line ends the game (PGN 8.2.6: movetext ends with the
                        // termination marker; real files rely on the empty line).
                        self.bump();
                        break;
                    }
                    self.bump();
                    content_on_line = false;
                }
                b' ' | b'\t' | b'\r' | 0x0b | 0x0c => {
                    self.pos += 1;
                    while self.pos < self.end && matches!(self.buf[self.pos], b' ' | b'\t' | b'\r')
                    {
                        self.pos += 1;
                    }
                }
                b'%' if self.at_line_start() => {
                    self.read_line_into_scratch(false, 0)?;
                    if self.peek()?.is_some() {
                        self.bump(); // the line break: an escape line is not an empty line
                    }
                }
                b'[' if !content_on_line || finished => {
                    // A tag line after movetext without an empty line: the next game.
                    self.ensure(2)?;
                    let next = self
                        .buf
                        .get(self.pos + 1)
                        .copied()
                        .filter(|_| self.pos + 1 < self.end);
                    if next.is_some_and(|c| c.is_ascii_alphabetic()) {
                        break;
                    }
                    self.pos += 1;
                    content_on_line = true;
                }
                b'{' => {
                    content_on_line = true;
                    self.bump();
                    let wanted = !skipping && var_skip == 0 && v.wants_comments();
                    self.read_comment(wanted)?;
                    if wanted {
                        v.comment(&decode(&self.scratch));
                    }
                }
                b';' => {
                    content_on_line = true;
                    self.pos += 1;
                    self.read_line_into_scratch(true, MAX_COMMENT)?;
                    if !skipping && var_skip == 0 {
                        v.comment(&decode(&self.scratch));
                    }
                }
                b'(' => {
                    content_on_line = true;
                    let loc = self.location();
                    self.pos += 1;
                    if skipping {
                        skip_depth += 1;
                    } else if var_skip > 0 {
                        var_skip += 1;
                    } else {
                        let top = self.stack.last().expect("main line frame");
                        match top.pending {
                            None => var_skip = 1, // nothing to vary yet: ignored
                            Some(_) if self.stack.len() > MAX_VARIATION_DEPTH => {
                                v.error(ReadError {
                                    location: loc,
                                    kind: ErrorKind::TooDeep,
                                });
                                skipping = true;
                                skip_depth = self.stack.len();
                            }
                            Some(_) => {
                                if v.begin_variation() == Control::Skip {
                                    var_skip = 1;
                                } else {
                                    let pos = top.pos;
                                    self.stack.push(Frame { pos, pending: None });
                                }
                            }
                        }
                    }
                }
                b')' => {
                    content_on_line = true;
                    self.pos += 1;
                    if skipping {
                        skip_depth = skip_depth.saturating_sub(1);
                    } else if var_skip > 0 {
                        var_skip -= 1;
                    } else if self.stack.len() > 1 {
                        self.stack.pop();
                        v.end_variation();
                    }
                }
                b'$' => {
                    content_on_line = true;
                    self.pos += 1;
                    let mut n: u32 = 0;
                    let mut digits = 0;
                    while let Some(d) = self.peek()? {
                        if !d.is_ascii_digit() {
                            break;
                        }
                        n = (n * 10 + u32::from(d - b'0')).min(1000);
                        digits += 1;
                        self.pos += 1;
                    }
                    if !skipping && var_skip == 0 && digits > 0 && n <= 255 {
                        v.nag(Nag(n as u8));
                    }
                }
                _ => {
                    content_on_line = true;
                    let loc = self.location();
                    self.ensure(MAX_TOKEN + 1)?;
                    let avail = &self.buf[self.pos..self.end];
                    let len = avail
                        .iter()
                        .position(|&c| is_delim(c))
                        .unwrap_or(avail.len());
                    if len == 0 {
                        // A lone `}` or `]`: junk.
                        self.pos += 1;
                        continue;
                    }
                    let token_end = self.pos + len;
                    // A move number ("12.", "12..."): nothing to do.
                    if self.buf[self.pos].is_ascii_digit() && self.buf[token_end - 1] == b'.' {
                        let digits = self.buf[self.pos..token_end]
                            .iter()
                            .position(|c| !c.is_ascii_digit())
                            .unwrap_or(len);
                        if self.buf[self.pos + digits..token_end]
                            .iter()
                            .all(|&c| c == b'.')
                        {
                            self.pos = token_end;
                            continue;
                        }
                    }
                    let long = len > MAX_TOKEN;
                    let tok_range = self.pos..token_end;
                    // Result tokens end the game (at the top level).
                    let depth = if skipping {
                        skip_depth
                    } else {
                        self.stack.len() - 1 + var_skip
                    };
                    if let Some(r) = GameResult::from_token(&self.buf[tok_range.clone()]) {
                        self.pos = token_end;
                        if depth == 0 && !skipping {
                            self.result_at = Some(loc);
                            v.result(r);
                            // The movetext is over. Whatever follows up to an empty line or the
                            // next tag line belongs to no game and is skipped.
                            skipping = true;
                            skip_depth = 0;
                            finished = true;
                        }
                        continue;
                    }
                    if skipping || var_skip > 0 {
                        self.skip_token()?;
                        continue;
                    }
                    if long {
                        let text = decode(&self.buf[self.pos..self.pos + 24]).into_owned();
                        self.skip_token()?;
                        v.error(ReadError {
                            location: loc,
                            kind: ErrorKind::NotAMove {
                                text,
                                reason: "token too long".into(),
                            },
                        });
                        skipping = true;
                        skip_depth = self.stack.len() - 1;
                        continue;
                    }
                    let tok: &[u8] = &self.buf[tok_range];
                    let frame = self.stack.last_mut().expect("frame");
                    if let Some(m) = frame.pending.take() {
                        frame.pos.play_unchecked(m);
                    }
                    match classify(tok, &frame.pos) {
                        Token::Nothing => {}
                        Token::Nag(n) => v.nag(n),
                        Token::Move(m, nag) => {
                            v.mv(&frame.pos, m);
                            frame.pending = Some(m);
                            if let Some(n) = nag {
                                v.nag(n);
                            }
                        }
                        Token::Error(kind) => {
                            v.error(ReadError {
                                location: loc,
                                kind,
                            });
                            skipping = true;
                            skip_depth = self.stack.len() - 1;
                        }
                    }
                    self.pos = token_end;
                }
            }
        }
        self.stack.clear();
        Ok(())
    }

    /// Skips a token that may be longer than the buffer window.
    fn skip_token(&mut self) -> io::Result<()> {
        while let Some(b) = self.peek()? {
            if is_delim(b) {
                break;
            }
            self.pos += 1;
        }
        Ok(())
    }

    /// Reads a `{…}` comment (the `{` is consumed) into `scratch`, up to [`MAX_COMMENT`]
    /// bytes. A comment left open runs to the end of the input.
    fn read_comment(&mut self, keep: bool) -> io::Result<()> {
        self.scratch.clear();
        if !keep {
            // Most comments are short (`{ [%clk 0:05:00] }`): a plain loop beats memchr.
            let end = self.end.min(self.pos + 64);
            let mut i = self.pos;
            // Eight bytes at a time while none is `}` or a line break (SWAR).
            while i + 8 <= end {
                let word = u64::from_le_bytes(self.buf[i..i + 8].try_into().expect("8 bytes"));
                if has_byte(word, b'}') || has_byte(word, b'\n') {
                    break;
                }
                i += 8;
            }
            while i < end {
                match self.buf[i] {
                    b'}' => {
                        self.pos = i + 1;
                        return Ok(());
                    }
                    b'\n' => {
                        self.line += 1;
                        self.line_start = self.base + i as u64 + 1;
                    }
                    _ => {}
                }
                i += 1;
            }
            self.pos = i;
        }
        let cap = if keep { MAX_COMMENT } else { 0 };
        loop {
            if self.pos == self.end && !self.fill()? {
                return Ok(());
            }
            let avail = &self.buf[self.pos..self.end];
            let (n, done) = match memchr::memchr(b'}', avail) {
                Some(i) => (i, true),
                None => (avail.len(), false),
            };
            let chunk = &avail[..n];
            if self.scratch.len() < cap {
                let take = n.min(cap - self.scratch.len());
                self.scratch.extend_from_slice(&chunk[..take]);
            }
            if let Some(last_nl) = memchr::memrchr(b'\n', chunk) {
                self.line += memchr::memchr_iter(b'\n', chunk).count() as u64;
                self.line_start = self.base + (self.pos + last_nl + 1) as u64;
            }
            self.pos += n;
            if done {
                self.pos += 1;
                return Ok(());
            }
        }
    }
}

/// Iterator over the games of a reader, built with [`crate::GameBuilder`].
pub struct Games<R> {
    reader: Reader<R>,
}

impl<R: Read> Iterator for Games<R> {
    type Item = io::Result<Result<crate::GameRecord, ReadError>>;
    fn next(&mut self) -> Option<Self::Item> {
        let mut b = crate::GameBuilder::new();
        self.reader.read_game(&mut b).transpose()
    }
}

impl<R: Read> Reader<R> {
    /// The games as [`crate::GameRecord`]s (or the error that stopped each).
    pub fn into_games(self) -> Games<R> {
        Games { reader: self }
    }
}

enum Token {
    Nothing,
    Nag(Nag),
    Move(Move, Option<Nag>),
    Error(ErrorKind),
}

/// Reads one movetext token (not a result, comment, NAG or parenthesis) in `pos`.
fn classify(tok: &[u8], pos: &Position) -> Token {
    let mut t = tok;
    // Move number indication ("12.", "12...", glued "1.e4", or a bare number).
    if t[0].is_ascii_digit() && !t.starts_with(b"0-0") {
        let digits = t.iter().take_while(|b| b.is_ascii_digit()).count();
        let rest = &t[digits..];
        let mut rest = rest;
        let mut dots = 0;
        loop {
            if let Some(r) = rest.strip_prefix(b".") {
                rest = r;
            } else if let Some(r) = rest.strip_prefix("…".as_bytes()) {
                rest = r;
            } else {
                break;
            }
            dots += 1;
        }
        if dots == 0 && !rest.is_empty() {
            return not_a_move(tok, "unexpected characters after a number");
        }
        t = rest;
        if t.is_empty() {
            return Token::Nothing;
        }
    }
    while let Some(r) = t.strip_prefix(b".") {
        t = r;
    }
    if t.is_empty() {
        return Token::Nothing;
    }
    // Standalone suffix annotation after a space ("e4 !?") is a NAG.
    if let Some(n) = Nag::from_suffix(t) {
        return Token::Nag(n);
    }
    if matches!(t, b"e.p." | b"ep" | b"e.p" | b"+" | b"#") {
        return Token::Nothing;
    }
    // Suffix annotation glued to the move.
    let mut nag = None;
    let ann = t
        .iter()
        .rev()
        .take_while(|&&b| b == b'!' || b == b'?')
        .count();
    if ann > 0 {
        nag = Nag::from_suffix(&t[t.len() - ann..]);
        t = &t[..t.len() - ann];
    }
    let san = match fast_san(t) {
        Some(s) => s,
        None => match std::str::from_utf8(t).ok().map(SanPlus::parse) {
            Some(Ok(p)) => {
                if nag.is_none() {
                    nag = p.nag.map(Nag);
                }
                p.san
            }
            Some(Err(e)) => {
                return match uci_move(t, pos) {
                    Some(m) => Token::Move(m, nag),
                    None => not_a_move(tok, e.reason),
                }
            }
            None => return not_a_move(tok, "not text"),
        },
    };
    let result = pos.san_to_move(&san);
    if result.is_err() {
        // Some programs write UCI (`g1f3`, `e7e8q`) as movetext.
        if let Some(m) = uci_move(t, pos) {
            return Token::Move(m, nag);
        }
    }
    match result {
        Ok(m) => Token::Move(m, nag),
        Err(SanError::Ambiguous { candidates, .. }) => Token::Error(ErrorKind::AmbiguousMove {
            text: decode(t).into_owned(),
            candidates,
        }),
        Err(_) => Token::Error(ErrorKind::IllegalMove {
            text: decode(t).into_owned(),
            expected: format!(
                "{} (move {}{})",
                if pos.turn() == Color::White {
                    "White"
                } else {
                    "Black"
                },
                pos.fullmoves(),
                if pos.turn() == Color::White {
                    "."
                } else {
                    "..."
                }
            ),
        }),
    }
}

/// The token read as a UCI move, if it is one and it is legal.
fn uci_move(t: &[u8], pos: &Position) -> Option<Move> {
    let uci_like = (t.len() == 4 || t.len() == 5)
        && (b'a'..=b'h').contains(&t[0])
        && (b'1'..=b'8').contains(&t[1])
        && (b'a'..=b'h').contains(&t[2])
        && (b'1'..=b'8').contains(&t[3]);
    if !uci_like {
        return None;
    }
    pos.parse_uci(std::str::from_utf8(t).ok()?).ok()
}

fn not_a_move(tok: &[u8], reason: &str) -> Token {
    let text: String = decode(tok).chars().take(24).collect();
    Token::Error(ErrorKind::NotAMove {
        text,
        reason: reason.to_owned(),
    })
}

/// SAN in its plain English form, read straight from bytes (the common case, kept fast).
/// Anything unusual returns `None` and goes to the tolerant [`SanPlus::parse`].
#[inline]
fn fast_san(t: &[u8]) -> Option<San> {
    let mut t = t;
    if let Some(r) = t.strip_suffix(b"#").or_else(|| t.strip_suffix(b"+")) {
        t = r;
    }
    match t {
        b"O-O" | b"0-0" => return Some(San::Castle(CastlingSide::KingSide)),
        b"O-O-O" | b"0-0-0" => return Some(San::Castle(CastlingSide::QueenSide)),
        _ => {}
    }
    let (role, mut s) = match *t.first()? {
        b'N' => (Role::Knight, &t[1..]),
        b'B' => (Role::Bishop, &t[1..]),
        b'R' => (Role::Rook, &t[1..]),
        b'Q' => (Role::Queen, &t[1..]),
        b'K' => (Role::King, &t[1..]),
        b'a'..=b'h' => (Role::Pawn, t),
        _ => return None,
    };
    let mut promotion = None;
    if role == Role::Pawn && s.len() >= 4 && s[s.len() - 2] == b'=' {
        promotion = Some(match s[s.len() - 1] {
            b'Q' => Role::Queen,
            b'R' => Role::Rook,
            b'B' => Role::Bishop,
            b'N' => Role::Knight,
            _ => return None,
        });
        s = &s[..s.len() - 2];
    }
    if s.len() < 2 {
        return None;
    }
    let (head, dest) = s.split_at(s.len() - 2);
    let file = |b: u8| {
        (b'a'..=b'h')
            .contains(&b)
            .then(|| File::new(b - b'a'))
            .flatten()
    };
    let rank = |b: u8| {
        (b'1'..=b'8')
            .contains(&b)
            .then(|| Rank::new(b - b'1'))
            .flatten()
    };
    let to = Square::from_coords(file(dest[0])?, rank(dest[1])?);
    let (head, capture) = match head.split_last() {
        Some((b'x', h)) => (h, true),
        _ => (head, false),
    };
    let (from_file, from_rank) = match *head {
        [] => (None, None),
        [f] if file(f).is_some() => (file(f), None),
        [r] if rank(r).is_some() => (None, rank(r)),
        [f, r] => (Some(file(f)?), Some(rank(r)?)),
        _ => return None,
    };
    if role == Role::Pawn && (from_rank.is_some() || from_file.is_some() != capture) {
        return None;
    }
    Some(San::Normal {
        role,
        file: from_file,
        rank: from_rank,
        capture,
        to,
        promotion,
    })
}

/// Parses the tag pairs on one line: `[Name "value"]`, with `\"` and `\\` escapes; lenient with
/// unescaped quotes inside the value, several tags on a line and a missing `]`.
fn parse_tag_line(line: &[u8], value: &mut Vec<u8>, mut f: impl FnMut(&[u8], &[u8])) {
    let mut i = 0;
    let n = line.len();
    loop {
        while i < n && is_ws(line[i]) {
            i += 1;
        }
        if i >= n || line[i] != b'[' {
            return;
        }
        i += 1;
        while i < n && is_ws(line[i]) {
            i += 1;
        }
        let name_start = i;
        while i < n && !is_ws(line[i]) && line[i] != b'"' && line[i] != b']' {
            i += 1;
        }
        let name = &line[name_start..i];
        while i < n && is_ws(line[i]) {
            i += 1;
        }
        value.clear();
        if i < n && line[i] == b'"' {
            i += 1;
            while i < n {
                // Copy up to the next quote or backslash in one go.
                let run = memchr::memchr2(b'"', b'\\', &line[i..]).unwrap_or(n - i);
                value.extend_from_slice(&line[i..i + run]);
                i += run;
                if i >= n {
                    break;
                }
                let c = line[i];
                if c == b'\\' && i + 1 < n && (line[i + 1] == b'"' || line[i + 1] == b'\\') {
                    value.push(line[i + 1]);
                    i += 2;
                } else if c == b'"' {
                    let mut j = i + 1;
                    while j < n && is_ws(line[j]) {
                        j += 1;
                    }
                    // The closing quote: `]` follows, then the end of the line or another tag.
                    let closes = j >= n || {
                        let mut k = j + 1;
                        while k < n && is_ws(line[k]) {
                            k += 1;
                        }
                        line[j] == b']' && (k >= n || line[k] == b'[')
                    };
                    if closes {
                        i = j + 1;
                        break;
                    }
                    value.push(c);
                    i += 1;
                } else {
                    value.push(c);
                    i += 1;
                }
            }
        } else {
            // No quotes: the value runs to `]`.
            while i < n && line[i] != b']' {
                value.push(line[i]);
                i += 1;
            }
            i += 1;
            while value.last().is_some_and(|b| is_ws(*b)) {
                value.pop();
            }
        }
        if !name.is_empty() {
            f(name, value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tags_of(line: &str) -> Vec<(String, String)> {
        let mut out = Vec::new();
        parse_tag_line(line.as_bytes(), &mut Vec::new(), |n, v| {
            out.push((decode(n).into_owned(), decode(v).into_owned()))
        });
        out
    }

    #[test]
    fn tag_line_unescapes_quotes_and_backslashes() {
        assert_eq!(
            tags_of(r#"[Event "The \"Big\" C:\\ Open"]"#),
            vec![("Event".into(), r#"The "Big" C:\ Open"#.into())]
        );
    }

    #[test]
    fn tag_line_keeps_unescaped_quote_and_bracket_inside_value() {
        assert_eq!(
            tags_of(r#"[Event "a "quoted" ] word"]"#),
            vec![("Event".into(), r#"a "quoted" ] word"#.into())]
        );
    }

    #[test]
    fn two_tags_on_one_line_are_both_read() {
        assert_eq!(
            tags_of(r#"[White "A"] [Black "B"]"#),
            vec![("White".into(), "A".into()), ("Black".into(), "B".into())]
        );
    }

    #[test]
    fn token_delimiters_are_whitespace_brackets_and_annotation_marks() {
        let delims: Vec<u8> = (0..=255u8).filter(|&b| is_delim(b)).collect();
        assert_eq!(delims, b"\t\n\x0b\x0c\r $();[]{}".to_vec());
    }

    #[test]
    fn swar_byte_test_finds_every_position() {
        for pos in 0..8 {
            let mut bytes = *b"abcdefgh";
            bytes[pos] = b'}';
            assert!(has_byte(u64::from_le_bytes(bytes), b'}'));
            assert!(!has_byte(u64::from_le_bytes(bytes), b'\n'));
        }
        assert!(!has_byte(u64::from_le_bytes(*b"[%clk 0:"), b'}'));
    }

    #[test]
    fn latin1_bytes_decode_without_error() {
        assert_eq!(decode(b"M\xfcller"), "Müller");
    }

    #[test]
    fn fast_san_reads_common_forms() {
        assert_eq!(
            fast_san(b"Nbd2+"),
            Some(San::Normal {
                role: Role::Knight,
                file: File::new(1),
                rank: None,
                capture: false,
                to: Square::from_coords(File::new(3).unwrap(), Rank::new(1).unwrap()),
                promotion: None
            })
        );
        assert_eq!(
            fast_san(b"0-0-0"),
            Some(San::Castle(CastlingSide::QueenSide))
        );
        assert!(fast_san(b"exd8=Q#").is_some());
        assert_eq!(fast_san(b"e2-e4"), None);
    }
}
