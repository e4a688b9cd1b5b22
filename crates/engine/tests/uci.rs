//! A scripted UCI session gives the expected answers.

use arbiter_rules::{CastlingMode, Position};
use std::io::{BufReader, Read, Write};
use std::sync::mpsc::{channel, Receiver};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Standard input fed line by line from the test.
struct Input {
    rx: Receiver<String>,
    pending: Vec<u8>,
}

impl Read for Input {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.pending.is_empty() {
            match self.rx.recv() {
                Ok(line) => self.pending = format!("{line}\n").into_bytes(),
                Err(_) => return Ok(0),
            }
        }
        let n = buf.len().min(self.pending.len());
        buf[..n].copy_from_slice(&self.pending[..n]);
        self.pending.drain(..n);
        Ok(n)
    }
}

fn text(out: &Shared) -> String {
    String::from_utf8(out.0.lock().unwrap().clone()).unwrap()
}

/// Runs a session as a GUI would: after each `go` (other than `go infinite`) it waits for
/// the `bestmove` before sending the next command.
fn session(script: &str) -> Vec<String> {
    let out = Shared::default();
    let (tx, rx) = channel();
    let engine_out = out.clone();
    let engine = std::thread::spawn(move || {
        let input = BufReader::new(Input {
            rx,
            pending: Vec::new(),
        });
        arbiter_engine::uci::run(input, engine_out).unwrap();
    });
    for line in script.lines() {
        let before = text(&out).matches("bestmove").count();
        tx.send(line.to_string()).unwrap();
        if line.starts_with("go") && !line.contains("infinite") {
            let start = Instant::now();
            while text(&out).matches("bestmove").count() == before {
                assert!(start.elapsed() < Duration::from_secs(20), "no bestmove");
                std::thread::sleep(Duration::from_millis(2));
            }
        }
    }
    drop(tx);
    engine.join().unwrap();
    text(&out).lines().map(str::to_string).collect()
}

fn bestmoves(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("bestmove "))
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .collect()
}

#[test]
fn uci_handshake_lists_options_and_ends_with_uciok() {
    let lines = session("uci\nisready\nquit\n");
    assert!(lines[0].starts_with("id name Arbiter"));
    for opt in [
        "Hash",
        "Skill Level",
        "UCI_Chess960",
        "Move Overhead",
        "UCI_LimitStrength",
        "UCI_Elo",
        "MultiPV",
    ] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option name {opt} type"))),
            "{opt} missing"
        );
    }
    let uciok = lines.iter().position(|l| l == "uciok").unwrap();
    assert_eq!(lines[uciok + 1], "readyok");
}

#[test]
fn uci_go_depth_answers_info_lines_and_a_legal_bestmove() {
    let lines = session(
        "uci\nsetoption name Hash value 4\nucinewgame\nposition startpos moves e2e4 e7e5 g1f3\ngo depth 5\nisready\nquit\n",
    );
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(infos.len(), 5, "{lines:?}");
    for key in [" depth 5 ", " score cp ", " nodes ", " nps ", " pv "] {
        assert!(infos[4].contains(key), "{key} missing in {}", infos[4]);
    }
    let mut pos = Position::new();
    for m in ["e2e4", "e7e5", "g1f3"] {
        let m = pos.parse_uci(m).unwrap();
        pos.play_unchecked(m);
    }
    let best = bestmoves(&lines);
    assert_eq!(best.len(), 1);
    assert!(pos.parse_uci(&best[0]).is_ok(), "illegal {}", best[0]);
    assert_eq!(lines.last().unwrap(), "readyok");
}

#[test]
fn uci_finds_mate_in_one_from_fen_and_reports_mate_score() {
    let lines = session("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\ngo depth 4\nquit\n");
    assert_eq!(bestmoves(&lines), vec!["a1a8"]);
    assert!(
        lines.iter().any(|l| l.contains("score mate 1 ")),
        "{lines:?}"
    );
}

#[test]
fn uci_clock_go_with_wtime_btime_answers_in_time() {
    let start = std::time::Instant::now();
    let lines = session(
        "position startpos moves d2d4\ngo wtime 1000 btime 1000 winc 10 binc 10 movestogo 5\nquit\n",
    );
    assert_eq!(bestmoves(&lines).len(), 1);
    // Art. 6: never more than the time on the clock.
    assert!(start.elapsed().as_millis() < 1000, "{:?}", start.elapsed());
}

#[test]
fn uci_stop_ends_an_infinite_search_with_a_bestmove() {
    let lines = session("position startpos\ngo infinite\nisready\nstop\nquit\n");
    assert!(lines.contains(&"readyok".to_string()));
    assert_eq!(bestmoves(&lines).len(), 1);
}

#[test]
fn uci_movetime_and_nodes_limits_are_obeyed() {
    let lines = session("position startpos\ngo nodes 3000\ngo movetime 50\nquit\n");
    assert_eq!(bestmoves(&lines).len(), 2);
    let first = lines
        .iter()
        .position(|l| l.starts_with("bestmove"))
        .unwrap();
    let nodes: Vec<u64> = lines[..first]
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let i = w.iter().position(|x| *x == "nodes").unwrap();
            w[i + 1].parse().unwrap()
        })
        .collect();
    assert!(!nodes.is_empty());
    assert!(nodes.iter().all(|&n| n <= 3000), "{nodes:?}");
}

#[test]
fn uci_chess960_castling_is_written_king_takes_rook() {
    // Chess960 start 518 is the standard array; after clearing f1 and g1 White can castle.
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQK2R w KQkq - 0 1";
    let lines = session(&format!(
        "setoption name UCI_Chess960 value true\nposition fen {fen} moves e1h1\nd\nquit\n"
    ));
    let fen_line = lines
        .iter()
        .find(|l| l.starts_with("info string fen"))
        .unwrap();
    let after = fen_line.trim_start_matches("info string fen ");
    let pos = Position::from_fen(after, CastlingMode::Chess960).unwrap();
    assert_eq!(
        pos.board().king_of(arbiter_rules::Color::White),
        Some(arbiter_rules::Square::G1)
    );
}

#[test]
fn uci_skill_level_is_accepted_and_bad_values_are_reported() {
    let lines = session(
        "setoption name Skill Level value 1\nposition startpos\ngo depth 3\nsetoption name Skill Level value 99\nquit\n",
    );
    assert_eq!(bestmoves(&lines).len(), 1);
    assert!(lines
        .iter()
        .any(|l| l.starts_with("info string Skill Level")));
}

#[test]
fn uci_bad_position_is_reported_not_fatal() {
    let lines = session("position fen not-a-fen\nposition startpos moves e2e5\nisready\nquit\n");
    assert!(lines.iter().any(|l| l.starts_with("info string bad FEN")));
    assert!(lines.iter().any(|l| l.starts_with("info string position")));
    assert_eq!(lines.last().unwrap(), "readyok");
}

#[test]
fn uci_elo_is_advertised_with_the_level_ladder_range() {
    use arbiter_engine::Level;
    let lines = session("uci\nquit\n");
    assert!(lines.contains(&"option name UCI_LimitStrength type check default false".to_string()));
    let elo = lines
        .iter()
        .find(|l| l.starts_with("option name UCI_Elo "))
        .unwrap();
    assert_eq!(
        elo,
        &format!(
            "option name UCI_Elo type spin default {max} min {min} max {max}",
            min = Level::MIN.elo(),
            max = Level::MAX.elo()
        )
    );
    assert!(Level::MIN.elo() < Level::MAX.elo());
}

/// The level actually playing, read from the depth reached: levels 1 to 7 stop at depths
/// 1, 2, 3, 4, 5, 7 and 9.
fn deepest(lines: &[String]) -> u32 {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("info depth "))
        .map(|l| l.split_whitespace().next().unwrap().parse::<u32>().unwrap())
        .max()
        .unwrap()
}

#[test]
fn uci_limit_strength_with_uci_elo_picks_the_nearest_level() {
    use arbiter_engine::Level;
    // The weakest Elo plays level 1: a depth-1 search even when asked for depth 6.
    let min = Level::MIN.elo();
    let lines = session(&format!(
        "setoption name UCI_LimitStrength value true\nsetoption name UCI_Elo value {min}\nposition fen 8/8/4k3/8/8/8/8/R3K3 w - - 0 1\ngo depth 6\nquit\n"
    ));
    assert_eq!(deepest(&lines), 1, "{lines:?}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with(&format!("info string UCI_Elo {min} plays as Skill Level 1"))),
        "{lines:?}"
    );
    // Level 3's estimate plays level 3 (depth limit 3).
    let elo3 = Level::new(3).unwrap().elo();
    let lines = session(&format!(
        "setoption name UCI_Elo value {elo3}\nsetoption name UCI_LimitStrength value true\nposition fen 8/8/4k3/8/8/8/8/R3K3 w - - 0 1\ngo depth 6\nquit\n"
    ));
    assert_eq!(deepest(&lines), 3, "{lines:?}");
}

#[test]
fn uci_limit_strength_false_ignores_uci_elo_and_skill_level_keeps_working() {
    use arbiter_engine::Level;
    let min = Level::MIN.elo();
    // UCI_Elo without UCI_LimitStrength: full strength (depth 6 reached).
    let lines = session(&format!(
        "setoption name UCI_Elo value {min}\nposition fen 8/8/4k3/8/8/8/8/R3K3 w - - 0 1\ngo depth 6\nquit\n"
    ));
    assert_eq!(deepest(&lines), 6);
    // Switched on, then off again: full strength again.
    let lines = session(&format!(
        "setoption name UCI_Elo value {min}\nsetoption name UCI_LimitStrength value true\nsetoption name UCI_LimitStrength value false\nposition fen 8/8/4k3/8/8/8/8/R3K3 w - - 0 1\ngo depth 6\nquit\n"
    ));
    assert_eq!(deepest(&lines), 6);
    // Skill Level still applies when UCI_LimitStrength is false.
    let lines = session(
        "setoption name Skill Level value 2\nsetoption name UCI_LimitStrength value false\nposition fen 8/8/4k3/8/8/8/8/R3K3 w - - 0 1\ngo depth 6\nquit\n",
    );
    assert_eq!(deepest(&lines), 2);
}

#[test]
fn uci_elo_out_of_range_is_clamped_and_reported_bad_values_too() {
    let lines = session(
        "setoption name UCI_LimitStrength value true\nsetoption name UCI_Elo value 99999\nsetoption name UCI_Elo value strong\nsetoption name UCI_LimitStrength value maybe\nposition startpos\ngo depth 4\nquit\n",
    );
    assert!(lines
        .iter()
        .any(|l| l.starts_with("info string UCI_Elo: 99999 is outside")));
    assert!(lines
        .iter()
        .any(|l| l == "info string UCI_Elo: bad value 'strong'"));
    assert!(lines
        .iter()
        .any(|l| l.starts_with("info string UCI_LimitStrength: expected true or false")));
    // Clamped to the top: level 8, full strength, depth 4 reached.
    assert_eq!(deepest(&lines), 4);
}

#[test]
fn uci_multipv_option_prints_each_line_with_its_rank() {
    let lines = session(
        "uci\nsetoption name MultiPV value 3\nposition startpos moves e2e4\ngo depth 4\nsetoption name MultiPV value 9\nisready\nquit\n",
    );
    assert!(lines
        .iter()
        .any(|l| l == "option name MultiPV type spin default 1 min 1 max 8"));
    for k in 1..=3 {
        let tag = " depth 4 seldepth ";
        assert!(
            lines.iter().any(|l| l.starts_with("info")
                && l.contains(tag)
                && l.contains(&format!(" multipv {k} score "))),
            "no depth-4 line ranked {k}"
        );
    }
    // The three lines of the last iteration start with three different moves.
    let firsts: std::collections::BTreeSet<&str> = lines
        .iter()
        .filter(|l| l.starts_with("info depth 4 "))
        .filter_map(|l| l.split(" pv ").nth(1)?.split_whitespace().next())
        .collect();
    assert_eq!(firsts.len(), 3, "{lines:?}");
    assert!(!lines.iter().any(|l| l.contains(" multipv 4 ")));
    // Out of range: reported, not applied.
    assert!(lines
        .iter()
        .any(|l| l.starts_with("info string MultiPV: expected 1 to 8")));
    assert_eq!(bestmoves(&lines).len(), 1);
}
