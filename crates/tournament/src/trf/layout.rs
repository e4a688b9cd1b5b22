//! The fixed columns of a TRF player line (`001`), 0-based character ranges, end exclusive
//! (TRF-16 and TRF-2026 agree on them).

/// Start number, columns 5–8.
pub const START_NO: (usize, usize) = (4, 8);
/// Sex, column 10.
pub const SEX: usize = 9;
/// Title, columns 11–13.
pub const TITLE: (usize, usize) = (10, 13);
/// Name, columns 15–47.
pub const NAME: (usize, usize) = (14, 47);
/// Rating, columns 49–52.
pub const RATING: (usize, usize) = (48, 52);
/// Federation, columns 54–56.
pub const FEDERATION: (usize, usize) = (53, 56);
/// FIDE ID, columns 58–68.
pub const FIDE_ID: (usize, usize) = (57, 68);
/// Birth date, columns 70–79.
pub const BIRTH_DATE: (usize, usize) = (69, 79);
/// Points, columns 81–84.
pub const POINTS: (usize, usize) = (80, 84);
/// Rank, columns 86–89.
pub const RANK: (usize, usize) = (85, 89);
/// Round 1's block starts at column 92.
pub const FIRST_ROUND_COLUMN: usize = 91;
/// A round block: opponent (4), space, colour, space, result.
pub const ROUND_WIDTH: usize = 8;
/// From one round block to the next (two spaces between).
pub const ROUND_STRIDE: usize = 10;
/// More rounds than any tournament has; beyond this a line is not read (bounds memory).
pub const MAX_ROUNDS: u32 = 999;
