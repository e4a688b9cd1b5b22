//! The operations the browser calls, as plain Rust over strings: each takes its arguments as
//! lines of text and answers JSON (or an error message). `ffi` passes them through linear
//! memory; the tests call them directly.

use crate::json;
use arbiter_engine::{bench, Engine, Info, Limits, Score};
use arbiter_rules::{CastlingMode, Color, Lang, Move, Position, Square};
use std::sync::atomic::AtomicBool;

/// The `n`th line of the arguments ("" if absent).
fn arg(args: &str, n: usize) -> &str {
    args.split('\n').nth(n).unwrap_or("").trim()
}

/// `chess960` or `standard` (the default). Chess960 mode reads X-FEN and Shredder-FEN
/// castling fields (Guideline II); standard mode insists on the standard castling rooks.
fn mode(s: &str) -> CastlingMode {
    if s == "chess960" {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    }
}

fn read_position(fen: &str, mode: CastlingMode) -> Result<Position, String> {
    let fen = fen.split_whitespace().collect::<Vec<_>>().join(" ");
    Position::from_fen(&fen, mode).map_err(|e| e.to_string())
}

fn color_name(c: Color) -> &'static str {
    c.fold("white", "black")
}

/// Everything the page asks of one position, in one answer.
fn describe(pos: &Position) -> String {
    let board: String = Square::all()
        .map(|sq| pos.board().piece_at(sq).map_or('.', |p| p.char()))
        .collect();
    let outcome = match pos.outcome() {
        Some(o) => format!(
            "{{\"result\":{},\"termination\":{}}}",
            json::string(o.result()),
            json::string(o.termination.name())
        ),
        None => "null".to_string(),
    };
    format!(
        "{{\"fen\":{},\"turn\":\"{}\",\"board\":{},\"check\":{},\"checkmate\":{},\"stalemate\":{},\
         \"insufficient\":{{\"white\":{},\"black\":{}}},\"outcome\":{},\"halfmoves\":{},\
         \"fullmoves\":{},\"key\":{},\"legal\":{}}}",
        json::string(&pos.fen()),
        color_name(pos.turn()),
        json::string(&board),
        pos.is_check(),
        pos.is_checkmate(),
        pos.is_stalemate(),
        pos.has_insufficient_material(Color::White),
        pos.has_insufficient_material(Color::Black),
        outcome,
        pos.halfmoves(),
        pos.fullmoves(),
        // Art. 9.2.2: the EPD writes the en passant square only when the capture is legal,
        // so equal keys are the "same position" of the repetition rule.
        json::string(&pos.epd()),
        pos.count_legal_moves(),
    )
}

/// One move as `{"u": king-takes-rook UCI, "c": e1g1 form of standard castling, "s": SAN}`.
fn move_json(pos: &Position, m: Move) -> String {
    let u = pos.uci_with(m, CastlingMode::Chess960).to_string();
    let c = pos.uci_with(m, CastlingMode::Standard).to_string();
    let c = if c != u {
        format!(",\"c\":{}", json::string(&c))
    } else {
        String::new()
    };
    format!(
        "{{\"u\":{}{c},\"s\":{}}}",
        json::string(&u),
        json::string(&pos.san(m))
    )
}

/// `fen`, `mode` → the position described, or why the FEN is not a legal position (the field
/// or the fault, as `arbiter-rules` names it).
pub fn position(args: &str) -> Result<String, String> {
    let pos = read_position(arg(args, 0), mode(arg(args, 1)))?;
    Ok(describe(&pos))
}

/// `fen`, `mode` → the legal moves: `[{"u","c"?,"s"}]` in generation order.
pub fn moves(args: &str) -> Result<String, String> {
    let pos = read_position(arg(args, 0), mode(arg(args, 1)))?;
    let parts: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|&m| move_json(&pos, m))
        .collect();
    Ok(format!("[{}]", parts.join(",")))
}

/// `fen`, `mode`, `uci` (either castling form) → `{"move": {"u","c"?,"s"}, "after": position}`.
pub fn play(args: &str) -> Result<String, String> {
    let pos = read_position(arg(args, 0), mode(arg(args, 1)))?;
    let m = pos.parse_uci(arg(args, 2)).map_err(|e| e.to_string())?;
    let mv = move_json(&pos, m);
    let after = pos.play(m).map_err(|e| e.to_string())?;
    Ok(format!("{{\"move\":{mv},\"after\":{}}}", describe(&after)))
}

/// `fen`, `mode`, `san`, `lang` (`en`, `cs`, `de`, … as `arbiter-rules` reads them; English
/// when empty) → the move `{"u","c"?,"s"}`, or why the SAN is not a legal move here.
pub fn san(args: &str) -> Result<String, String> {
    let pos = read_position(arg(args, 0), mode(arg(args, 1)))?;
    let lang: Lang = match arg(args, 3) {
        "" => Lang::English,
        l => l.parse().map_err(|e| format!("{e}"))?,
    };
    let m = pos
        .parse_san_lang(arg(args, 2), lang)
        .map_err(|e| e.to_string())?;
    Ok(move_json(&pos, m))
}

/// `fen`, `mode`, `depth` → `{"nodes": N}`, the leaf nodes of the legal move tree.
pub fn perft(args: &str) -> Result<String, String> {
    let pos = read_position(arg(args, 0), mode(arg(args, 1)))?;
    let depth: u32 = arg(args, 2)
        .parse()
        .map_err(|_| format!("bad depth {:?}", arg(args, 2)))?;
    Ok(format!("{{\"nodes\":{}}}", pos.perft(depth)))
}

/// A score from White's point of view.
fn white_score(score: Score, turn: Color) -> String {
    let sign = turn.fold(1, -1);
    match score {
        Score::Cp(cp) => format!("{{\"cp\":{}}}", sign * cp),
        Score::Mate(n) => format!("{{\"mate\":{}}}", sign * n),
    }
}

fn line_json(root: &Position, info: &Info, mode: CastlingMode) -> String {
    let mut pos = *root;
    let mut ucis = Vec::with_capacity(info.pv.len());
    let mut sans = Vec::with_capacity(info.pv.len());
    for &m in &info.pv {
        if !pos.is_legal(m) {
            break; // a PV is legal; this only guards the page against a surprise
        }
        ucis.push(pos.uci_with(m, mode).to_string());
        sans.push(pos.san(m));
        pos.play_unchecked(m);
    }
    format!(
        "{{\"multipv\":{},\"depth\":{},\"score\":{},\"pv\":{},\"san\":{}}}",
        info.multipv,
        info.depth,
        white_score(info.score, root.turn()),
        json::strings(&ucis),
        json::strings(&sans)
    )
}

/// `fen`, `mode`, `max depth` (0 or empty: no limit), `lines` (multi-PV), `hash MB` → the
/// search's end `{"depth","nodes","ms","best"}`. `report` gets every completed iteration as
/// `{"depth","lines":[{"multipv","depth","score","pv","san"}],"nodes","ms"}`, its lines best
/// first, scores from White's point of view.
pub fn search(args: &str, report: &mut dyn FnMut(&str)) -> Result<String, String> {
    search_with(&mut Engine::with_hash(hash_mb(args)), args, report)
}

/// The transposition table size asked for by the arguments of [`search`], in MB.
pub fn hash_mb(args: &str) -> usize {
    arg(args, 4).parse().unwrap_or(16).clamp(1, 256)
}

/// [`search`] with an engine kept between searches (its table already allocated: the
/// browser's worker keeps one, so that a search starts without clearing megabytes first).
pub fn search_with(
    engine: &mut Engine,
    args: &str,
    report: &mut dyn FnMut(&str),
) -> Result<String, String> {
    let chess960 = mode(arg(args, 1));
    let pos = read_position(arg(args, 0), chess960)?;
    let depth: u32 = arg(args, 2).parse().unwrap_or(0);
    let lines: usize = arg(args, 3).parse().unwrap_or(1).clamp(1, 5);
    let expected = lines.min(pos.count_legal_moves());
    engine.set_hash_mb(hash_mb(args));
    engine.set_seed(Some(0));
    let limits = Limits {
        depth: (depth > 0).then_some(depth),
        multi_pv: lines,
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    // The engine reports each line of an iteration separately; the page wants the iteration.
    let mut pending: Vec<String> = Vec::new();
    let result = engine.search(&pos, &[], &limits, &stop, &mut |info: &Info| {
        pending.push(line_json(&pos, info, chess960));
        if pending.len() >= expected {
            report(&format!(
                "{{\"depth\":{},\"lines\":[{}],\"nodes\":{},\"ms\":{}}}",
                info.depth,
                pending.join(","),
                info.nodes,
                info.time.as_secs_f64() * 1000.0
            ));
            pending.clear();
        }
    });
    let best = match result.best {
        Some(m) => json::string(&pos.uci_with(m, chess960).to_string()),
        None => "null".to_string(),
    };
    Ok(format!(
        "{{\"depth\":{},\"nodes\":{},\"best\":{best}}}",
        result.depth, result.nodes
    ))
}

/// `depth` → the engine's bench (`arbiter-engine`'s positions, a fresh 16 MB engine each) at
/// that depth: `{"nodes": total}`; `report` gets `{"fen","nodes"}` per position.
pub fn bench(args: &str, report: &mut dyn FnMut(&str)) -> Result<String, String> {
    let depth: u32 = arg(args, 0)
        .parse()
        .map_err(|_| format!("bad depth {:?}", arg(args, 0)))?;
    let r = bench::run(depth, |fen, nodes| {
        report(&format!(
            "{{\"fen\":{},\"nodes\":{nodes}}}",
            json::string(fen)
        ))
    });
    Ok(format!("{{\"nodes\":{}}}", r.nodes))
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn a_bad_fen_names_the_field() {
        let e = position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1").unwrap_err();
        assert!(e.starts_with("field 2:"), "{e}");
        let e = position("8/8/8/8/8/8/8/K6K w - - 0 1").unwrap_err();
        assert!(e.contains("2 kings"), "{e}");
    }

    #[test]
    fn standard_castling_has_both_uci_forms() {
        let m = moves("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1\nstandard").unwrap();
        assert!(
            m.contains("{\"u\":\"e1h1\",\"c\":\"e1g1\",\"s\":\"O-O\"}"),
            "{m}"
        );
        assert!(
            m.contains("{\"u\":\"e1a1\",\"c\":\"e1c1\",\"s\":\"O-O-O\"}"),
            "{m}"
        );
    }

    #[test]
    fn playing_fools_mate_ends_in_checkmate() {
        let mut fen = START.to_string();
        for uci in ["f2f3", "e7e5", "g2g4", "d8h4"] {
            let out = play(&format!("{fen}\nstandard\n{uci}")).unwrap();
            let after = &out[out.find("\"after\":").unwrap()..];
            let start = after.find("\"fen\":\"").unwrap() + 7;
            fen = after[start..start + after[start..].find('"').unwrap()].to_string();
            if uci == "d8h4" {
                assert!(out.contains("\"s\":\"Qh4#\""), "{out}");
                assert!(out.contains("\"checkmate\":true"), "{out}");
                assert!(out.contains("\"result\":\"0-1\""), "{out}");
            }
        }
    }

    #[test]
    fn an_illegal_move_is_refused() {
        assert!(play(&format!("{START}\nstandard\ne2e5")).is_err());
    }

    #[test]
    fn czech_san_is_read() {
        let m = san(&format!("{START}\nstandard\nJf3\ncs")).unwrap();
        assert_eq!(m, "{\"u\":\"g1f3\",\"s\":\"Nf3\"}");
    }

    #[test]
    fn perft_of_the_start_position() {
        assert_eq!(
            perft(&format!("{START}\nstandard\n3")).unwrap(),
            "{\"nodes\":8902}"
        );
    }

    #[test]
    fn search_reports_every_iteration_with_all_its_lines() {
        let mut reports = Vec::new();
        let end = search(&format!("{START}\nstandard\n4\n3\n4"), &mut |r| {
            reports.push(r.to_string())
        })
        .unwrap();
        assert_eq!(reports.len(), 4, "{reports:?}");
        for (i, r) in reports.iter().enumerate() {
            assert!(r.starts_with(&format!("{{\"depth\":{}", i + 1)), "{r}");
            assert_eq!(r.matches("\"multipv\"").count(), 3, "{r}");
        }
        assert!(end.contains("\"depth\":4"), "{end}");
    }

    #[test]
    fn a_mate_for_black_is_negative() {
        // Black to move mates in one (Qh4#): White's point of view.
        let fen = "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2";
        let mut last = String::new();
        search(&format!("{fen}\nstandard\n3\n1\n1"), &mut |r| {
            last = r.to_string()
        })
        .unwrap();
        assert!(last.contains("\"score\":{\"mate\":-1}"), "{last}");
        assert!(last.contains("\"san\":[\"Qh4#\"]"), "{last}");
    }
}
