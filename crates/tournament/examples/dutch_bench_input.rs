//! Inputs for the Dutch pairing benchmark (`scripts/bench-dutch.sh`), without bbpPairings:
//!
//! - `generate PLAYERS ROUNDS SEED [PLAYED]`: a random Swiss tournament of PLAYERS players
//!   (ratings 1000-2700), every round paired by our Dutch engine, results drawn from the
//!   ratings (a third of the games drawn), with forfeits, half-point byes and withdrawals now
//!   and then; PLAYED rounds played (all of them by default), `XXR ROUNDS`, `XXC white1`.
//! - `cut FILE.trf ROUND`: the file as it stood before ROUND was paired (rounds before it,
//!   the byes announced for it; points computed), with `XXR` (the file's, else its rounds) and
//!   `XXC` (the file's, else player 1's colour in round 1) — an input for `-p` of
//!   `arbiter pair --dutch` and of bbpPairings.
//!
//! The TRF goes to standard output:
//! `cargo run --release -p arbiter-tournament --example dutch_bench_input -- generate 150 9 7 > t.trf`

use arbiter_tournament::dutch;
use arbiter_tournament::model::{Bye, Colour, GameResult, Player, RoundEntry, Tournament};
use arbiter_tournament::trf;

/// SplitMix64: a small, fixed generator, so that a seed gives the same tournament anywhere.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn usage() -> ! {
    eprintln!(
        "usage: dutch_bench_input generate PLAYERS ROUNDS SEED [PLAYED]\n       dutch_bench_input cut FILE.trf ROUND"
    );
    std::process::exit(2)
}

fn number(text: &str) -> u32 {
    text.parse().unwrap_or_else(|_| usage())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let tournament = match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["generate", players, rounds, seed] => {
            let rounds = number(rounds);
            generate(number(players), rounds, u64::from(number(seed)), rounds)
        }
        ["generate", players, rounds, seed, played] => generate(
            number(players),
            number(rounds),
            u64::from(number(seed)),
            number(played),
        ),
        ["cut", file, round] => cut(file, number(round)),
        _ => usage(),
    };
    print!("{}", trf::write(&tournament));
}

/// A random tournament, every round paired by `dutch::pair`.
fn generate(players: u32, rounds: u32, seed: u64, played: u32) -> Tournament {
    let mut random = Random(seed);
    let mut ratings: Vec<u16> = (0..players)
        .map(|_| 1000 + (random.unit() * 1700.0) as u16)
        .collect();
    ratings.sort_unstable_by(|a, b| b.cmp(a));
    let mut tournament = Tournament {
        name: format!("Random Swiss, {players} players, seed {seed}"),
        system: "FIDE_DUTCH_2025".into(),
        planned_rounds: Some(rounds),
        initial_colour: Some(Colour::White),
        players: ratings
            .iter()
            .enumerate()
            .map(|(i, &rating)| {
                let mut player = Player::new(i as u32 + 1, format!("Player {:04}", i + 1));
                player.rating = Some(rating);
                player
            })
            .collect(),
        ..Tournament::default()
    };
    let mut withdrawn = vec![false; players as usize];
    for round in 1..=played.min(rounds) {
        // Before the pairing: withdrawals (1 in 200 a round) and half-point byes (1 in 100,
        // not in the last two rounds, as competitions usually rule).
        for (i, player) in tournament.players.iter_mut().enumerate() {
            if !withdrawn[i] && random.unit() < 0.005 {
                withdrawn[i] = true;
            }
            if withdrawn[i] {
                player.set_entry(round, RoundEntry::Bye(Bye::ZeroPoint));
            } else if round + 2 <= rounds && random.unit() < 0.01 {
                player.set_entry(round, RoundEntry::Bye(Bye::HalfPoint));
            }
        }
        let pairing = dutch::pair(&tournament, round).unwrap_or_else(|e| {
            eprintln!("round {round}: {e}");
            std::process::exit(1)
        });
        for board in &pairing.boards {
            let rating = |p: arbiter_tournament::model::StartNo| {
                f64::from(tournament.player(p).and_then(|p| p.rating).unwrap_or(1000))
            };
            let expected =
                1.0 / (1.0 + 10f64.powf((rating(board.black) - rating(board.white)) / 400.0));
            let (white, black) = if random.unit() < 0.01 {
                // A forfeit: one of the two did not come.
                let white_came = random.unit() < 0.5;
                let forfeit = |opponent, colour, won| RoundEntry::Forfeit {
                    opponent,
                    colour: Some(colour),
                    won,
                };
                (
                    forfeit(board.black, Colour::White, white_came),
                    forfeit(board.white, Colour::Black, !white_came),
                )
            } else {
                let draw = random.unit() < 1.0 / 3.0;
                let result = if draw {
                    GameResult::Draw
                } else if random.unit() < expected {
                    GameResult::Win
                } else {
                    GameResult::Loss
                };
                let game = |opponent, colour, result| RoundEntry::Game {
                    opponent,
                    colour,
                    result,
                    rated: true,
                };
                (
                    game(board.black, Colour::White, result),
                    game(board.white, Colour::Black, result.reversed()),
                )
            };
            tournament
                .player_mut(board.white)
                .expect("paired players exist")
                .set_entry(round, white);
            tournament
                .player_mut(board.black)
                .expect("paired players exist")
                .set_entry(round, black);
        }
        if let Some(bye) = pairing.bye {
            tournament
                .player_mut(bye)
                .expect("the bye's player exists")
                .set_entry(round, RoundEntry::Bye(Bye::PairingAllocated));
        }
    }
    tournament
}

/// The file as it stood before `round` was paired, ready for a pairing program.
fn cut(file: &str, round: u32) -> Tournament {
    let bytes = std::fs::read(file).unwrap_or_else(|e| {
        eprintln!("{file}: {e}");
        std::process::exit(1)
    });
    let read = trf::read_bytes(&bytes);
    if read.has_errors() {
        for d in &read.diagnostics {
            eprintln!("{file}: {d}");
        }
        std::process::exit(1)
    }
    let full = read.tournament;
    let mut cut = full.cut_after(round.max(1) - 1);
    cut.planned_rounds = full.planned_rounds.or(Some(full.rounds_paired()));
    cut.initial_colour = full.initial_colour.or_else(|| {
        full.players
            .first()
            .and_then(|p| p.entry(1).colour())
            .or(Some(Colour::White))
    });
    cut
}
