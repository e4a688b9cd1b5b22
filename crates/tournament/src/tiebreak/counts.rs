//! The tie-breaks that count rounds (C.07 §7): wins, games won, games with Black, wins with
//! Black, games (rounds) elected to play.

use super::crosstable::{Cell, Crosstable};
use crate::model::{Colour, GameResult, Points};

/// How many rounds of each player satisfy `counted`, as points (a whole number).
fn count(table: &Crosstable, counted: impl Fn(&Crosstable, &Cell) -> bool) -> Vec<Points> {
    table
        .rows
        .iter()
        .map(|row| {
            let n = row.cells.iter().filter(|c| counted(table, c)).count();
            Points::from_int(n as i64)
        })
        .collect()
}

/// WIN (§7.1): rounds in which the player obtained the points of a win, with or without
/// playing (forfeit wins and byes worth a win count).
pub(crate) fn wins(table: &Crosstable) -> Vec<Points> {
    count(table, |t, c| c.points == t.scoring.win)
}

/// WON (§7.2): games won over the board.
pub(crate) fn games_won(table: &Crosstable) -> Vec<Points> {
    count(table, |_, c| c.played && c.result == Some(GameResult::Win))
}

/// BPG (§7.3): games played over the board with Black.
pub(crate) fn black_games(table: &Crosstable) -> Vec<Points> {
    count(table, |_, c| c.played && c.colour == Some(Colour::Black))
}

/// BWG (§7.4): games won over the board with Black.
pub(crate) fn black_wins(table: &Crosstable) -> Vec<Points> {
    count(table, |_, c| {
        c.played && c.colour == Some(Colour::Black) && c.result == Some(GameResult::Win)
    })
}

/// GE (§7.6, REP in the 2026 text): games elected to play — every round that is not a voluntary unplayed round
/// (games, forfeit wins, the pairing-allocated and full-point byes).
pub(crate) fn games_elected(table: &Crosstable) -> Vec<Points> {
    count(table, |_, c| !c.voluntary_unplayed)
}
