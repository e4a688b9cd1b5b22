//! Pairs one round of a TRF file by the Dutch system and prints the boards and the time taken:
//! `cargo run --release -p arbiter-tournament --example pair_round -- FILE.trf ROUND PLANNED`
//! (rounds after `ROUND - 1` are ignored, as if the file stopped there).

use std::time::Instant;

use arbiter_tournament::{dutch, trf};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, file, round, planned] = &args[..] else {
        eprintln!("usage: pair_round FILE.trf ROUND PLANNED_ROUNDS");
        std::process::exit(2);
    };
    let round: u32 = round.parse().expect("ROUND");
    let bytes = std::fs::read(file).expect("readable file");
    let mut tournament = trf::read_bytes(&bytes).tournament;
    tournament = tournament.cut_after(round - 1);
    tournament.planned_rounds = Some(planned.parse().expect("PLANNED_ROUNDS"));
    let started = Instant::now();
    let pairing = dutch::pair(&tournament, round).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(1)
    });
    let took = started.elapsed();
    println!(
        "{}",
        pairing.boards.len() + usize::from(pairing.bye.is_some())
    );
    for board in &pairing.boards {
        println!("{} {}", board.white, board.black);
    }
    if let Some(bye) = pairing.bye {
        println!("{bye} 0");
    }
    eprintln!("paired in {:.3} s", took.as_secs_f64());
}
