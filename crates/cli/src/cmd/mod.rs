//! One module per subcommand.

pub mod analyse;
pub mod bench;
pub mod dead;
pub mod inspect;
pub mod pair;
pub mod pair_dutch;
pub mod perft;
pub mod pgn;
pub mod serve;
pub mod standings;
pub mod uci;

use anyhow::{anyhow, Result};
use arbiter_rules::{CastlingMode, History, Position};

/// Reads the starting position (`--fen`, or the standard start) in the given castling mode.
pub fn start_position(fen: Option<&str>, chess960: bool) -> Result<Position> {
    let mode = if chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    match fen {
        None => {
            let mut pos = Position::new();
            pos.set_mode(mode);
            Ok(pos)
        }
        Some(fen) => Position::from_fen(fen, mode).map_err(|e| anyhow!("bad FEN: {e}")),
    }
}

/// Plays space-separated UCI moves from `start`, naming the first illegal one.
pub fn play_uci_moves(start: Position, moves: Option<&str>) -> Result<History> {
    let mut history = History::new(start);
    for (i, text) in moves.unwrap_or("").split_whitespace().enumerate() {
        let m = history
            .position()
            .parse_uci(text)
            .map_err(|e| anyhow!("move {} ({text}): {e}", i + 1))?;
        history.push_unchecked(m);
    }
    Ok(history)
}
