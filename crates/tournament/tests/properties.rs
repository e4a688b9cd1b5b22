//! Properties over random tournaments: consistent crosstables survive TRF unchanged, and the
//! tie-breaks keep the relations C.07 implies (a cut never adds, wins with Black never exceed
//! games with Black, the standings are ordered).

use arbiter_tournament::berger::{self, BergerBoard, Cycles};
use arbiter_tournament::model::{
    Bye, Colour, GameResult, Player, RoundEntry, ScoringSystem, StartNo, Tournament,
};
use arbiter_tournament::tiebreak::{standings, Rules, StandingsConfig, TieBreak};
use arbiter_tournament::trf;
use proptest::prelude::*;

/// What happens on a board, chosen at random.
#[derive(Clone, Copy, Debug)]
enum Outcome {
    Played(GameResult, bool),
    Forfeit {
        white_won: bool,
    },
    DoubleForfeit,
    /// Neither plays: one takes a half-point bye, the other a zero-point bye.
    Byes,
}

fn outcome() -> impl Strategy<Value = Outcome> {
    prop_oneof![
        8 => (prop_oneof![Just(GameResult::Win), Just(GameResult::Draw), Just(GameResult::Loss)], any::<bool>())
            .prop_map(|(r, rated)| Outcome::Played(r, rated)),
        1 => any::<bool>().prop_map(|white_won| Outcome::Forfeit { white_won }),
        1 => Just(Outcome::DoubleForfeit),
        1 => Just(Outcome::Byes),
    ]
}

/// A tournament whose pairings come from the Berger tables (so they are consistent), with
/// random results, the first `rounds` rounds of it.
fn tournament() -> impl Strategy<Value = Tournament> {
    (3u32..12, 1usize..8, any::<bool>()).prop_flat_map(|(players, rounds, rated)| {
        let table = berger::rounds(players, Cycles::Double);
        let rounds = rounds.min(table.len());
        let boards: usize = table[..rounds].iter().map(|r| r.len()).sum();
        proptest::collection::vec(outcome(), boards).prop_map(move |outcomes| {
            let mut t = Tournament {
                name: "Random".into(),
                system: "FIDE_DUTCH_2025".into(),
                players: (1..=players)
                    .map(|n| Player {
                        rating: rated.then_some(1400 + 37 * n as u16),
                        ..Player::new(n, format!("Player {n}"))
                    })
                    .collect(),
                ..Tournament::default()
            };
            let mut outcomes = outcomes.into_iter();
            for (r, boards) in table[..rounds].iter().enumerate() {
                let round = r as u32 + 1;
                for board in boards {
                    let outcome = outcomes.next().unwrap();
                    match *board {
                        BergerBoard::Bye(p) => {
                            set(&mut t, p, round, RoundEntry::Bye(Bye::PairingAllocated))
                        }
                        BergerBoard::Game(white, black) => {
                            let (w, b) = entries(white, black, outcome);
                            set(&mut t, white, round, w);
                            set(&mut t, black, round, b);
                        }
                    }
                }
            }
            t
        })
    })
}

fn set(t: &mut Tournament, player: StartNo, round: u32, entry: RoundEntry) {
    t.player_mut(player).unwrap().set_entry(round, entry);
}

fn entries(white: StartNo, black: StartNo, outcome: Outcome) -> (RoundEntry, RoundEntry) {
    let forfeit = |opponent, colour, won| RoundEntry::Forfeit {
        opponent,
        colour: Some(colour),
        won,
    };
    match outcome {
        Outcome::Played(result, rated) => (
            RoundEntry::Game {
                opponent: black,
                colour: Colour::White,
                result,
                rated,
            },
            RoundEntry::Game {
                opponent: white,
                colour: Colour::Black,
                result: result.reversed(),
                rated,
            },
        ),
        Outcome::Forfeit { white_won } => (
            forfeit(black, Colour::White, white_won),
            forfeit(white, Colour::Black, !white_won),
        ),
        Outcome::DoubleForfeit => (
            forfeit(black, Colour::White, false),
            forfeit(white, Colour::Black, false),
        ),
        Outcome::Byes => (
            RoundEntry::Bye(Bye::HalfPoint),
            RoundEntry::Bye(Bye::ZeroPoint),
        ),
    }
}

fn without_reported(mut t: Tournament) -> Tournament {
    for p in &mut t.players {
        p.reported_points = None;
        p.reported_rank = None;
    }
    t
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn consistent_tournaments_survive_trf(t in tournament()) {
        prop_assert!(t.check().is_empty(), "{:?}", t.check());
        let text = trf::write(&t);
        let read = trf::read(&text);
        prop_assert!(read.diagnostics.is_empty(), "{:?}\n{}", read.diagnostics, text);
        prop_assert_eq!(without_reported(read.tournament.clone()), t.clone());
        // The points written are the points computed.
        let rounds = t.rounds_played();
        for p in &read.tournament.players {
            prop_assert_eq!(p.reported_points, Some(t.points_after(t.player(p.start_no).unwrap(), rounds)));
        }
    }

    #[test]
    fn tie_breaks_keep_their_relations(t in tournament(), rules in prop_oneof![Just(Rules::Fide2024), Just(Rules::Fide2026)], three in any::<bool>()) {
        let mut t = t;
        if three {
            t.scoring = ScoringSystem::three_one_zero();
        }
        let config = StandingsConfig { rules, ..StandingsConfig::default() };
        let table = standings(&t, &config);
        let column = |tb: &str| table.tie_breaks.iter().position(|x| *x == tb.parse::<TieBreak>().unwrap()).unwrap();
        let (bh, c1, c2, m1) = (column("BH"), column("BH/C1"), column("BH/C2"), column("BH/M1"));
        let (win, won, bpg, bwg, ge) = (column("WIN"), column("WON"), column("BPG"), column("BWG"), column("GE"));
        let rounds = i64::from(t.rounds_paired());
        for row in &table.rows {
            let v = |c: usize| row.values[c].unwrap();
            prop_assert!(v(c1) <= v(bh) && v(c2) <= v(c1) && v(m1) <= v(c1));
            prop_assert!(v(won) <= v(win));
            prop_assert!(v(bwg) <= v(bpg) && v(bwg) <= v(won));
            prop_assert!(v(ge).ten_thousandths() <= rounds * 10_000);
        }
        for pair in table.rows.windows(2) {
            prop_assert!(pair[0].rank <= pair[1].rank);
            prop_assert!(pair[0].points >= pair[1].points);
        }
        prop_assert_eq!(table.rows.len(), t.players.len());
    }
}
