//! Standard Algebraic Notation (Appendix C), with national piece letters (C.2/C.3) and
//! figurines, read tolerantly and written exactly.
//!
//! ```
//! use arbiter_rules::{Position, san::Lang};
//! let pos = Position::new();
//! let m = pos.parse_san("Nf3").unwrap();
//! assert_eq!(pos.san(m), "Nf3");
//! assert_eq!(pos.san_lang(m, Lang::Czech), "Jf3");
//! // Tolerant input: long algebraic, zeros for castling, annotations.
//! assert_eq!(pos.parse_san("Ng1-f3!?").unwrap(), m);
//! ```

use crate::{
    attacks, Bitboard, CastlingSide, Color, File, Move, MoveList, Position, Rank, Role, Square,
};
use core::fmt;
use core::str::FromStr;

/// A language for piece letters (Appendix C.3: "each national federation is free to use the
/// letters of its own language"), or figurines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Lang {
    /// K Q R B N.
    #[default]
    English,
    /// K D V S J (král, dáma, věž, střelec, jezdec).
    Czech,
    /// K D V S J (kráľ, dáma, veža, strelec, jazdec).
    Slovak,
    /// K D T L S (König, Dame, Turm, Läufer, Springer).
    German,
    /// R D T F C (roi, dame, tour, fou, cavalier).
    French,
    /// R D T A C (rey, dama, torre, alfil, caballo).
    Spanish,
    /// R D T A C (re, donna, torre, alfiere, cavallo).
    Italian,
    /// K D T L P (koning, dame, toren, loper, paard).
    Dutch,
    /// K H W G S (król, hetman, wieża, goniec, skoczek).
    Polish,
    /// Кр Ф Л С К (король, ферзь, ладья, слон, конь).
    Russian,
    /// R D T B C (rei, dama, torre, bispo, cavalo).
    Portuguese,
    /// K V B F H (király, vezér, bástya, futó, huszár).
    Hungarian,
    /// K D T L S (kung, dam, torn, löpare, springare).
    Swedish,
    /// ♔ ♕ ♖ ♗ ♘ for White's moves, ♚ ♛ ♜ ♝ ♞ for Black's (C.3 recommends figurines for print).
    Figurine,
}

impl Lang {
    /// Every language, English first.
    pub const ALL: [Lang; 14] = [
        Lang::English,
        Lang::Czech,
        Lang::Slovak,
        Lang::German,
        Lang::French,
        Lang::Spanish,
        Lang::Italian,
        Lang::Dutch,
        Lang::Polish,
        Lang::Russian,
        Lang::Portuguese,
        Lang::Hungarian,
        Lang::Swedish,
        Lang::Figurine,
    ];

    /// The code used on the command line and in the API (`en`, `cs`, `sk`, …, `figurine`).
    pub const fn code(self) -> &'static str {
        match self {
            Lang::English => "en",
            Lang::Czech => "cs",
            Lang::Slovak => "sk",
            Lang::German => "de",
            Lang::French => "fr",
            Lang::Spanish => "es",
            Lang::Italian => "it",
            Lang::Dutch => "nl",
            Lang::Polish => "pl",
            Lang::Russian => "ru",
            Lang::Portuguese => "pt",
            Lang::Hungarian => "hu",
            Lang::Swedish => "sv",
            Lang::Figurine => "figurine",
        }
    }

    /// Letters for king, queen, rook, bishop, knight.
    const fn letters(self) -> [&'static str; 5] {
        match self {
            Lang::English => ["K", "Q", "R", "B", "N"],
            Lang::Czech | Lang::Slovak => ["K", "D", "V", "S", "J"],
            Lang::German | Lang::Swedish => ["K", "D", "T", "L", "S"],
            Lang::French => ["R", "D", "T", "F", "C"],
            Lang::Spanish | Lang::Italian => ["R", "D", "T", "A", "C"],
            Lang::Dutch => ["K", "D", "T", "L", "P"],
            Lang::Polish => ["K", "H", "W", "G", "S"],
            Lang::Russian => ["Кр", "Ф", "Л", "С", "К"],
            Lang::Portuguese => ["R", "D", "T", "B", "C"],
            Lang::Hungarian => ["K", "V", "B", "F", "H"],
            Lang::Figurine => ["♔", "♕", "♖", "♗", "♘"],
        }
    }

    /// The letter (or figurine) for `role` when `color` moves. Pawns have none.
    pub fn piece_name(self, role: Role, color: Color) -> &'static str {
        if self == Lang::Figurine && color == Color::Black {
            return match role {
                Role::King => "♚",
                Role::Queen => "♛",
                Role::Rook => "♜",
                Role::Bishop => "♝",
                Role::Knight => "♞",
                Role::Pawn => "",
            };
        }
        let l = self.letters();
        match role {
            Role::King => l[0],
            Role::Queen => l[1],
            Role::Rook => l[2],
            Role::Bishop => l[3],
            Role::Knight => l[4],
            Role::Pawn => "",
        }
    }

    /// Reads a piece name at the start of `s`: the role and its length in bytes.
    fn read_piece(self, s: &str) -> Option<(Role, usize)> {
        const ROLES: [Role; 5] = [
            Role::King,
            Role::Queen,
            Role::Rook,
            Role::Bishop,
            Role::Knight,
        ];
        // Figurines of either colour are understood in every language.
        for (i, (w, b)) in ["♔", "♕", "♖", "♗", "♘"]
            .iter()
            .zip(["♚", "♛", "♜", "♝", "♞"])
            .enumerate()
        {
            if s.starts_with(w) {
                return Some((ROLES[i], w.len()));
            }
            if s.starts_with(b) {
                return Some((ROLES[i], b.len()));
            }
        }
        if self == Lang::Figurine {
            return Lang::English.read_piece(s);
        }
        // Longest name first (Russian "Кр" before "К").
        let letters = self.letters();
        let mut best: Option<(Role, usize)> = None;
        for (i, name) in letters.iter().enumerate() {
            if s.starts_with(name) && best.is_none_or(|(_, len)| name.len() > len) {
                best = Some((ROLES[i], name.len()));
            }
        }
        best
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// An unknown language code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseLangError(pub String);

impl fmt::Display for ParseLangError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let codes: Vec<&str> = Lang::ALL.iter().map(|l| l.code()).collect();
        write!(
            f,
            "unknown language '{}' (expected one of {})",
            self.0,
            codes.join(", ")
        )
    }
}

impl std::error::Error for ParseLangError {}

impl FromStr for Lang {
    type Err = ParseLangError;
    fn from_str(s: &str) -> Result<Lang, ParseLangError> {
        let lower = s.to_ascii_lowercase();
        let found =
            Lang::ALL
                .iter()
                .copied()
                .find(|l| l.code() == lower)
                .or(match lower.as_str() {
                    "english" => Some(Lang::English),
                    "czech" | "cz" => Some(Lang::Czech),
                    "slovak" => Some(Lang::Slovak),
                    "german" => Some(Lang::German),
                    "french" => Some(Lang::French),
                    "spanish" => Some(Lang::Spanish),
                    "italian" => Some(Lang::Italian),
                    "dutch" => Some(Lang::Dutch),
                    "polish" => Some(Lang::Polish),
                    "russian" => Some(Lang::Russian),
                    "portuguese" => Some(Lang::Portuguese),
                    "hungarian" => Some(Lang::Hungarian),
                    "swedish" => Some(Lang::Swedish),
                    "fig" | "figurines" => Some(Lang::Figurine),
                    _ => None,
                });
        found.ok_or_else(|| ParseLangError(s.chars().take(20).collect()))
    }
}

/// A move in SAN, not yet tied to a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum San {
    /// A piece or pawn move.
    Normal {
        /// The moving piece.
        role: Role,
        /// Origin file, if written.
        file: Option<File>,
        /// Origin rank, if written.
        rank: Option<Rank>,
        /// `x` (or `:`) was written.
        capture: bool,
        /// Destination.
        to: Square,
        /// Promotion piece.
        promotion: Option<Role>,
    },
    /// `O-O` or `O-O-O`.
    Castle(CastlingSide),
    /// `--`, the null move some programs write in analysis. Never legal in a game.
    Null,
}

/// What follows a SAN move: check or mate (Appendix C.10, C.11).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Suffix {
    /// `+`
    Check,
    /// `#`
    Checkmate,
}

/// A SAN move with its suffix and any move-quality annotation (`!`, `?`, `!!`, `??`, `!?`, `?!`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SanPlus {
    /// The move.
    pub san: San,
    /// `+`, `#` or nothing, as written.
    pub suffix: Option<Suffix>,
    /// The NAG of the annotation (1 `!`, 2 `?`, 3 `!!`, 4 `??`, 5 `!?`, 6 `?!`).
    pub nag: Option<u8>,
}

/// The text is not SAN.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseSanError {
    /// The text (shortened).
    pub text: String,
    /// What is wrong.
    pub reason: &'static str,
}

impl fmt::Display for ParseSanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a move in algebraic notation: {}",
            self.text, self.reason
        )
    }
}

impl std::error::Error for ParseSanError {}

/// A move written in SAN that cannot be played here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SanError {
    /// Not notation.
    Syntax(ParseSanError),
    /// Notation, but no legal move fits.
    Illegal {
        /// The text.
        text: String,
    },
    /// More than one legal move fits.
    Ambiguous {
        /// The text.
        text: String,
        /// The moves it could mean, in SAN.
        candidates: Vec<String>,
    },
}

impl fmt::Display for SanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SanError::Syntax(e) => write!(f, "{e}"),
            SanError::Illegal { text } => write!(f, "illegal move '{text}'"),
            SanError::Ambiguous { text, candidates } => {
                write!(
                    f,
                    "ambiguous move '{text}': could be {}",
                    candidates.join(" or ")
                )
            }
        }
    }
}

impl std::error::Error for SanError {}

impl From<ParseSanError> for SanError {
    fn from(e: ParseSanError) -> SanError {
        SanError::Syntax(e)
    }
}

fn short(s: &str) -> String {
    s.chars().take(24).collect()
}

impl SanPlus {
    /// Reads SAN in English (and figurines).
    ///
    /// # Errors
    /// [`ParseSanError`] if the text is not SAN.
    pub fn parse(s: &str) -> Result<SanPlus, ParseSanError> {
        SanPlus::parse_lang(s, Lang::English)
    }

    /// Reads SAN with the piece letters of `lang` (figurines are always understood).
    ///
    /// Tolerates `0-0`, `e8Q`/`e8=Q`/`e8(Q)`/`e8/Q`, `exd6 e.p.`, annotations, `++`, long
    /// algebraic (`Ng1f3`, `Ng1-f3`, `e2-e4`, `Nf3xe5`), `:` for captures and an optional
    /// `P` for pawns (English).
    ///
    /// # Errors
    /// [`ParseSanError`] if the text is not SAN.
    pub fn parse_lang(s: &str, lang: Lang) -> Result<SanPlus, ParseSanError> {
        let err = |reason| ParseSanError {
            text: short(s),
            reason,
        };
        let mut t = s.trim();
        if t.is_empty() {
            return Err(err("empty"));
        }
        if t.len() > 32 {
            return Err(err("too long"));
        }
        // Trailing annotations, check/mate signs, en passant marks.
        let mut suffix = None;
        let mut nag_text = String::new();
        loop {
            let before = t.len();
            for mark in ["e.p.", "ep", "e. p."] {
                if let Some(rest) = t.strip_suffix(mark) {
                    if rest.len() >= 2 {
                        t = rest.trim_end();
                    }
                }
            }
            if let Some(rest) = t.strip_suffix('#') {
                suffix = Some(Suffix::Checkmate);
                t = rest.trim_end();
            } else if let Some(rest) = t.strip_suffix("++") {
                suffix = suffix.or(Some(Suffix::Checkmate));
                t = rest.trim_end();
            } else if let Some(rest) = t.strip_suffix('+') {
                suffix = suffix.or(Some(Suffix::Check));
                t = rest.trim_end();
            } else if let Some(rest) = t.strip_suffix(['!', '?']) {
                nag_text.insert(0, t.as_bytes()[t.len() - 1] as char);
                t = rest.trim_end();
            }
            if t.len() == before {
                break;
            }
        }
        let nag = match nag_text.as_str() {
            "" => None,
            "!" => Some(1),
            "?" => Some(2),
            "!!" => Some(3),
            "??" => Some(4),
            "!?" => Some(5),
            "?!" => Some(6),
            _ => return Err(err("unknown annotation")),
        };
        let plus = |san| Ok(SanPlus { san, suffix, nag });
        match t {
            "O-O" | "0-0" | "o-o" | "OO" | "00" => {
                return plus(San::Castle(CastlingSide::KingSide))
            }
            "O-O-O" | "0-0-0" | "o-o-o" | "OOO" | "000" => {
                return plus(San::Castle(CastlingSide::QueenSide))
            }
            "--" | "Z0" | "0000" => return plus(San::Null),
            _ => {}
        }

        let (role, mut rest) = match lang.read_piece(t) {
            Some((role, len)) => (role, &t[len..]),
            None if lang == Lang::English || lang == Lang::Figurine => match t.strip_prefix('P') {
                Some(r) => (Role::Pawn, r),
                None => (Role::Pawn, t),
            },
            None => (Role::Pawn, t),
        };

        // Promotion at the end: "=Q", "(Q)", "/Q" or a bare letter after the rank digit.
        let mut promotion = None;
        if role == Role::Pawn {
            let mut r = rest;
            if let Some(x) = r.strip_suffix(')') {
                r = x;
            }
            // Find a piece name after the last digit.
            if let Some(pos) = r.rfind(|c: char| c.is_ascii_digit()) {
                let tail = &r[pos + 1..];
                if !tail.is_empty() {
                    let tail = tail.trim_start_matches(['=', '(', '/']);
                    let (prole, plen) = lang
                        .read_piece(tail)
                        .or_else(|| {
                            // Lower-case English letters are common in computer output ("e8q").
                            let c = tail.chars().next()?;
                            let role = Role::from_char(c)?;
                            (lang == Lang::English || lang == Lang::Figurine)
                                .then_some((role, c.len_utf8()))
                        })
                        .ok_or_else(|| err("unknown promotion piece"))?;
                    if plen != tail.len() || prole == Role::King || prole == Role::Pawn {
                        return Err(err("unknown promotion piece"));
                    }
                    promotion = Some(prole);
                    rest = &r[..pos + 1];
                } else if r.len() != rest.len() {
                    return Err(err("unbalanced parenthesis"));
                }
            }
        }

        // Now rest is [file][rank][-|x|:][file rank].
        let chars: Vec<char> = rest.chars().collect();
        if chars.len() < 2 {
            return Err(err("no destination square"));
        }
        let n = chars.len();
        let to_file = File::from_char(chars[n - 2])
            .filter(|_| chars[n - 2].is_ascii_lowercase())
            .ok_or_else(|| err("no destination square"))?;
        let to_rank = Rank::from_char(chars[n - 1]).ok_or_else(|| err("no destination square"))?;
        let to = Square::from_coords(to_file, to_rank);
        let mut head = &chars[..n - 2];
        let mut capture = false;
        if let Some((&last, init)) = head.split_last() {
            if last == 'x' || last == ':' || last == '-' || last == '×' {
                capture = last != '-';
                head = init;
            }
        }
        let (mut file, mut rank) = (None, None);
        match head {
            [] => {}
            [f] if f.is_ascii_lowercase() && File::from_char(*f).is_some() => {
                file = File::from_char(*f)
            }
            [r] if Rank::from_char(*r).is_some() => rank = Rank::from_char(*r),
            [f, r] if f.is_ascii_lowercase() => {
                file = Some(File::from_char(*f).ok_or_else(|| err("bad origin square"))?);
                rank = Some(Rank::from_char(*r).ok_or_else(|| err("bad origin square"))?);
            }
            _ => return Err(err("unexpected characters before the destination")),
        }
        if role == Role::Pawn && rank.is_some() && file.is_none() {
            return Err(err("a pawn move names its file"));
        }
        plus(San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion,
        })
    }
}

impl FromStr for SanPlus {
    type Err = ParseSanError;
    fn from_str(s: &str) -> Result<SanPlus, ParseSanError> {
        SanPlus::parse(s)
    }
}

impl Position {
    /// The move in SAN (English letters), with `+` or `#`.
    pub fn san(&self, m: Move) -> String {
        self.san_lang(m, Lang::English)
    }

    /// The move in SAN with the letters of `lang`, with `+` or `#`.
    pub fn san_lang(&self, m: Move, lang: Lang) -> String {
        let mut out = self.san_without_suffix(m, lang);
        let mut after = *self;
        after.play_unchecked(m);
        if after.is_check() {
            out.push(if after.has_legal_move() { '+' } else { '#' });
        }
        out
    }

    /// The move in SAN without `+`/`#` (cheaper: the move is not played).
    pub fn san_without_suffix(&self, m: Move, lang: Lang) -> String {
        let mut out = String::with_capacity(8);
        if let Some(side) = self.castling_side(m) {
            out.push_str(side.san());
            return out;
        }
        let role = self.board.role_at(m.from).unwrap_or(Role::Pawn);
        let capture = self.is_capture(m);
        if role == Role::Pawn {
            if capture {
                out.push(m.from.file().char());
            }
        } else {
            out.push_str(lang.piece_name(role, self.turn));
            // Disambiguation among legal moves only (Appendix C.10 / C.9).
            let others = self.board.by_piece(role.of(self.turn)).without(m.from)
                & attacks::attacks(role, self.turn, m.to, self.board.occupied());
            if role != Role::King && others.any() {
                let mut rivals = Bitboard::EMPTY;
                for from in others {
                    if self.is_legal(Move::new(from, m.to)) {
                        rivals.add(from);
                    }
                }
                if rivals.any() {
                    if (rivals & Bitboard::file(m.from.file())).is_empty() {
                        out.push(m.from.file().char());
                    } else if (rivals & Bitboard::rank(m.from.rank())).is_empty() {
                        out.push(m.from.rank().char());
                    } else {
                        out.push(m.from.file().char());
                        out.push(m.from.rank().char());
                    }
                }
            }
        }
        if capture {
            out.push('x');
        }
        out.push(m.to.file().char());
        out.push(m.to.rank().char());
        if let Some(p) = m.promotion {
            out.push('=');
            out.push_str(lang.piece_name(p, self.turn));
        }
        out
    }

    /// Reads a move in SAN (English letters, figurines, and the tolerant forms of
    /// [`SanPlus::parse_lang`]) and finds the legal move it stands for.
    ///
    /// # Errors
    /// [`SanError::Syntax`], [`SanError::Illegal`] or [`SanError::Ambiguous`] (naming the
    /// candidates).
    pub fn parse_san(&self, s: &str) -> Result<Move, SanError> {
        self.parse_san_lang(s, Lang::English)
    }

    /// Like [`Position::parse_san`], with the piece letters of `lang`.
    ///
    /// # Errors
    /// As [`Position::parse_san`].
    pub fn parse_san_lang(&self, s: &str, lang: Lang) -> Result<Move, SanError> {
        let plus = SanPlus::parse_lang(s, lang)?;
        self.san_to_move(&plus.san).map_err(|e| match e {
            SanError::Illegal { .. } => SanError::Illegal {
                text: short(s.trim()),
            },
            SanError::Ambiguous { candidates, .. } => SanError::Ambiguous {
                text: short(s.trim()),
                candidates,
            },
            other => other,
        })
    }

    /// Finds the legal move a parsed [`San`] stands for.
    ///
    /// # Errors
    /// [`SanError::Illegal`] or [`SanError::Ambiguous`].
    #[inline]
    pub fn san_to_move(&self, san: &San) -> Result<Move, SanError> {
        crate::resolve::resolve(self, san)
    }

    /// The general path of [`Position::san_to_move`]: through the legal move list.
    pub(crate) fn san_to_move_generic(&self, san: &San) -> Result<Move, SanError> {
        let illegal = || SanError::Illegal {
            text: String::new(),
        };
        match *san {
            San::Null => Err(illegal()),
            San::Castle(side) => {
                let rook = self.castles.rook(self.turn, side).ok_or_else(illegal)?;
                let m = Move::new(self.our_king(), rook);
                if self.is_legal(m) {
                    Ok(m)
                } else {
                    Err(illegal())
                }
            }
            San::Normal {
                role,
                file,
                rank,
                to,
                promotion,
                ..
            } => {
                let mut from_mask = self.board.by_piece(role.of(self.turn));
                if let Some(f) = file {
                    from_mask &= Bitboard::file(f);
                }
                if let Some(r) = rank {
                    from_mask &= Bitboard::rank(r);
                }
                // Appendix C.9: a pawn move written without its file (`b3`) is a move along the
                // pawn's own file, never a capture from a neighbouring file.
                if role == Role::Pawn && file.is_none() {
                    from_mask &= Bitboard::file(to.file());
                }
                let mut list: MoveList =
                    self.legal_moves_filtered(from_mask, Bitboard::from_square(to));
                // A king move never stands for castling here (castling is king-takes-rook).
                list.retain(|m| m.promotion == promotion && !self.is_castling(*m));
                match list.len() {
                    1 => Ok(list[0]),
                    0 => Err(illegal()),
                    _ => Err(SanError::Ambiguous {
                        text: String::new(),
                        candidates: list.iter().map(|m| self.san(*m)).collect(),
                    }),
                }
            }
        }
    }
}
