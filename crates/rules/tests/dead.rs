//! Dead positions and "cannot checkmate by any series of legal moves" (Art. 5.2.2, 6.9, 7.5.5).

use arbiter_rules::dead::{can_checkmate, is_dead, Mode, Verdict};
use arbiter_rules::{CastlingMode, Color, Position};
use std::time::{Duration, Instant};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen, CastlingMode::Standard).unwrap()
}

/// Replays a `Yes` line and checks that it ends with `side` giving mate.
fn assert_line_mates(p: &Position, side: Color, v: &Verdict) {
    let Verdict::Yes(line) = v else {
        panic!("expected Yes, got {v:?}")
    };
    let mut cur = *p;
    for &m in line {
        cur = cur.play(m).expect("line is legal");
    }
    assert!(
        cur.is_checkmate(),
        "line does not end in mate: {}",
        cur.fen()
    );
    assert_eq!(cur.turn(), !side, "the wrong side is mated");
}

#[test]
fn art_5_2_2_bare_kings_are_dead() {
    let p = pos("8/8/4k3/8/8/3K4/8/8 w - - 0 1");
    assert_eq!(is_dead(&p, Mode::Quick), Some(true));
}

#[test]
fn art_5_2_2_bishops_of_one_colour_are_dead() {
    // K+B vs K+B, both bishops on light squares.
    let p = pos("8/8/4kb2/8/8/3KB3/8/8 w - - 0 1");
    assert!(Position::is_insufficient_material(&p));
    assert_eq!(is_dead(&p, Mode::Quick), Some(true));
    // Opposite colours: a mate exists (a helpmate in the corner), so not dead.
    let p = pos("8/8/4k1b1/8/8/3KB3/8/8 w - - 0 1");
    assert_eq!(is_dead(&p, Mode::Full), Some(false));
}

#[test]
fn art_5_2_2_pawn_wall_with_kings_only_is_dead() {
    let p = pos("8/2k5/8/1p1p2p1/1P1P2P1/8/2K5/8 w - - 0 1");
    assert_eq!(can_checkmate(&p, Color::White, Mode::Quick), Verdict::No);
    assert_eq!(can_checkmate(&p, Color::Black, Mode::Quick), Verdict::No);
    // Fully locked wall across the board.
    let p = pos("4k3/8/8/p1p1p1p1/P1P1P1P1/8/8/4K3 w - - 0 1");
    assert_eq!(is_dead(&p, Mode::Quick), Some(true));
}

#[test]
fn art_5_2_2_bishop_behind_the_wall_that_can_never_reach_the_pawns() {
    // A closed wall: every white pawn on a dark square, every black pawn on a light one. The
    // dark-squared bishop can never attack a black pawn nor cross the wall.
    let p = pos("4k3/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/2B1K3 w - - 0 1");
    assert_eq!(is_dead(&p, Mode::Full), Some(true));
}

#[test]
fn art_5_2_2_open_wall_is_not_dead() {
    // The king can walk round the end of the wall and win pawns: not dead.
    let p = pos("4k3/8/8/1p1p4/1P1P4/8/8/4K3 w - - 0 1");
    assert_eq!(is_dead(&p, Mode::Full), Some(false));
}

#[test]
fn art_5_2_2_king_entombed_behind_own_pawns_cannot_be_mated_by_a_lone_bishop() {
    // Black king shut in a1-corner region by its own pawn wall; White has a dark bishop that
    // cannot reach any square next to the black king's area.
    let p = pos("8/8/8/8/p1p5/P1P5/1p6/k1K5 w - - 0 1");
    let v = can_checkmate(&p, Color::White, Mode::Full);
    assert_ne!(v, Verdict::Unknown, "should be decided");
}

#[test]
fn art_6_9_every_legal_move_leads_to_a_bare_king() {
    // Black to move must take the queen (the only legal move): then White has a bare king.
    let p = pos("7K/8/8/8/8/8/1Q6/k7 b - - 0 1");
    assert_eq!(p.legal_moves().len(), 1);
    assert_eq!(can_checkmate(&p, Color::White, Mode::Full), Verdict::No);
    // Quick mode cannot see it, and must not claim it: Unknown, never Yes.
    assert_eq!(
        can_checkmate(&p, Color::White, Mode::Quick),
        Verdict::Unknown
    );
}

#[test]
fn yes_lines_end_in_mate() {
    for (fen, side) in [
        ("8/8/8/4k3/8/8/8/R3K3 w - - 0 1", Color::White),
        ("8/8/8/4k3/8/8/8/R3K3 b - - 0 1", Color::White),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            Color::Black,
        ),
        ("8/8/4k1b1/8/8/3KB3/8/8 w - - 0 1", Color::Black),
    ] {
        let p = pos(fen);
        let v = can_checkmate(&p, side, Mode::Full);
        assert_line_mates(&p, side, &v);
    }
}

fn data_file(rel: &str) -> Option<String> {
    let dir = std::env::var_os("ARBITER_DATA")?;
    std::fs::read_to_string(std::path::Path::new(&dir).join(rel)).ok()
}

struct Tally {
    right: usize,
    unknown: usize,
    unknown_can: usize,
    wrong: Vec<String>,
    total_time: Duration,
    worst: (Duration, String),
    n: usize,
}

impl Tally {
    fn new() -> Tally {
        Tally {
            right: 0,
            unknown: 0,
            unknown_can: 0,
            wrong: vec![],
            total_time: Duration::ZERO,
            worst: (Duration::ZERO, String::new()),
            n: 0,
        }
    }
    fn check(&mut self, p: &Position, side: Color, can: bool, mode: Mode) {
        let t = Instant::now();
        let v = can_checkmate(p, side, mode);
        let dt = t.elapsed();
        self.total_time += dt;
        self.n += 1;
        if dt > self.worst.0 {
            self.worst = (dt, format!("{} {side}", p.fen()));
        }
        match (&v, can) {
            (Verdict::Yes(_), true) => {
                assert_line_mates(p, side, &v);
                self.right += 1
            }
            (Verdict::No, false) => self.right += 1,
            (Verdict::Unknown, _) => {
                self.unknown += 1;
                self.unknown_can += usize::from(can);
                if std::env::var_os("ARBITER_DEAD_VERBOSE").is_some() {
                    eprintln!("unknown (expected can={can}): {} {side}", p.fen());
                }
            }
            _ => self.wrong.push(format!(
                "{} {side}: {} but expected can={can}",
                p.fen(),
                v.name()
            )),
        }
    }
    fn report(&self, name: &str) {
        eprintln!(
            "{name}: {} verdicts, {} right, {} unknown ({} of them can mate), {} wrong; mean {:.1} µs, worst {:.2} ms ({})",
            self.n,
            self.right,
            self.unknown,
            self.unknown_can,
            self.wrong.len(),
            self.total_time.as_secs_f64() * 1e6 / self.n.max(1) as f64,
            self.worst.0.as_secs_f64() * 1e3,
            self.worst.1
        );
        assert!(
            self.wrong.is_empty(),
            "wrong verdicts:\n{}",
            self.wrong.join("\n")
        );
    }
}

#[test]
#[ignore = "needs ARBITER_DATA (CHA test vectors)"]
fn cha_test_vectors_full_mode() {
    let text = data_file("positions/cha-unwinnability/test-vector.txt").expect("ARBITER_DATA");
    let mut tally = Tally::new();
    for line in text.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let (label, fen) = line.split_at(2);
        let p = Position::from_fen(fen.trim(), CastlingMode::Standard).unwrap();
        let label = label.as_bytes();
        tally.check(&p, Color::White, label[0] == b'W', Mode::Full);
        tally.check(&p, Color::Black, label[1] == b'B', Mode::Full);
    }
    tally.report("CHA test vectors (full)");
}

#[test]
#[ignore = "needs ARBITER_DATA (lichess timeouts that should have been draws)"]
fn lichess_unfair_timeouts_full_mode() {
    let text = data_file("positions/cha-unwinnability/unfair-2022-05.txt").expect("ARBITER_DATA");
    let mut tally = Tally::new();
    for line in text.lines() {
        let fen: Vec<&str> = line.split_whitespace().take(6).collect();
        let p = Position::from_fen(&fen.join(" "), CastlingMode::Standard).unwrap();
        // The side that made the last move (not to move) had time but cannot mate.
        tally.check(&p, !p.turn(), false, Mode::Full);
    }
    tally.report("lichess unfair timeouts (full)");
}

/// Every position of every game of a PGN file (simple movetext reader: comments, variations,
/// move numbers and results are skipped; fine for the lichess export format).
fn positions_of_pgn(text: &str) -> Vec<Position> {
    let mut out = Vec::new();
    let mut pos = Position::new();
    let mut depth = 0usize;
    let mut in_comment = false;
    for line in text.lines() {
        if line.starts_with('[') {
            if line.starts_with("[Event ") {
                pos = Position::new();
            }
            continue;
        }
        let mut token = String::new();
        let flush = |token: &mut String, pos: &mut Position, out: &mut Vec<Position>| {
            let t = std::mem::take(token);
            if t.is_empty()
                || t.ends_with('.')
                || t.contains('-') && !t.starts_with('O')
                || t == "*"
            {
                return;
            }
            let t = t.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
            if t.is_empty() {
                return;
            }
            if let Ok(m) = pos.parse_san(t) {
                pos.play_unchecked(m);
                out.push(*pos);
            }
        };
        for c in line.chars() {
            if in_comment {
                in_comment = c != '}';
                continue;
            }
            match c {
                '{' => in_comment = true,
                '(' => depth += 1,
                ')' => depth = depth.saturating_sub(1),
                c if c.is_whitespace() => {
                    if depth == 0 {
                        flush(&mut token, &mut pos, &mut out);
                    }
                    token.clear();
                }
                c => token.push(c),
            }
        }
        if depth == 0 {
            flush(&mut token, &mut pos, &mut out);
        }
    }
    out
}

/// Every position of the games of the two PGN bench files (lichess and TWIC).
fn bench_positions() -> Vec<Position> {
    [
        "pgn/pgn-reader-benches/lichess_db_1000k.pgn",
        "pgn/pgn-reader-benches/twic1599_1000k.pgn",
    ]
    .iter()
    .flat_map(|rel| positions_of_pgn(&data_file(rel).expect("ARBITER_DATA")))
    .collect()
}

#[test]
#[ignore = "needs ARBITER_DATA; a measurement, prints figures (see BENCHMARKS.md)"]
fn quick_mode_cost_over_every_position_of_real_games() {
    let positions = bench_positions();
    assert!(
        positions.len() > 50_000,
        "read {} positions",
        positions.len()
    );
    let mut dead = 0;
    let mut worst = Duration::ZERO;
    let start = Instant::now();
    for p in &positions {
        let t = Instant::now();
        if is_dead(p, Mode::Quick) == Some(true) {
            dead += 1;
            if std::env::var_os("ARBITER_DEAD_VERBOSE").is_some() {
                eprintln!("dead: {}", p.fen());
            }
        }
        worst = worst.max(t.elapsed());
    }
    let total = start.elapsed();
    eprintln!(
        "quick mode over {} positions of real games: mean {:.2} µs, worst {:.1} µs, {} dead",
        positions.len(),
        total.as_secs_f64() * 1e6 / positions.len() as f64,
        worst.as_secs_f64() * 1e6,
        dead
    );
}

#[test]
#[ignore = "needs ARBITER_DATA; a measurement, prints figures (see BENCHMARKS.md)"]
fn full_mode_cost_over_positions_of_real_games() {
    // Every 10th position of the same games as the quick-mode measurement, both sides: the
    // rulings of Art. 6.9 and 7.5.5 can come at any point of a game.
    let positions: Vec<Position> = bench_positions().into_iter().step_by(10).collect();
    assert!(
        positions.len() > 5_000,
        "read {} positions",
        positions.len()
    );
    if let Some(path) = std::env::var_os("ARBITER_DEAD_DUMP") {
        // For `dead_vectors --unlabelled`: one FEN per line.
        let fens: Vec<String> = positions.iter().map(|p| p.fen()).collect();
        std::fs::write(path, fens.join("\n") + "\n").expect("write the FENs");
    }
    let (mut yes, mut no, mut unknown) = (0, 0, 0);
    let mut worst = (Duration::ZERO, String::new());
    let mut total = Duration::ZERO;
    for p in &positions {
        for side in [Color::White, Color::Black] {
            let t = Instant::now();
            let v = can_checkmate(p, side, Mode::Full);
            let dt = t.elapsed();
            total += dt;
            if dt > worst.0 {
                worst = (dt, format!("{} {side}", p.fen()));
            }
            match v {
                Verdict::Yes(_) => {
                    assert_line_mates(p, side, &v);
                    yes += 1;
                }
                Verdict::No => no += 1,
                Verdict::Unknown => unknown += 1,
            }
        }
    }
    let n = 2 * positions.len();
    eprintln!(
        "full mode over {n} verdicts ({} positions of real games, both sides): {yes} yes, {no} no, \
         {unknown} unknown; mean {:.1} µs, worst {:.2} ms ({})",
        positions.len(),
        total.as_secs_f64() * 1e6 / n as f64,
        worst.0.as_secs_f64() * 1e3,
        worst.1
    );
    assert_eq!(
        unknown, 0,
        "real-game positions are decided within the full budget"
    );
}

/// A small deterministic generator of positions with locked pawn pairs, kings and a few minor
/// pieces: the kind of position where a dead-position proof is needed.
struct Gen(u64, u64);

impl Gen {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    #[allow(clippy::needless_range_loop)] // board[rank][file] reads best with indices
    fn position(&mut self) -> Option<Position> {
        let mut board = [[' '; 8]; 8]; // [rank][file]
                                       // A saw-tooth wall of locked pawn pairs across the board (no pawn attacks another),
                                       // with a hole now and then.
        let r = 1 + self.below(4) as usize;
        let phase = self.below(2) as usize;
        for f in 0..8 {
            let r = r + (f + phase) % 2;
            board[r][f] = 'P';
            board[r + 1][f] = 'p';
        }
        if self.below(4) == 0 {
            let f = self.below(8) as usize;
            for row in board.iter_mut() {
                row[f] = ' ';
            }
        }
        let extras = self.below(self.1) as usize;
        let mut pieces = vec!['K', 'k'];
        for _ in 0..extras {
            pieces.push(['B', 'b', 'N', 'n', 'B', 'b'][self.below(6) as usize]);
        }
        for piece in pieces {
            loop {
                let sq = self.below(64) as usize;
                if board[sq / 8][sq % 8] == ' ' {
                    board[sq / 8][sq % 8] = piece;
                    break;
                }
            }
        }
        let mut fen = String::new();
        for r in (0..8).rev() {
            let mut empty = 0;
            for f in 0..8 {
                match board[r][f] {
                    ' ' => empty += 1,
                    c => {
                        if empty > 0 {
                            fen.push_str(&empty.to_string());
                            empty = 0;
                        }
                        fen.push(c);
                    }
                }
            }
            if empty > 0 {
                fen.push_str(&empty.to_string());
            }
            if r > 0 {
                fen.push('/');
            }
        }
        fen.push_str(if self.below(2) == 0 {
            " w - - 0 1"
        } else {
            " b - - 0 1"
        });
        Position::from_fen(&fen, CastlingMode::Standard).ok()
    }
}

/// Positions composed for these tests (not from any collection) where the answer turns on
/// tempo: a king boxed into two or three squares behind locked pawns, the other side with a
/// king and a bishop or two. Some are dead only because the boxed king would be stalemated
/// (or would stalemate the other side by taking a pawn) before a mate; in others a mate exists.
const TEMPO_SEEDS: [&str; 8] = [
    "8/1p6/1Pp5/k1P5/p1P5/P7/5K2/2B5 w - - 0 1",
    "8/1p2B3/1Pp5/k1P5/p1P5/P2B4/5K2/8 b - - 0 1",
    "8/b7/k6p/5p1P/5p2/5PpK/6P1/8 w - - 0 1",
    "8/8/7p/5p1P/5p1K/5Pp1/5bP1/5k2 b - - 0 1",
    "8/1p6/1Pp5/2P5/k1P5/p7/P2B1K2/8 w - - 0 1",
    "7k/5p1P/5P2/8/8/8/1B6/K7 w - - 0 1",
    "8/8/8/8/p1p5/P1P5/1k1K4/B7 b - - 0 1",
    "8/2b5/8/7p/p4p1P/Pp3P1K/1P6/k7 w - - 0 1",
];

/// The colour-reversed position (ranks mirrored, colours and side to move swapped).
fn flipped(p: &Position) -> Position {
    let fen = p.fen();
    let board: Vec<String> = fen
        .split(' ')
        .next()
        .unwrap()
        .split('/')
        .rev()
        .map(|rank| {
            rank.chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect()
        })
        .collect();
    let turn = if p.turn() == Color::White { "b" } else { "w" };
    pos(&format!("{} {turn} - - 0 1", board.join("/")))
}

/// Every `No` of quick mode (material, reachability, the kings' duel) on positions a few
/// random moves away from the tempo seeds (and their colour-reversed twins), checked against
/// the independent breadth-first search.
fn cross_check_tempo(n: usize, cap: usize, seed: u64) {
    let mut gen = Gen(seed, 1);
    let (mut no, mut not_no, mut too_large, mut tried) = (0, 0, 0, 0);
    while no < n {
        tried += 1;
        assert!(tried < 100 * n, "too few quick-mode Nos: {no} in {tried}");
        let mut p = pos(TEMPO_SEEDS[gen.below(TEMPO_SEEDS.len() as u64) as usize]);
        if gen.below(2) == 0 {
            p = flipped(&p);
        }
        for _ in 0..gen.below(12) {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            p = p
                .play(moves[gen.below(moves.len() as u64) as usize])
                .unwrap();
        }
        for side in Color::ALL {
            if can_checkmate(&p, side, Mode::Quick) != Verdict::No {
                not_no += 1;
                continue;
            }
            match exhaustive(&p, side, cap) {
                Some(truth) => {
                    assert!(!truth, "quick No, but a mate exists: {} {side}", p.fen());
                    no += 1;
                }
                None => too_large += 1,
            }
        }
    }
    eprintln!(
        "quick-mode Nos confirmed: {no} ({too_large} too large to confirm, {not_no} not No; {tried} positions)"
    );
}

#[test]
fn art_5_2_2_quick_nos_near_tempo_positions_are_confirmed_by_an_independent_search() {
    cross_check_tempo(30, 100_000, 0x5eed_0003);
}

#[test]
#[ignore = "slow: hundreds of positions, larger reachable sets"]
fn art_5_2_2_quick_nos_near_tempo_positions_are_confirmed_by_an_independent_search_many() {
    cross_check_tempo(600, 400_000, 0x5eed_0004);
}

/// An independent check: breadth-first over every position reachable from `p` (both sides
/// cooperating), keyed by FEN, up to `cap` positions. `Some(true)` if `side` can mate,
/// `Some(false)` if the reachable set was exhausted without such a mate, `None` if too large.
fn exhaustive(p: &Position, side: Color, cap: usize) -> Option<bool> {
    let key = |p: &Position| (*p.board(), p.turn(), p.pseudo_ep_square());
    let mut seen = std::collections::HashSet::new();
    let mut queue = std::collections::VecDeque::new();
    seen.insert(key(p));
    queue.push_back(*p);
    while let Some(cur) = queue.pop_front() {
        if cur.is_checkmate() && cur.turn() == !side {
            return Some(true);
        }
        for &m in cur.legal_moves().iter() {
            let next = cur.play(m).expect("legal");
            if seen.insert(key(&next)) {
                if seen.len() > cap {
                    return None;
                }
                queue.push_back(next);
            }
        }
    }
    Some(false)
}

fn cross_check(n: usize, cap: usize, seed: u64, extras: u64) {
    let mut gen = Gen(seed, extras + 1);
    let (mut confirmed_no, mut confirmed_yes, mut unknown, mut checked, mut skipped) =
        (0, 0, 0, 0, 0);
    while checked < n {
        let Some(p) = gen.position() else { continue };
        for side in Color::ALL {
            let Some(truth) = exhaustive(&p, side, cap) else {
                skipped += 1;
                continue;
            };
            checked += 1;
            if std::env::var_os("ARBITER_DEAD_VERBOSE").is_some() {
                eprintln!("{} {side}: {truth}", p.fen());
            }
            let t = Instant::now();
            let verdict = can_checkmate(&p, side, Mode::Full);
            if t.elapsed() > Duration::from_millis(100) {
                eprintln!("slow: {:?} {} {side}", t.elapsed(), p.fen());
            }
            match verdict {
                Verdict::No => {
                    assert!(!truth, "No, but a mate exists: {} {side}", p.fen());
                    confirmed_no += 1;
                }
                v @ Verdict::Yes(_) => {
                    assert!(truth, "Yes, but none exists: {} {side}", p.fen());
                    assert_line_mates(&p, side, &v);
                    confirmed_yes += 1;
                }
                Verdict::Unknown => unknown += 1,
            }
        }
    }
    eprintln!(
        "cross-checked {checked} (skipped {skipped} with larger reachable sets): {confirmed_no} No, {confirmed_yes} Yes, {unknown} Unknown"
    );
    assert!(confirmed_no > 0 && confirmed_yes > 0);
}

#[test]
fn art_5_2_2_every_no_is_confirmed_by_an_independent_exhaustive_search() {
    cross_check(40, 5_000, 0x5eed_0001, 1);
}

#[test]
#[ignore = "slow: thousands of positions, larger reachable sets"]
fn art_5_2_2_every_no_is_confirmed_by_an_independent_exhaustive_search_many() {
    cross_check(400, 50_000, 0x5eed_0002, 2);
}
