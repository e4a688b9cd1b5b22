//! Round-robin pairings by the Berger tables (FIDE Handbook C.05, Annex 1).
//!
//! With `n` players (`n + 1` when `n` is odd, the highest number then being the bye), the
//! tables keep the highest number fixed on board 1 and turn the others round it: in round `r`
//! the player facing the highest number is `1 + (r − 1)·n/2 mod (n − 1)`, who has White in
//! odd rounds, and on board `k` the player `k − 1` places after them has White against the
//! player `k − 1` places before them (numbers counted round `1 … n − 1`). Round 1 is
//! therefore `1–n, 2–(n−1), …`, as C.05 Annex 1 prints it.

use crate::model::StartNo;

/// One board of a round-robin round: White against Black, or a player's bye (the other side
/// is the dummy number that makes the count even).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BergerBoard {
    /// A game: White, Black.
    Game(StartNo, StartNo),
    /// The player who meets the dummy number (odd numbers of players) sits out.
    Bye(StartNo),
}

impl std::fmt::Display for BergerBoard {
    /// As the Handbook prints a board: `1-4` (White first), or `5-bye`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BergerBoard::Game(white, black) => write!(f, "{white}-{black}"),
            BergerBoard::Bye(player) => write!(f, "{player}-bye"),
        }
    }
}

/// Single or double round robin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cycles {
    /// Everyone meets everyone once.
    Single,
    /// Everyone meets everyone twice, once with each colour.
    Double,
}

/// The rounds of a round robin for `players` players (start numbers 1 to `players`), each a
/// list of boards in the order of the tables (board 1 first).
///
/// For a double round robin the second cycle repeats the first with colours reversed, and
/// the last two rounds of the first cycle are played in reverse order (C.05 Annex 1: so that
/// no player has the same colour three times running where the cycles meet).
///
/// Fewer than two players: no rounds.
pub fn rounds(players: u32, cycles: Cycles) -> Vec<Vec<BergerBoard>> {
    if players < 2 {
        return Vec::new();
    }
    let n = players + players % 2;
    let single: Vec<Vec<BergerBoard>> = (1..n).map(|r| round(players, r)).collect();
    match cycles {
        Cycles::Single => single,
        Cycles::Double => {
            let mut first = single.clone();
            let last = first.len() - 1;
            if last >= 1 {
                first.swap(last - 1, last);
            }
            let second = single.iter().map(|boards| reversed(boards));
            first.into_iter().chain(second).collect()
        }
    }
}

/// Round `r` (from 1 to `n − 1`, `n` the even number of places) of the single cycle.
///
/// # Panics
/// When `r` is 0 or beyond the cycle.
pub fn round(players: u32, r: u32) -> Vec<BergerBoard> {
    let n = players + players % 2;
    assert!(r >= 1 && r < n, "round {r} of a {n}-place round robin");
    let others = n - 1;
    // Places 1 … n−1 arranged on a circle; `at(k)` is the place k steps after place 1.
    let at = |steps: i64| -> u32 { (steps.rem_euclid(others as i64)) as u32 + 1 };
    let anchor = at(i64::from(r - 1) * i64::from(n / 2));
    let mut boards = Vec::with_capacity((n / 2) as usize);
    // Board 1: the highest place, Black in odd rounds, White in even ones.
    let (white, black) = if r % 2 == 1 { (anchor, n) } else { (n, anchor) };
    boards.push(board(players, white, black));
    for k in 1..n / 2 {
        let white = at(i64::from(anchor - 1) + i64::from(k));
        let black = at(i64::from(anchor - 1) - i64::from(k));
        boards.push(board(players, white, black));
    }
    boards
}

fn board(players: u32, white: u32, black: u32) -> BergerBoard {
    if white > players {
        BergerBoard::Bye(StartNo(black))
    } else if black > players {
        BergerBoard::Bye(StartNo(white))
    } else {
        BergerBoard::Game(StartNo(white), StartNo(black))
    }
}

fn reversed(boards: &[BergerBoard]) -> Vec<BergerBoard> {
    boards
        .iter()
        .map(|b| match *b {
            BergerBoard::Game(white, black) => BergerBoard::Game(black, white),
            bye => bye,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(boards: &[BergerBoard]) -> String {
        boards
            .iter()
            .map(BergerBoard::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn c05_annex_1_round_one_is_b_against_n_minus_b_plus_1() {
        for n in (4..=30).step_by(2) {
            let first = round(n, 1);
            for (i, b) in first.iter().enumerate() {
                let b_no = i as u32 + 1;
                let expected = if b_no == 1 {
                    BergerBoard::Game(StartNo(1), StartNo(n))
                } else {
                    BergerBoard::Game(StartNo(b_no), StartNo(n - b_no + 1))
                };
                assert_eq!(*b, expected, "n={n}");
            }
        }
    }

    #[test]
    fn five_players_sit_out_in_turn() {
        let table: Vec<String> = rounds(5, Cycles::Single).iter().map(|r| text(r)).collect();
        assert_eq!(table[0], "1-bye 2-5 3-4");
        assert_eq!(table.len(), 5);
    }
}
