//! Chess960 start positions by Scharnagl number (Guideline II.1–II.2).

use crate::{
    Board, Castles, CastlingMode, CastlingSide, Color, File, Position, Rank, Role, Setup, Square,
};

/// The back-rank arrangement (files a–h) of start position `n` (0–959), or `None` if `n > 959`.
///
/// 518 is the standard arrangement `RNBQKBNR`.
pub fn back_rank(n: u16) -> Option<[Role; 8]> {
    if n > 959 {
        return None;
    }
    let mut rank: [Option<Role>; 8] = [None; 8];
    let mut n = n as usize;
    // Light-squared bishop on b, d, f or h; dark-squared bishop on a, c, e or g.
    rank[(n % 4) * 2 + 1] = Some(Role::Bishop);
    n /= 4;
    rank[(n % 4) * 2] = Some(Role::Bishop);
    n /= 4;
    let place = |rank: &mut [Option<Role>; 8], mut k: usize, role: Role| {
        for slot in rank.iter_mut() {
            if slot.is_none() {
                if k == 0 {
                    *slot = Some(role);
                    return;
                }
                k -= 1;
            }
        }
    };
    place(&mut rank, n % 6, Role::Queen);
    n /= 6;
    const KNIGHTS: [(usize, usize); 10] = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ];
    let (a, b) = KNIGHTS[n];
    // Place the second knight first so the first index is not shifted.
    place(&mut rank, b, Role::Knight);
    place(&mut rank, a, Role::Knight);
    // The king stands between the two rooks (Guideline II.1).
    place(&mut rank, 0, Role::Rook);
    place(&mut rank, 0, Role::King);
    place(&mut rank, 0, Role::Rook);
    let mut out = [Role::Pawn; 8];
    for (o, r) in out.iter_mut().zip(rank) {
        *o = r?;
    }
    Some(out)
}

/// The Scharnagl number of a back-rank arrangement, if it is a Chess960 start arrangement.
pub fn number_of(rank: &[Role; 8]) -> Option<u16> {
    (0..960).find(|&n| back_rank(n).as_ref() == Some(rank))
}

impl Position {
    /// Chess960 start position number `n` (0–959), in [`CastlingMode::Chess960`].
    pub fn chess960(n: u16) -> Option<Position> {
        let roles = back_rank(n)?;
        let mut board = Board::empty();
        let mut castles = Castles::NONE;
        for color in Color::ALL {
            let back = Rank::back_rank(color);
            let pawns = Rank::SECOND.relative_to(color);
            let mut king_file = None;
            for (i, role) in roles.iter().enumerate() {
                let file = File::new(i as u8)?;
                board.set_piece_at(Square::from_coords(file, back), role.of(color));
                board.set_piece_at(Square::from_coords(file, pawns), Role::Pawn.of(color));
                if *role == Role::King {
                    king_file = Some(file);
                } else if *role == Role::Rook {
                    let side = if king_file.is_some() {
                        CastlingSide::KingSide
                    } else {
                        CastlingSide::QueenSide
                    };
                    castles.set(color, side, Some(Square::from_coords(file, back)));
                }
            }
        }
        let setup = Setup {
            board,
            castles,
            ..Setup::default()
        };
        Position::from_setup(setup, CastlingMode::Chess960).ok()
    }

    /// A Chess960 start position chosen by `random` (any number; reduced modulo 960), for
    /// callers that bring their own randomness. Returns the number too.
    pub fn chess960_random(random: u64) -> (u16, Position) {
        let n = (random % 960) as u16;
        (n, Position::chess960(n).expect("n < 960"))
    }
}
