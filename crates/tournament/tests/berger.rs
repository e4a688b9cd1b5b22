//! Berger tables (C.05 Annex 1): the published tables for small numbers of players, and the
//! facts that make a round robin one, for 3 to 30 players.

use std::collections::HashMap;

use arbiter_tournament::berger::{round, rounds, BergerBoard, Cycles};
use arbiter_tournament::model::StartNo;

/// A round as the Handbook prints it: `1-4 2-3`, White first, board 1 first.
fn text(boards: &[BergerBoard]) -> String {
    boards
        .iter()
        .map(BergerBoard::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

fn table(players: u32) -> Vec<String> {
    rounds(players, Cycles::Single)
        .iter()
        .map(|r| text(r))
        .collect()
}

/// C.05 Annex 1, the tables for 3 or 4 players and for 5 or 6 players, as printed in the FIDE
/// Handbook (and in every arbiter's manual since Berger's 1895 tables).
#[test]
fn c05_annex_1_tables_for_four_and_six_players() {
    assert_eq!(table(4), ["1-4 2-3", "4-3 1-2", "2-4 3-1"]);
    assert_eq!(
        table(6),
        [
            "1-6 2-5 3-4",
            "6-4 5-3 1-2",
            "2-6 3-1 4-5",
            "6-5 1-4 2-3",
            "3-6 4-2 5-1",
        ]
    );
}

/// C.05 Annex 1, the table for 7 or 8 players.
#[test]
fn c05_annex_1_table_for_eight_players() {
    assert_eq!(
        table(8),
        [
            "1-8 2-7 3-6 4-5",
            "8-5 6-4 7-3 1-2",
            "2-8 3-1 4-7 5-6",
            "8-6 7-5 1-4 2-3",
            "3-8 4-2 5-1 6-7",
            "8-7 1-6 2-5 3-4",
            "4-8 5-3 6-2 7-1",
        ]
    );
}

/// With an odd number the highest number of the even table is the bye (C.05 Annex 1).
#[test]
fn c05_annex_1_odd_numbers_use_the_next_table_with_a_bye() {
    assert_eq!(table(3), ["1-bye 2-3", "3-bye 1-2", "2-bye 3-1"]);
    assert_eq!(table(7)[0], "1-bye 2-7 3-6 4-5");
}

/// Every pair meets exactly once per cycle, nobody is on two boards of a round, everyone sits
/// out exactly once when the number is odd, and colours alternate as evenly as they can: over
/// the cycle every player has as many Whites as Blacks, or one more of either.
#[test]
fn c05_every_pair_meets_once_with_balanced_colours_for_3_to_30_players() {
    for players in 3..=30u32 {
        let cycle = rounds(players, Cycles::Single);
        let n = players + players % 2;
        assert_eq!(cycle.len() as u32, n - 1, "{players}");
        let mut met: HashMap<(u32, u32), u32> = HashMap::new();
        let mut whites = vec![0i32; players as usize + 1];
        let mut byes = vec![0u32; players as usize + 1];
        for (r, boards) in cycle.iter().enumerate() {
            let mut seen = vec![false; players as usize + 1];
            for board in boards {
                let on_board: Vec<StartNo> = match *board {
                    BergerBoard::Game(w, b) => {
                        *met.entry((w.0.min(b.0), w.0.max(b.0))).or_default() += 1;
                        whites[w.0 as usize] += 1;
                        whites[b.0 as usize] -= 1;
                        vec![w, b]
                    }
                    BergerBoard::Bye(p) => {
                        byes[p.0 as usize] += 1;
                        vec![p]
                    }
                };
                for p in on_board {
                    assert!((1..=players).contains(&p.0));
                    assert!(
                        !seen[p.0 as usize],
                        "{players} players, round {}: {p} twice",
                        r + 1
                    );
                    seen[p.0 as usize] = true;
                }
            }
            assert!(seen[1..].iter().all(|&s| s), "{players}: someone missing");
        }
        assert_eq!(met.len() as u32, players * (players - 1) / 2, "{players}");
        assert!(met.values().all(|&k| k == 1), "{players}");
        for p in 1..=players as usize {
            assert!(
                whites[p].abs() <= 1,
                "{players} players: {p} has colour balance {}",
                whites[p]
            );
            assert_eq!(byes[p], players % 2, "{players} players: byes of {p}");
        }
    }
}

/// A double round robin: the second cycle repeats the first with colours reversed, so every
/// pair meets twice with each colour once; the last two rounds of the first cycle are swapped
/// (C.05 Annex 1), so that nobody gets the same colour three times running where the cycles
/// meet.
#[test]
fn c05_double_round_robin_reverses_colours_and_swaps_the_last_two_rounds() {
    for players in 3..=30u32 {
        let single = rounds(players, Cycles::Single);
        let double = rounds(players, Cycles::Double);
        let m = single.len();
        assert_eq!(double.len(), 2 * m);
        // First cycle: as the single one, its last two rounds swapped.
        for (r, played) in double[..m].iter().enumerate() {
            let from = match r {
                _ if m >= 2 && r == m - 2 => m - 1,
                _ if m >= 2 && r == m - 1 => m - 2,
                _ => r,
            };
            assert_eq!(*played, single[from], "{players}: round {}", r + 1);
        }
        let mut colours_of_pair: HashMap<(u32, u32), u32> = HashMap::new();
        for boards in &double {
            for board in boards {
                if let BergerBoard::Game(w, b) = *board {
                    *colours_of_pair.entry((w.0, b.0)).or_default() += 1;
                }
            }
        }
        assert_eq!(
            colours_of_pair.len() as u32,
            players * (players - 1),
            "{players}"
        );
        assert!(colours_of_pair.values().all(|&k| k == 1), "{players}");
        // Around the junction of the cycles, nobody has one colour three rounds running.
        let colour = |r: usize, p: u32| {
            double[r].iter().find_map(|board| match *board {
                BergerBoard::Game(w, _) if w.0 == p => Some('w'),
                BergerBoard::Game(_, b) if b.0 == p => Some('b'),
                _ => None,
            })
        };
        if m >= 2 {
            for p in 1..=players {
                let run: Vec<Option<char>> = (m - 2..m + 1).map(|r| colour(r, p)).collect();
                let same = run.iter().all(|c| c.is_some() && *c == run[0]);
                assert!(!same, "{players} players: {p} has {run:?} at the junction");
            }
        }
    }
}

#[test]
fn berger_round_numbers_are_checked() {
    assert!(std::panic::catch_unwind(|| round(4, 0)).is_err());
    assert!(std::panic::catch_unwind(|| round(4, 4)).is_err());
    assert!(rounds(1, Cycles::Double).is_empty());
}
