//! The Dutch system (C.04.3) against bbpPairings: every round of the 120 random Swiss
//! tournaments in the shared data (`tournaments/dutch/tNNNN.trf`, each round bbpPairings' own
//! pairing; PROVENANCE.md there) is paired again from the rounds before it and compared with
//! the recorded round — the same boards, the same colours, the same player with the
//! pairing-allocated bye.
//!
//! Needs `ARBITER_DATA` (the shared data folder):
//! `ARBITER_DATA=/work/shared/data cargo test --profile ci -p arbiter-tournament --test dutch_oracle -- --ignored --nocapture`
//! (`--exact dutch_speed_of_every_round_of_120_tournaments` for the timings alone).
//!
//! The vectors kept in the repository (`tests/data/t0102`, `t0109`, `t0114`, three of the 120)
//! run without it.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use arbiter_tournament::dutch::{self, PairingError, RoundPairing};
use arbiter_tournament::model::{
    Bye, Colour, GameResult, Pairing, Player, RoundEntry, StartNo, Tournament,
};
use arbiter_tournament::trf;

/// A round's pairing as a set: boards as (white, black) and the player with the
/// pairing-allocated bye. Board order is not compared: the crosstable does not record it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Boards {
    boards: BTreeSet<(u32, u32)>,
    bye: Option<u32>,
}

impl Boards {
    /// The pairing recorded for `round`: games, forfeits (they were paired, with colours) and
    /// the pairing-allocated bye; announced byes and absences are not part of it.
    fn recorded(tournament: &Tournament, round: u32) -> Boards {
        let mut boards = Boards::default();
        for pairing in tournament.pairings(round) {
            match pairing {
                Pairing::Board { white, black, .. } => {
                    boards.boards.insert((white.0, black.0));
                }
                Pairing::Bye {
                    player,
                    bye: Bye::PairingAllocated,
                } => boards.bye = Some(player.0),
                Pairing::Bye { .. } => {}
            }
        }
        boards
    }

    /// The pairing made by the engine.
    fn paired(pairing: &RoundPairing) -> Boards {
        Boards {
            boards: pairing
                .boards
                .iter()
                .map(|b| (b.white.0, b.black.0))
                .collect(),
            bye: pairing.bye.map(|p| p.0),
        }
    }

    /// What differs, compactly: the boards (and bye) only one side has, `white-black`.
    fn diff(expected: &Boards, got: &Boards) -> String {
        let side = |one: &Boards, other: &Boards| {
            let mut text = String::new();
            for (white, black) in one.boards.difference(&other.boards) {
                let _ = write!(text, " {white}-{black}");
            }
            if one.bye != other.bye {
                match one.bye {
                    Some(p) => {
                        let _ = write!(text, " bye {p}");
                    }
                    None => text.push_str(" no bye"),
                }
            }
            text
        };
        format!(
            "expected{} | got{}",
            side(expected, got),
            side(got, expected)
        )
    }
}

/// The tournament as it stood before `round` was paired, as bbpPairings' checker rebuilds
/// it: rounds before `round` as they were; of `round`, the announced byes (`cut_after` keeps
/// them) and the absences — a player not paired in the recorded round (an empty entry) did
/// not take part, so is entered as absent (a zero-point bye) rather than left to be paired.
fn before_round(tournament: &Tournament, round: u32, planned_rounds: u32) -> Tournament {
    let mut cut = tournament.cut_after(round - 1);
    for (player, original) in cut.players.iter_mut().zip(&tournament.players) {
        if original.entry(round) == RoundEntry::NotPaired {
            player.set_entry(round, RoundEntry::Bye(Bye::ZeroPoint));
        }
    }
    cut.planned_rounds = Some(planned_rounds);
    cut.initial_colour = tournament.initial_colour_or_inferred();
    cut
}

/// `RoundsNumber` from a generator's configuration (`Key=value` lines, CR line ends).
fn rounds_number(cfg: &str) -> u32 {
    cfg.split(['\r', '\n'])
        .find_map(|line| line.strip_prefix("RoundsNumber="))
        .and_then(|n| n.trim().parse().ok())
        .expect("RoundsNumber in the .cfg")
}

/// Reads `NAME.trf` and the rounds number of `NAME.cfg`.
fn read_vector(trf_path: &Path) -> (Tournament, u32) {
    let read = trf::read_bytes(&std::fs::read(trf_path).unwrap());
    assert!(
        read.diagnostics.is_empty(),
        "{}: {:?}",
        trf_path.display(),
        read.diagnostics
    );
    let cfg = std::fs::read_to_string(trf_path.with_extension("cfg")).unwrap();
    (read.tournament, rounds_number(&cfg))
}

/// One tournament checked round by round.
struct Checked {
    rounds: u32,
    identical: u32,
    /// One line per round that differs: `tNNNN round R: …`.
    mismatches: Vec<String>,
    /// Time spent in `dutch::pair`.
    time: Duration,
}

/// Pairs every round of `tournament` from the rounds before it with `pair` and compares.
fn check_every_round(
    name: &str,
    tournament: &Tournament,
    planned_rounds: u32,
    pair: impl Fn(&Tournament, u32) -> Result<RoundPairing, PairingError>,
) -> Checked {
    let mut checked = Checked {
        rounds: 0,
        identical: 0,
        mismatches: Vec::new(),
        time: Duration::ZERO,
    };
    for round in 1..=tournament.rounds_paired() {
        let cut = before_round(tournament, round, planned_rounds);
        let expected = Boards::recorded(tournament, round);
        let start = Instant::now();
        let result = catch_unwind(AssertUnwindSafe(|| pair(&cut, round)));
        checked.time += start.elapsed();
        checked.rounds += 1;
        let problem = match result {
            Ok(Ok(pairing)) => {
                let got = Boards::paired(&pairing);
                (got != expected).then(|| Boards::diff(&expected, &got))
            }
            Ok(Err(e)) => Some(format!("error: {e}")),
            Err(panic) => Some(format!(
                "panicked: {}",
                panic
                    .downcast_ref::<String>()
                    .map(String::as_str)
                    .or_else(|| panic.downcast_ref::<&str>().copied())
                    .unwrap_or("?")
            )),
        };
        match problem {
            None => checked.identical += 1,
            Some(problem) => checked
                .mismatches
                .push(format!("{name} round {round}: {problem}")),
        }
    }
    checked
}

fn shared_files() -> Vec<PathBuf> {
    let data = std::env::var("ARBITER_DATA").expect(
        "ARBITER_DATA must name the shared data folder (e.g. ARBITER_DATA=/work/shared/data)",
    );
    let dir = PathBuf::from(data).join("tournaments/dutch");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "trf"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 120, "{}", dir.display());
    files
}

fn file_name(path: &Path) -> String {
    path.file_stem().unwrap().to_string_lossy().into_owned()
}

#[test]
#[ignore = "needs ARBITER_DATA (the shared test data folder)"]
fn c04_3_every_round_of_120_tournaments_equals_bbppairings() {
    let (mut rounds, mut identical, mut mismatches, mut time) = (0, 0, Vec::new(), Duration::ZERO);
    for path in shared_files() {
        let (tournament, planned_rounds) = read_vector(&path);
        let name = file_name(&path);
        let checked = check_every_round(&name, &tournament, planned_rounds, dutch::pair);
        println!(
            "{name}: {:>3} players, {}/{} rounds identical, {:.1} ms",
            tournament.players.len(),
            checked.identical,
            checked.rounds,
            checked.time.as_secs_f64() * 1e3
        );
        rounds += checked.rounds;
        identical += checked.identical;
        time += checked.time;
        mismatches.extend(checked.mismatches);
    }
    for m in mismatches.iter().take(60) {
        println!("{m}");
    }
    if mismatches.len() > 60 {
        println!("… and {} more", mismatches.len() - 60);
    }
    println!(
        "{identical}/{rounds} rounds identical; pairing took {:.3} s in all",
        time.as_secs_f64()
    );
    assert!(
        mismatches.is_empty(),
        "{} of {rounds} rounds differ from bbpPairings",
        mismatches.len()
    );
}

/// The time `dutch::pair` takes, per tournament (every round paired once), slowest first;
/// nothing compared. Run it in an optimised profile (`--profile ci` or `--release`).
#[test]
#[ignore = "needs ARBITER_DATA (the shared test data folder); a timing run"]
fn dutch_speed_of_every_round_of_120_tournaments() {
    let (mut times, mut failed) = (Vec::new(), 0);
    for path in shared_files() {
        let (tournament, planned_rounds) = read_vector(&path);
        let checked =
            check_every_round(&file_name(&path), &tournament, planned_rounds, dutch::pair);
        failed += checked.rounds - checked.identical;
        times.push((
            checked.time,
            file_name(&path),
            tournament.players.len(),
            checked.rounds,
        ));
    }
    let total: Duration = times.iter().map(|t| t.0).sum();
    let rounds: u32 = times.iter().map(|t| t.3).sum();
    times.sort_by_key(|t| std::cmp::Reverse(t.0));
    for (time, name, players, rounds) in &times {
        println!(
            "{name}: {players:>3} players, {rounds:>2} rounds: {:>9.3} ms ({:.3} ms a round)",
            time.as_secs_f64() * 1e3,
            time.as_secs_f64() * 1e3 / f64::from((*rounds).max(1))
        );
    }
    println!(
        "{rounds} rounds of {} tournaments paired in {:.3} s ({:.3} ms a round)",
        times.len(),
        total.as_secs_f64(),
        total.as_secs_f64() * 1e3 / f64::from(rounds.max(1))
    );
    if failed > 0 {
        println!("({failed} rounds differ from bbpPairings or were not paired: see the oracle)");
    }
}

// ---- Vectors in the repository --------------------------------------------------------------

fn repository_vector(name: &str) -> (Tournament, u32) {
    read_vector(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data")
            .join(format!("{name}.trf")),
    )
}

#[test]
fn c04_3_every_round_of_three_repository_vectors_equals_bbppairings() {
    for name in ["t0109", "t0114", "t0102"] {
        let (tournament, planned_rounds) = repository_vector(name);
        let checked = check_every_round(name, &tournament, planned_rounds, dutch::pair);
        assert!(checked.rounds >= 5, "{name}");
        assert!(
            checked.mismatches.is_empty(),
            "{name}: {}/{} rounds identical:\n{}",
            checked.identical,
            checked.rounds,
            checked.mismatches.join("\n")
        );
    }
}

// ---- The harness itself, checked without the engine -------------------------------------------

/// A "pairing engine" that answers with the recorded round: every round must compare equal.
fn replay(
    recorded: &Tournament,
) -> impl Fn(&Tournament, u32) -> Result<RoundPairing, PairingError> + '_ {
    move |cut, round| {
        // The cut must hold exactly the rounds before `round`, and of `round` only byes.
        assert_eq!(cut.rounds_paired(), round - 1);
        for player in &cut.players {
            assert!(!player.entry(round).is_paired());
        }
        let boards = Boards::recorded(recorded, round);
        Ok(RoundPairing {
            round,
            boards: boards
                .boards
                .iter()
                .map(|&(w, b)| dutch::Board {
                    white: StartNo(w),
                    black: StartNo(b),
                })
                .collect(),
            bye: boards.bye.map(StartNo),
            explanation: Vec::new(),
        })
    }
}

#[test]
fn harness_finds_every_recorded_round_identical_to_itself() {
    for name in ["t0109", "t0114", "t0102"] {
        let (tournament, planned_rounds) = repository_vector(name);
        let checked = check_every_round(name, &tournament, planned_rounds, replay(&tournament));
        assert_eq!(checked.rounds, planned_rounds, "{name}");
        assert_eq!(
            checked.identical, checked.rounds,
            "{:?}",
            checked.mismatches
        );
    }
}

#[test]
fn harness_reports_swapped_colours_and_a_moved_bye() {
    let (tournament, planned_rounds) = repository_vector("t0109");
    // t0109 round 1, by hand from the file: 1-5 (1 white), 6-2, 3-7, 8-4, and 9 the bye.
    let expected = Boards::recorded(&tournament, 1);
    assert_eq!(
        expected.boards,
        BTreeSet::from([(1, 5), (6, 2), (3, 7), (8, 4)])
    );
    assert_eq!(expected.bye, Some(9));
    let wrong = |cut: &Tournament, round: u32| {
        let mut pairing = replay(&tournament)(cut, round)?;
        if round == 1 {
            let first = &mut pairing.boards[0];
            std::mem::swap(&mut first.white, &mut first.black);
        }
        if round == 2 {
            pairing.bye = None;
        }
        Ok(pairing)
    };
    let checked = check_every_round("t0109", &tournament, planned_rounds, wrong);
    assert_eq!(checked.identical, checked.rounds - 2);
    assert_eq!(
        checked.mismatches[0],
        "t0109 round 1: expected 1-5 | got 5-1"
    );
    assert!(
        checked.mismatches[1].starts_with("t0109 round 2: expected bye ")
            && checked.mismatches[1].ends_with("| got no bye"),
        "{}",
        checked.mismatches[1]
    );
}

#[test]
fn cut_keeps_announced_byes_and_marks_absences() {
    // t0102 has a half-point and a zero-point bye; find them and check the cut before them.
    let (tournament, planned_rounds) = repository_vector("t0102");
    let mut seen = 0;
    for player in &tournament.players {
        for round in 1..=planned_rounds {
            if let RoundEntry::Bye(bye @ (Bye::HalfPoint | Bye::ZeroPoint)) = player.entry(round) {
                let cut = before_round(&tournament, round, planned_rounds);
                let cut_player = cut.player(player.start_no).unwrap();
                assert_eq!(cut_player.entry(round), RoundEntry::Bye(bye));
                assert_eq!(cut.rounds_paired(), round - 1);
                assert_eq!(cut.planned_rounds, Some(planned_rounds));
                seen += 1;
            }
        }
    }
    assert_eq!(seen, 2);
    // A player with nothing in the round to pair (withdrawn, absent) is not paired.
    let mut t = Tournament::default();
    let mut a = Player::new(1, "A");
    let mut b = Player::new(2, "B");
    let game = |opponent, colour| RoundEntry::Game {
        opponent: StartNo(opponent),
        colour,
        result: GameResult::Draw,
        rated: true,
    };
    a.set_entry(1, game(2, Colour::Black));
    b.set_entry(1, game(1, Colour::White));
    b.set_entry(2, RoundEntry::Bye(Bye::PairingAllocated));
    t.players = vec![a, b];
    let cut = before_round(&t, 2, 3);
    assert_eq!(
        cut.players[0].entry(2),
        RoundEntry::Bye(Bye::ZeroPoint),
        "absent"
    );
    assert_eq!(cut.players[1].entry(2), RoundEntry::NotPaired, "to pair");
    // Player 1 had black in round 1.
    assert_eq!(cut.initial_colour, Some(Colour::Black));
}

#[test]
fn initial_colour_is_found_as_bbppairings_finds_it() {
    let game = |opponent, colour| RoundEntry::Game {
        opponent: StartNo(opponent),
        colour,
        result: GameResult::Win,
        rated: true,
    };
    let mut t = Tournament::default();
    let mut players: Vec<Player> = (1..=4).map(|n| Player::new(n, "P")).collect();
    // Player 1 absent in round 1 (a half-point bye): not part of round 1's pairing.
    players[0].set_entry(1, RoundEntry::Bye(Bye::HalfPoint));
    // Player 2 the pairing-allocated bye: took part, but without a colour.
    players[1].set_entry(1, RoundEntry::Bye(Bye::PairingAllocated));
    // Player 3 white: the top colour is its reverse.
    players[2].set_entry(1, game(4, Colour::White));
    players[3].set_entry(1, game(3, Colour::Black));
    t.players = players;
    assert_eq!(t.initial_colour_or_inferred(), Some(Colour::Black));
    t.players[1].set_entry(1, RoundEntry::Bye(Bye::HalfPoint));
    assert_eq!(t.initial_colour_or_inferred(), Some(Colour::White));
    assert_eq!(Tournament::default().initial_colour_or_inferred(), None);
}

#[test]
fn rounds_number_is_read_from_a_generator_configuration() {
    assert_eq!(
        rounds_number("PlayersNumber=9\rRoundsNumber=7\rDrawPercentage=33\r"),
        7
    );
}
