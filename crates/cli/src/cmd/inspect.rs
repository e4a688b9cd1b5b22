//! `arbiter inspect [--fen FEN] [--moves "UCI …"] [--chess960] [--lang LANG] --json`

use anyhow::{anyhow, Result};
use arbiter_rules::dead::{can_checkmate, Mode, Verdict};
use arbiter_rules::{Color, Lang};
use clap::Parser;
use serde_json::json;
use std::process::ExitCode;

/// Arguments of `arbiter inspect`.
#[derive(Parser)]
pub struct Args {
    /// Start from this FEN instead of the standard starting position.
    #[arg(long)]
    fen: Option<String>,
    /// Moves to play first, in UCI notation, separated by spaces.
    #[arg(long)]
    moves: Option<String>,
    /// Chess960: X-FEN/Shredder-FEN castling fields, castling written king-takes-rook.
    #[arg(long)]
    chess960: bool,
    /// Language of the SAN in `legal_moves` (en, cs, sk, de, fr, es, it, nl, pl, ru, pt, hu, sv, figurine).
    #[arg(long, default_value = "en")]
    lang: String,
    /// Print JSON (the only output format for now).
    #[arg(long)]
    json: bool,
}

/// Runs the command.
pub fn run(args: Args) -> Result<ExitCode> {
    let lang: Lang = args.lang.parse().map_err(|e| anyhow!("{e}"))?;
    let start = super::start_position(args.fen.as_deref(), args.chess960)?;
    let history = super::play_uci_moves(start, args.moves.as_deref())?;
    let pos = history.position();
    let mut legal: Vec<(String, String)> = pos
        .legal_moves()
        .iter()
        .map(|&m| (pos.uci(m), pos.san_lang(m, lang)))
        .collect();
    legal.sort();
    let outcome = history
        .outcome()
        .map(|o| json!({"result": o.result(), "termination": o.termination.name()}));
    // Art. 5.2.2: dead position, decided by the full analysis (a ruling, not a hot loop).
    let white = can_checkmate(pos, Color::White, Mode::Full);
    let black = can_checkmate(pos, Color::Black, Mode::Full);
    let dead = match (&white, &black) {
        (Verdict::No, Verdict::No) => Some(true),
        (Verdict::Yes(_), _) | (_, Verdict::Yes(_)) => Some(false),
        _ => None,
    };
    let out = json!({
        "fen": pos.fen(),
        "turn": pos.turn().name(),
        "check": pos.is_check(),
        "legal_moves": legal.iter().map(|(u, s)| json!({"uci": u, "san": s})).collect::<Vec<_>>(),
        "outcome": outcome,
        "claimable": {
            "threefold": history.can_claim_threefold(),
            "fifty_moves": history.can_claim_fifty_moves(),
        },
        "insufficient_material": {
            "white": pos.has_insufficient_material(Color::White),
            "black": pos.has_insufficient_material(Color::Black),
        },
        "dead": dead,
        "can_checkmate": {"white": white.name(), "black": black.name()},
    });
    println!("{out}");
    Ok(ExitCode::SUCCESS)
}
