//! Forsyth–Edwards Notation: reading (standard, X-FEN and Shredder-FEN castling) and writing.
//!
//! ```
//! use arbiter_rules::{CastlingMode, Position};
//! let pos = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
//!                              CastlingMode::Standard).unwrap();
//! // The en passant square is written only when an en passant capture is legal.
//! assert_eq!(pos.fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
//! ```

use crate::{
    Bitboard, Board, Castles, CastlingMode, CastlingSide, Color, File, Piece, Position,
    PositionError, Rank, Role, Setup, Square,
};
use core::fmt;

/// Why a FEN string could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FenError {
    /// The text is not FEN: `field` (1-based) and what is wrong with it.
    Syntax {
        /// 1-based field number (1 = placement, 2 = side to move, …).
        field: usize,
        /// What is wrong.
        message: String,
    },
    /// The text is FEN, but the position it describes is not legal.
    Position(PositionError),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Syntax { field, message } => write!(f, "field {field}: {message}"),
            FenError::Position(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for FenError {}

impl From<PositionError> for FenError {
    fn from(e: PositionError) -> FenError {
        FenError::Position(e)
    }
}

fn syntax(field: usize, message: impl Into<String>) -> FenError {
    FenError::Syntax {
        field,
        message: message.into(),
    }
}

fn show(s: &str) -> String {
    let mut out: String = s.chars().take(20).collect();
    if s.chars().count() > 20 {
        out.push('…');
    }
    out
}

/// Reads the piece placement field (`rnbqkbnr/pppppppp/8/…`).
///
/// # Errors
/// [`FenError::Syntax`] for field 1.
pub fn parse_board(s: &str) -> Result<Board, FenError> {
    let mut board = Board::empty();
    let ranks: Vec<&str> = s.split('/').collect();
    if ranks.len() != 8 {
        return Err(syntax(
            1,
            format!("expected 8 ranks separated by '/', found {}", ranks.len()),
        ));
    }
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = Rank::new(7 - i as u8).expect("8 ranks");
        let mut file = 0u32;
        let mut last_digit = false;
        for c in rank_text.chars() {
            if let Some(d) = c.to_digit(10) {
                if d == 0 || d > 8 || last_digit {
                    return Err(syntax(
                        1,
                        format!("bad empty-square count '{c}' in rank {}", rank.char()),
                    ));
                }
                file += d;
                last_digit = true;
            } else if let Some(piece) = Piece::from_char(c) {
                if file >= 8 {
                    return Err(syntax(
                        1,
                        format!("rank {} has more than 8 squares", rank.char()),
                    ));
                }
                board.put_unchecked(
                    Square::from_coords(File::new(file as u8).expect("< 8"), rank),
                    piece,
                );
                file += 1;
                last_digit = false;
            } else {
                return Err(syntax(
                    1,
                    format!("unexpected character '{c}' in rank {}", rank.char()),
                ));
            }
        }
        if file != 8 {
            return Err(syntax(
                1,
                format!("rank {} has {} squares, expected 8", rank.char(), file),
            ));
        }
    }
    Ok(board)
}

fn parse_castling(s: &str, board: &Board) -> Result<Castles, FenError> {
    let mut castles = Castles::NONE;
    if s == "-" {
        return Ok(castles);
    }
    if s.is_empty() || s.len() > 8 {
        return Err(syntax(
            3,
            format!(
                "expected castling rights such as KQkq or '-', found '{}'",
                show(s)
            ),
        ));
    }
    for c in s.chars() {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let back = Bitboard::rank(Rank::back_rank(color));
        let rooks = board.by_piece(Role::Rook.of(color)) & back;
        let king = board.king_of(color).filter(|k| back.contains(*k));
        let err = |side: CastlingSide, reason: &'static str| {
            FenError::Position(PositionError::CastlingRights {
                color,
                side,
                reason,
            })
        };
        let (side, rook) = match c.to_ascii_lowercase() {
            'k' | 'q' => {
                let side = if c.eq_ignore_ascii_case(&'k') {
                    CastlingSide::KingSide
                } else {
                    CastlingSide::QueenSide
                };
                let Some(king) = king else {
                    return Err(err(side, "the king is not on its back rank"));
                };
                // X-FEN: the outermost rook on that side of the king.
                let candidates = rooks
                    .into_iter()
                    .filter(|r| match side {
                        CastlingSide::KingSide => r.file() > king.file(),
                        CastlingSide::QueenSide => r.file() < king.file(),
                    });
                let rook = match side {
                    CastlingSide::KingSide => candidates.max(),
                    CastlingSide::QueenSide => candidates.min(),
                };
                let Some(rook) = rook else {
                    return Err(err(side, match color {
                        Color::White => "no white rook on that side of the king",
                        Color::Black => "no black rook on that side of the king",
                    }));
                };
                (side, rook)
            }
            'a'..='h' => {
                let file = File::from_char(c).expect("a-h");
                let sq = Square::from_coords(file, Rank::back_rank(color));
                let Some(king) = king else {
                    return Err(err(CastlingSide::KingSide, "the king is not on its back rank"));
                };
                let side = if file > king.file() {
                    CastlingSide::KingSide
                } else {
                    CastlingSide::QueenSide
                };
                if !rooks.contains(sq) {
                    return Err(err(side, "no rook on that square of the back rank"));
                }
                (side, sq)
            }
            _ => {
                return Err(syntax(
                    3,
                    format!("unexpected character '{c}' in castling rights (expected K, Q, k, q, A–H, a–h or '-')"),
                ))
            }
        };
        castles.set(color, side, Some(rook));
    }
    Ok(castles)
}

fn parse_counter(s: &str, field: usize, name: &str) -> Result<u32, FenError> {
    s.parse::<u32>().map_err(|_| {
        syntax(
            field,
            format!("expected the {name} as a number, found '{}'", show(s)),
        )
    })
}

/// Reads a FEN (6 fields) or the first four fields of an EPD (counters default to 0 and 1)
/// into an unvalidated [`Setup`].
///
/// # Errors
/// [`FenError`] with the field and what is wrong.
pub fn parse_setup(fen: &str) -> Result<Setup, FenError> {
    let fields: Vec<&str> = fen.split_ascii_whitespace().collect();
    if fields.is_empty() {
        return Err(syntax(1, "empty FEN"));
    }
    if fields.len() > 6 {
        return Err(syntax(
            7,
            format!("unexpected extra field '{}'", show(fields[6])),
        ));
    }
    let board = parse_board(fields[0])?;
    let turn = match fields.get(1).copied() {
        None | Some("w") => Color::White,
        Some("b") => Color::Black,
        Some(other) => {
            return Err(syntax(
                2,
                format!("expected 'w' or 'b', found '{}'", show(other)),
            ))
        }
    };
    let castles = match fields.get(2) {
        None => Castles::NONE,
        Some(s) => parse_castling(s, &board)?,
    };
    let ep_square = match fields.get(3).copied() {
        None | Some("-") => None,
        Some(s) => Some(s.parse::<Square>().map_err(|_| {
            syntax(
                4,
                format!("expected an en passant square or '-', found '{}'", show(s)),
            )
        })?),
    };
    let halfmoves = match fields.get(4) {
        None => 0,
        Some(s) => parse_counter(s, 5, "halfmove clock")?,
    };
    let fullmoves = match fields.get(5) {
        None => 1,
        // A move number of 0 is common in hand-written FEN; it is read as 1.
        Some(s) => parse_counter(s, 6, "move number")?.max(1),
    };
    Ok(Setup {
        board,
        turn,
        castles,
        ep_square,
        halfmoves,
        fullmoves,
    })
}

impl Position {
    /// Reads and validates a FEN.
    ///
    /// # Errors
    /// [`FenError::Syntax`] if the text is not FEN, [`FenError::Position`] if the position is
    /// not legal.
    pub fn from_fen(fen: &str, mode: CastlingMode) -> Result<Position, FenError> {
        let setup = parse_setup(fen)?;
        Ok(Position::from_setup(setup, mode)?)
    }

    /// The FEN. Castling is `KQkq` in standard mode and X-FEN in Chess960 mode (file letters
    /// only where the outermost-rook rule would be ambiguous); the en passant square only if
    /// an en passant capture is legal.
    pub fn fen(&self) -> String {
        self.fen_with(false)
    }

    /// The FEN with Shredder-FEN castling (rook file letters, e.g. `HAha`).
    pub fn fen_shredder(&self) -> String {
        self.fen_with(true)
    }

    /// The first four fields of the FEN (placement, turn, castling, en passant).
    pub fn epd(&self) -> String {
        let fen = self.fen();
        fen.rsplitn(3, ' ').last().unwrap_or(&fen).to_string()
    }

    fn fen_with(&self, shredder: bool) -> String {
        let mut out = board_fen(&self.board);
        out.push(' ');
        out.push(self.turn.fen_char());
        out.push(' ');
        out.push_str(&castling_field(self, shredder));
        out.push(' ');
        match self.legal_ep_square() {
            Some(ep) => out.push_str(&ep.to_string()),
            None => out.push('-'),
        }
        out.push_str(&format!(" {} {}", self.halfmoves, self.fullmoves));
        out
    }
}

/// The piece placement field of a board.
pub fn board_fen(board: &Board) -> String {
    let mut out = String::with_capacity(72);
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            let sq = Square::new_unchecked(rank * 8 + file);
            match board.piece_at(sq) {
                Some(p) => {
                    if empty > 0 {
                        out.push((b'0' + empty) as char);
                        empty = 0;
                    }
                    out.push(p.char());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            out.push((b'0' + empty) as char);
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out
}

fn castling_field(pos: &Position, shredder: bool) -> String {
    let mut out = String::new();
    for color in Color::ALL {
        for side in CastlingSide::ALL {
            let Some(rook) = pos.castles.rook(color, side) else {
                continue;
            };
            let letter = if pos.mode == CastlingMode::Standard && !shredder {
                match side {
                    CastlingSide::KingSide => 'K',
                    CastlingSide::QueenSide => 'Q',
                }
            } else if shredder {
                rook.file().char().to_ascii_uppercase()
            } else {
                // X-FEN: K/Q when the castling rook is the outermost rook on that side.
                let back = Bitboard::rank(Rank::back_rank(color));
                let king = pos.king(color);
                let others = (pos.board.by_piece(Role::Rook.of(color)) & back)
                    .into_iter()
                    .filter(|r| match side {
                        CastlingSide::KingSide => r.file() > rook.file() && r.file() > king.file(),
                        CastlingSide::QueenSide => r.file() < rook.file() && r.file() < king.file(),
                    })
                    .count();
                if others == 0 {
                    match side {
                        CastlingSide::KingSide => 'K',
                        CastlingSide::QueenSide => 'Q',
                    }
                } else {
                    rook.file().char().to_ascii_uppercase()
                }
            };
            out.push(color.fold(letter, letter.to_ascii_lowercase()));
        }
    }
    if out.is_empty() {
        out.push('-');
    }
    out
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.fen())
    }
}
