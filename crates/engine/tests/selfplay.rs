//! Self-play at fast limits: every move the engine chooses is legal (checked by
//! `History::push`, which refuses illegal moves), and games end by the Laws.

use arbiter_engine::{Engine, Level, Limits};
use arbiter_rules::{History, Position};

/// Plays `games` games with `nodes` nodes per move; returns the number of plies played.
fn self_play(games: u64, nodes: u64) -> u64 {
    let mut plies = 0;
    for g in 0..games {
        let mut white = Engine::with_hash(1);
        let mut black = Engine::with_hash(1);
        // Vary the levels (and so the randomness) so that games differ.
        white.set_level(Level::new(1 + (g % 8) as u8).unwrap());
        black.set_level(Level::new(1 + ((g / 8) % 8) as u8).unwrap());
        white.set_seed(Some(g));
        black.set_seed(Some(g.wrapping_mul(7919)));
        let start = if g % 5 == 4 {
            Position::chess960((g * 37 % 960) as u16).unwrap()
        } else {
            Position::new()
        };
        let mut game = History::new(start);
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        while game.outcome().is_none()
            && !game.is_threefold_repetition()
            && !game.is_fifty_moves()
            && game.moves().len() < 300
        {
            let engine = if game.position().turn().is_white() {
                &mut white
            } else {
                &mut black
            };
            let m = engine
                .best_move(&game, &limits)
                .expect("a position that is not over has a move");
            game.push(m)
                .unwrap_or_else(|e| panic!("game {g}: illegal {e} in {}", game.position().fen()));
            plies += 1;
        }
    }
    plies
}

#[test]
fn self_play_games_have_only_legal_moves() {
    assert!(self_play(40, 150) > 40 * 20);
}

/// Thousands of games (run with `cargo test --release -- --ignored`).
#[test]
#[ignore = "slow: thousands of games"]
fn self_play_two_thousand_games_have_only_legal_moves() {
    assert!(self_play(2000, 150) > 2000 * 20);
}
