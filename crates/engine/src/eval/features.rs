//! The evaluation's features: every term is a weight (an [`S`](super::S) in
//! [`weights`](super::weights)) times a count the position gives it. Listing them by index
//! lets the tuner (`arbiter-tune`) see the evaluation as the linear function it is.

/// Material, pawn to king.
pub const MATERIAL: usize = 0;
/// Piece-square values, by role then square (from the owner's side of the board: a1 is the
/// owner's queen-side corner).
pub const PST: usize = MATERIAL + 6;
/// Knight mobility by the number of safe squares it reaches (0-8).
pub const MOBILITY_KNIGHT: usize = PST + 6 * 64;
/// Bishop mobility (0-13 squares).
pub const MOBILITY_BISHOP: usize = MOBILITY_KNIGHT + 9;
/// Rook mobility (0-14 squares).
pub const MOBILITY_ROOK: usize = MOBILITY_BISHOP + 14;
/// Queen mobility (0-27 squares).
pub const MOBILITY_QUEEN: usize = MOBILITY_ROOK + 15;
/// A passed pawn, by its rank from its owner's side.
pub const PASSED: usize = MOBILITY_QUEEN + 28;
/// A passed pawn whose stop square is occupied, by rank.
pub const PASSED_BLOCKED: usize = PASSED + 8;
/// Per rank of a passed pawn beyond the second, per square between the enemy king and its
/// stop square.
pub const PASSED_ENEMY_KING: usize = PASSED_BLOCKED + 8;
/// Likewise for the own king.
pub const PASSED_OWN_KING: usize = PASSED_ENEMY_KING + 1;
/// A pawn with another of its colour ahead on its file.
pub const DOUBLED: usize = PASSED_OWN_KING + 1;
/// A pawn with no pawn of its colour on the adjacent files.
pub const ISOLATED: usize = DOUBLED + 1;
/// A pawn defended by a pawn, by rank.
pub const CONNECTED: usize = ISOLATED + 1;
/// Two bishops on squares of both colours.
pub const BISHOP_PAIR: usize = CONNECTED + 8;
/// A rook on a file without pawns.
pub const ROOK_OPEN: usize = BISHOP_PAIR + 1;
/// A rook on a file without own pawns but with enemy ones.
pub const ROOK_SEMI_OPEN: usize = ROOK_OPEN + 1;
/// The side to move (counted +1 for it).
pub const TEMPO: usize = ROOK_SEMI_OPEN + 1;
/// A shield pawn one rank in front of the king (king on its first two ranks).
pub const SHIELD_NEAR: usize = TEMPO + 1;
/// A shield pawn two ranks in front of the king.
pub const SHIELD_FAR: usize = SHIELD_NEAR + 1;
/// No shield pawn on one of the king's files.
pub const SHIELD_MISSING: usize = SHIELD_FAR + 1;
/// A file next to (or of) the king without pawns.
pub const OPEN_FILE_NEAR_KING: usize = SHIELD_MISSING + 1;
/// Attack on the enemy king, per 4 points of the attack-danger function.
pub const KING_DANGER: usize = OPEN_FILE_NEAR_KING + 1;
/// A piece (knight to queen) attacked by a pawn.
pub const THREAT_BY_PAWN: usize = KING_DANGER + 1;
/// A rook or queen attacked by a knight or bishop.
pub const THREAT_BY_MINOR_ON_MAJOR: usize = THREAT_BY_PAWN + 1;
/// A queen attacked by a rook.
pub const THREAT_BY_ROOK_ON_QUEEN: usize = THREAT_BY_MINOR_ON_MAJOR + 1;
/// A piece (knight to queen) attacked and not defended.
pub const HANGING: usize = THREAT_BY_ROOK_ON_QUEEN + 1;
/// A pawn attacked and not defended.
pub const HANGING_PAWN: usize = HANGING + 1;
/// A pawn beside a pawn of its colour, by rank.
pub const PHALANX: usize = HANGING_PAWN + 1;
/// A pawn whose stop square an enemy pawn attacks, with no pawn of its colour beside or
/// behind it on the adjacent files.
pub const BACKWARD: usize = PHALANX + 8;
/// A passed pawn with nothing on the squares ahead of it, by rank.
pub const PASSED_FREE: usize = BACKWARD + 1;
/// A knight on the fourth to sixth rank, defended by a pawn, that no enemy pawn can attack.
pub const OUTPOST_KNIGHT: usize = PASSED_FREE + 8;
/// Likewise a bishop.
pub const OUTPOST_BISHOP: usize = OUTPOST_KNIGHT + 1;
/// A square from which a knight of ours could check the enemy king, safe from its pieces.
pub const SAFE_CHECK_KNIGHT: usize = OUTPOST_BISHOP + 1;
/// Likewise a bishop.
pub const SAFE_CHECK_BISHOP: usize = SAFE_CHECK_KNIGHT + 1;
/// Likewise a rook.
pub const SAFE_CHECK_ROOK: usize = SAFE_CHECK_BISHOP + 1;
/// Likewise a queen.
pub const SAFE_CHECK_QUEEN: usize = SAFE_CHECK_ROOK + 1;
/// The nearest enemy pawn on a file of (or beside) the own king, by its rank from the own
/// side: a storm coming.
pub const STORM: usize = SAFE_CHECK_QUEEN + 1;
/// A passed pawn the enemy king cannot catch, with no enemy pieces left (the rule of the
/// square).
pub const UNSTOPPABLE: usize = STORM + 8;
/// A knight or bishop with a pawn of its colour right in front of it.
pub const MINOR_BEHIND_PAWN: usize = UNSTOPPABLE + 1;
/// Per bishop, each own pawn on squares of the bishop's colour.
pub const BISHOP_PAWNS: usize = MINOR_BEHIND_PAWN + 1;
/// A square of files c-f, ranks 2-4 from the own side, without an own pawn and not attacked
/// by an enemy pawn.
pub const SPACE: usize = BISHOP_PAWNS + 1;
/// The number of features.
pub const COUNT: usize = SPACE + 1;

/// Groups of features: first index, size, name.
const GROUPS: &[(usize, usize, &str)] = &[
    (MATERIAL, 6, "MATERIAL"),
    (PST, 6 * 64, "PST"),
    (MOBILITY_KNIGHT, 9, "MOBILITY_KNIGHT"),
    (MOBILITY_BISHOP, 14, "MOBILITY_BISHOP"),
    (MOBILITY_ROOK, 15, "MOBILITY_ROOK"),
    (MOBILITY_QUEEN, 28, "MOBILITY_QUEEN"),
    (PASSED, 8, "PASSED"),
    (PASSED_BLOCKED, 8, "PASSED_BLOCKED"),
    (PASSED_ENEMY_KING, 1, "PASSED_ENEMY_KING"),
    (PASSED_OWN_KING, 1, "PASSED_OWN_KING"),
    (DOUBLED, 1, "DOUBLED"),
    (ISOLATED, 1, "ISOLATED"),
    (CONNECTED, 8, "CONNECTED"),
    (BISHOP_PAIR, 1, "BISHOP_PAIR"),
    (ROOK_OPEN, 1, "ROOK_OPEN"),
    (ROOK_SEMI_OPEN, 1, "ROOK_SEMI_OPEN"),
    (TEMPO, 1, "TEMPO"),
    (SHIELD_NEAR, 1, "SHIELD_NEAR"),
    (SHIELD_FAR, 1, "SHIELD_FAR"),
    (SHIELD_MISSING, 1, "SHIELD_MISSING"),
    (OPEN_FILE_NEAR_KING, 1, "OPEN_FILE_NEAR_KING"),
    (KING_DANGER, 1, "KING_DANGER"),
    (THREAT_BY_PAWN, 1, "THREAT_BY_PAWN"),
    (THREAT_BY_MINOR_ON_MAJOR, 1, "THREAT_BY_MINOR_ON_MAJOR"),
    (THREAT_BY_ROOK_ON_QUEEN, 1, "THREAT_BY_ROOK_ON_QUEEN"),
    (HANGING, 1, "HANGING"),
    (HANGING_PAWN, 1, "HANGING_PAWN"),
    (PHALANX, 8, "PHALANX"),
    (BACKWARD, 1, "BACKWARD"),
    (PASSED_FREE, 8, "PASSED_FREE"),
    (OUTPOST_KNIGHT, 1, "OUTPOST_KNIGHT"),
    (OUTPOST_BISHOP, 1, "OUTPOST_BISHOP"),
    (SAFE_CHECK_KNIGHT, 1, "SAFE_CHECK_KNIGHT"),
    (SAFE_CHECK_BISHOP, 1, "SAFE_CHECK_BISHOP"),
    (SAFE_CHECK_ROOK, 1, "SAFE_CHECK_ROOK"),
    (SAFE_CHECK_QUEEN, 1, "SAFE_CHECK_QUEEN"),
    (STORM, 8, "STORM"),
    (UNSTOPPABLE, 1, "UNSTOPPABLE"),
    (MINOR_BEHIND_PAWN, 1, "MINOR_BEHIND_PAWN"),
    (BISHOP_PAWNS, 1, "BISHOP_PAWNS"),
    (SPACE, 1, "SPACE"),
];

/// The group a feature belongs to, and its offset in the group.
pub fn group(feature: usize) -> Option<(&'static str, usize)> {
    GROUPS
        .iter()
        .find(|(start, len, _)| (*start..start + len).contains(&feature))
        .map(|(start, _, name)| (*name, feature - start))
}

/// The features' groups in order: (first index, size, name).
pub fn groups() -> &'static [(usize, usize, &'static str)] {
    GROUPS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_cover_every_feature_once_in_order() {
        let mut next = 0;
        for &(start, len, _) in groups() {
            assert_eq!(start, next);
            next += len;
        }
        assert_eq!(next, COUNT);
        assert_eq!(group(PST + 64 + 3), Some(("PST", 67)));
    }
}
