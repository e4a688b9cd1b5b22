//! External UCI engines as opponents: `UciPlayer` against our own engine run as a separate
//! program (`arbiter-match uci`), against fake engines written by the tests as shell scripts,
//! and (ignored) against Debian's Stockfish.

#![cfg(unix)]

use arbiter_engine::external::{ExternalError, UciPlayer};
use arbiter_engine::play::{EnginePlayer, Opponent};
use arbiter_engine::Level;
use arbiter_game::{Game, GameConfig, MoveOptions, Status, TimeControl};
use arbiter_rules::Position;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// Our engine as an external program.
const ENGINE: &str = env!("CARGO_BIN_EXE_arbiter-match");

/// A fresh directory for one test's scripts, removed when dropped.
struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn scratch(name: &str) -> Scratch {
    static N: AtomicU32 = AtomicU32::new(0);
    let dir = std::env::temp_dir().join(format!(
        "arbiter-external-{}-{}-{name}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

/// Writes an executable `#!/bin/sh` script.
fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// A path that runs our engine over UCI (a wrapper script, since `start` takes no arguments).
fn engine_path(dir: &Path) -> PathBuf {
    script(dir, "arbiter-uci", &format!("exec '{ENGINE}' uci\n"))
}

/// A fake engine: a proper handshake, then `on_go` (shell commands) for every `go`.
fn fake_engine(dir: &Path, on_go: &str) -> PathBuf {
    script(
        dir,
        "fake-engine",
        &format!(
            r#"while read -r cmd rest; do
  case "$cmd" in
    uci) echo "id name Fake"; echo "option name UCI_Chess960 type check default false"; echo uciok ;;
    isready) echo readyok ;;
    go) {on_go} ;;
    quit) exit 0 ;;
  esac
done
"#
        ),
    )
}

fn never() -> AtomicBool {
    AtomicBool::new(false)
}

/// Plays `game` to its end between two computer players with the real time as the clock;
/// every move is checked legal before it is played. Returns the number of plies.
fn play_out(game: &mut Game, players: &mut [Opponent; 2], max_plies: usize) -> usize {
    let t0 = Instant::now();
    let now = || t0.elapsed().as_millis() as u64;
    game.start(now()).unwrap();
    let mut plies = 0;
    while game.status() == Status::Running && plies < max_plies {
        let turn = game.turn();
        let m = players[turn.index()]
            .choose(game, now(), &never())
            .unwrap_or_else(|e| panic!("{e}"))
            .expect("a running game has a legal move");
        assert!(game.position().is_legal(m), "illegal {m:?}");
        let uci = game.position().uci(m);
        game.play_uci(turn, &uci, now(), MoveOptions::default())
            .unwrap();
        plies += 1;
    }
    plies
}

#[test]
fn external_engine_plays_a_full_game_against_itself_to_a_result_with_only_legal_moves() {
    let dir = scratch("selfplay");
    let path = engine_path(&dir);
    let start = |level: &str| UciPlayer::start(&path, &[("Skill Level", level)]).unwrap();
    let (white, black) = (start("2"), start("4"));
    assert!(white.name().starts_with("Arbiter"), "{}", white.name());
    let mut players = [Opponent::from(white), Opponent::from(black)];
    let mut game = Game::standard(TimeControl::fischer(60_000, 100));
    let plies = play_out(&mut game, &mut players, 1_000);
    // Art. 5, 9.6: the game ends by the Laws (mate, stalemate, dead position, fivefold, 75
    // moves) well before 1,000 plies.
    assert_eq!(game.status(), Status::Finished, "after {plies} plies");
    assert!(game.termination().is_some());
    assert!(plies > 10);
}

#[test]
fn guideline_ii_external_engine_plays_chess960_with_king_takes_rook_castling() {
    let dir = scratch("960");
    let path = engine_path(&dir);
    // Start 518 is the standard array, so castling can be made to come early.
    let start = Position::chess960(518).unwrap();
    let config = GameConfig {
        start_fen: Some(start.fen()),
        chess960: true,
        ..GameConfig::new(TimeControl::fischer(60_000, 100))
    };
    let mut game = Game::new(config).unwrap();
    game.start(0).unwrap();
    for (i, m) in ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1h1"]
        .iter()
        .enumerate()
    {
        let color = if i % 2 == 0 {
            arbiter_rules::Color::White
        } else {
            arbiter_rules::Color::Black
        };
        game.play_uci(color, m, 0, MoveOptions::default()).unwrap();
    }
    let cmd = UciPlayer::position_command(&game);
    assert!(cmd.starts_with("position fen "), "{cmd}");
    assert!(cmd.ends_with(" e1h1"), "{cmd}");
    let mut black = UciPlayer::start(&path, &[("Skill Level", "3")]).unwrap();
    let m = black.choose(&game, 0, &never()).unwrap();
    assert!(game.position().is_legal(m));

    // And a whole Chess960 game from another start.
    let start = Position::chess960(77).unwrap();
    let config = GameConfig {
        start_fen: Some(start.fen()),
        chess960: true,
        ..GameConfig::new(TimeControl::fischer(60_000, 100))
    };
    let mut game = Game::new(config).unwrap();
    let mut players = [
        Opponent::from(UciPlayer::start(&path, &[("Skill Level", "3")]).unwrap()),
        Opponent::from(EnginePlayer::new(Level::new(2).unwrap())),
    ];
    play_out(&mut game, &mut players, 1_000);
    assert_eq!(game.status(), Status::Finished);
}

#[test]
fn standard_castling_is_sent_king_two_squares() {
    let mut game = Game::standard(TimeControl::Untimed);
    game.start(0).unwrap();
    for (i, m) in ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1g1"]
        .iter()
        .enumerate()
    {
        let color = if i % 2 == 0 {
            arbiter_rules::Color::White
        } else {
            arbiter_rules::Color::Black
        };
        game.play_uci(color, m, 0, MoveOptions::default()).unwrap();
    }
    assert_eq!(
        UciPlayer::position_command(&game),
        "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1"
    );
}

#[test]
fn stop_flag_makes_the_external_engine_answer_at_once() {
    let dir = scratch("stop");
    let mut player = UciPlayer::start(engine_path(&dir), &[] as &[(&str, &str)]).unwrap();
    // Untimed game, a minute to think per move: only the stop flag ends this search.
    player.set_untimed_think(Duration::from_secs(60));
    let mut game = Game::standard(TimeControl::Untimed);
    game.start(0).unwrap();
    let stop = AtomicBool::new(false);
    let t = Instant::now();
    let m = std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(Duration::from_millis(300));
            stop.store(true, Ordering::Relaxed);
        });
        player.choose(&game, 0, &stop).unwrap()
    });
    assert!(game.position().is_legal(m));
    let took = t.elapsed();
    assert!(
        took >= Duration::from_millis(300) && took < Duration::from_secs(3),
        "{took:?}"
    );
}

#[test]
fn art_6_external_engine_answers_within_its_clock() {
    let dir = scratch("clock");
    let mut player = UciPlayer::start(engine_path(&dir), &[] as &[(&str, &str)]).unwrap();
    for tc in [
        TimeControl::fischer(3_000, 0),
        TimeControl::PerMove(1_500),
        TimeControl::Hourglass(3_000),
    ] {
        let mut game = Game::standard(tc.clone());
        game.start(0).unwrap();
        let t = Instant::now();
        let m = player.choose(&game, 0, &never()).unwrap();
        assert!(game.position().is_legal(m));
        let limit = match tc {
            TimeControl::PerMove(ms) | TimeControl::Hourglass(ms) => ms,
            _ => 3_000,
        };
        assert!(
            t.elapsed() < Duration::from_millis(limit),
            "{tc:?}: {:?}",
            t.elapsed()
        );
    }
}

#[test]
fn nonexistent_engine_path_is_not_found() {
    let t = Instant::now();
    let err = UciPlayer::start("/nonexistent/engine", &[] as &[(&str, &str)])
        .err()
        .unwrap();
    assert!(
        matches!(&err, ExternalError::NotFound(p) if p == Path::new("/nonexistent/engine")),
        "{err:?}"
    );
    assert!(err.to_string().contains("not found"));
    assert!(t.elapsed() < Duration::from_secs(1));
}

#[test]
fn a_program_that_exits_at_once_is_not_a_uci_engine() {
    let t = Instant::now();
    let err = UciPlayer::start("/bin/true", &[] as &[(&str, &str)])
        .err()
        .unwrap();
    assert!(matches!(err, ExternalError::NotUci { .. }), "{err:?}");
    assert!(err.to_string().contains("not a UCI engine"), "{err}");
    assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
}

#[test]
fn a_program_that_never_says_uciok_is_not_a_uci_engine_after_the_timeout() {
    // `cat` answers `uci` with `uci`.
    let t = Instant::now();
    let err = UciPlayer::from_command(
        Command::new("/bin/cat"),
        &[] as &[(&str, &str)],
        Duration::from_millis(500),
    )
    .err()
    .unwrap();
    assert!(
        matches!(&err, ExternalError::NotUci { reason, .. } if reason.contains("uciok")),
        "{err:?}"
    );
    let took = t.elapsed();
    assert!(
        took >= Duration::from_millis(500) && took < Duration::from_secs(3),
        "{took:?}"
    );
}

#[test]
fn a_file_that_is_not_executable_cannot_be_started() {
    let dir = scratch("noexec");
    let path = dir.join("engine.txt");
    std::fs::write(&path, "not a program").unwrap();
    let err = UciPlayer::start(&path, &[] as &[(&str, &str)])
        .err()
        .unwrap();
    assert!(matches!(err, ExternalError::Spawn { .. }), "{err:?}");
}

#[test]
fn an_option_the_engine_does_not_have_is_refused() {
    let dir = scratch("option");
    let err = UciPlayer::start(engine_path(&dir), &[("UCI_Elo_Typo", "1500")])
        .err()
        .unwrap();
    assert!(
        matches!(&err, ExternalError::Unsupported { what, .. } if what.contains("UCI_Elo_Typo")),
        "{err:?}"
    );
}

fn standard_game() -> Game {
    let mut game = Game::standard(TimeControl::fischer(10_000, 0));
    game.start(0).unwrap();
    game
}

#[test]
fn art_7_5_an_illegal_bestmove_is_an_error_and_never_played() {
    let dir = scratch("illegal");
    for bestmove in ["e2e5", "e7e5", "zz", "0000", "(none)", ""] {
        let path = fake_engine(&dir, &format!("echo 'bestmove {bestmove}'"));
        let mut player = UciPlayer::start(&path, &[] as &[(&str, &str)]).unwrap();
        assert_eq!(player.name(), "Fake");
        let game = standard_game();
        let err = player.choose(&game, 0, &never()).err().unwrap();
        match err {
            ExternalError::IllegalMove {
                bestmove: b, fen, ..
            } => {
                assert_eq!(b, bestmove.split_whitespace().next().unwrap_or(""));
                assert_eq!(fen, Position::new().fen());
            }
            other => panic!("{bestmove}: {other:?}"),
        }
    }
}

#[test]
fn a_fake_engine_with_a_legal_move_is_believed() {
    let dir = scratch("legal");
    let path = fake_engine(
        &dir,
        "echo 'info depth 1 score cp 20 pv g1f3'; echo 'bestmove g1f3 ponder d7d5'",
    );
    let mut player = UciPlayer::start(&path, &[] as &[(&str, &str)]).unwrap();
    let game = standard_game();
    let m = player.choose(&game, 0, &never()).unwrap();
    assert_eq!(game.position().uci(m), "g1f3");
}

#[test]
fn an_engine_that_exits_while_thinking_has_crashed_and_stays_failed() {
    let dir = scratch("crash");
    let path = fake_engine(&dir, "exit 3");
    let mut player = UciPlayer::start(&path, &[] as &[(&str, &str)]).unwrap();
    let game = standard_game();
    let err = player.choose(&game, 0, &never()).err().unwrap();
    assert!(
        matches!(&err, ExternalError::Crashed { detail, .. } if detail.contains('3')),
        "{err:?}"
    );
    let again = player.choose(&game, 0, &never()).err().unwrap();
    assert!(matches!(again, ExternalError::Crashed { .. }), "{again:?}");
}

#[test]
fn art_6_9_an_engine_that_never_answers_is_stopped_then_given_up_in_time() {
    let dir = scratch("hang");
    // Says nothing after `go`, not even after `stop`.
    let path = fake_engine(&dir, ":");
    let mut player = UciPlayer::start(&path, &[] as &[(&str, &str)]).unwrap();
    player.set_stop_grace(Duration::from_millis(300));
    let mut game = Game::standard(TimeControl::PerMove(500));
    game.start(0).unwrap();
    let t = Instant::now();
    let err = player.choose(&game, 0, &never()).err().unwrap();
    assert!(
        matches!(
            err,
            ExternalError::TimedOut {
                waiting_for: "bestmove",
                ..
            }
        ),
        "{err:?}"
    );
    // 500 ms per move less 100 ms overhead, then 300 ms of grace.
    let took = t.elapsed();
    assert!(
        took >= Duration::from_millis(700) && took < Duration::from_secs(3),
        "{took:?}"
    );
    let again = player.choose(&game, 0, &never()).err().unwrap();
    assert!(matches!(again, ExternalError::Crashed { .. }), "{again:?}");
}

#[test]
fn chess960_needs_an_engine_with_uci_chess960() {
    let dir = scratch("no960");
    let path = script(
        &dir,
        "plain",
        r#"while read -r cmd rest; do
  case "$cmd" in
    uci) echo uciok ;;
    isready) echo readyok ;;
    go) echo "bestmove e2e4" ;;
  esac
done
"#,
    );
    let mut player = UciPlayer::start(&path, &[] as &[(&str, &str)]).unwrap();
    assert_eq!(player.name(), "plain");
    let config = GameConfig {
        start_fen: Some(Position::chess960(100).unwrap().fen()),
        chess960: true,
        ..GameConfig::new(TimeControl::Untimed)
    };
    let mut game = Game::new(config).unwrap();
    game.start(0).unwrap();
    let err = player.choose(&game, 0, &never()).err().unwrap();
    assert!(matches!(err, ExternalError::Unsupported { .. }), "{err:?}");
}

#[test]
fn go_command_comes_from_the_game_clock() {
    let dir = scratch("plan");
    let path = fake_engine(&dir, "echo 'bestmove e2e4'");
    let mut player = UciPlayer::start(&path, &[] as &[(&str, &str)]).unwrap();
    player.set_move_overhead(Duration::from_millis(100));
    // Fischer: both clocks and increments; the mover's time less the overhead.
    let mut game = Game::standard(TimeControl::fischer(60_000, 2_000));
    game.start(0).unwrap();
    let plan = player.go_plan(&game, 1_000);
    assert_eq!(
        plan.command,
        "go wtime 58900 btime 60000 winc 2000 binc 2000"
    );
    assert_eq!(plan.stop_after, Duration::from_millis(58_900));
    // Art. 6.3.1: a move counter gives movestogo.
    let tc = TimeControl::Periods(vec![
        arbiter_game::Period {
            moves: Some(40),
            time_ms: 5_400_000,
            increment_ms: 0,
            delay: None,
        },
        arbiter_game::Period::new(1_800_000, 30_000),
    ]);
    let mut game = Game::standard(tc);
    game.start(0).unwrap();
    assert_eq!(
        player.go_plan(&game, 0).command,
        "go wtime 5399900 btime 5400000 winc 0 binc 0 movestogo 40"
    );
    // Art. 6.3.2: a delay is free time, sent as increment.
    let tc = TimeControl::Periods(vec![arbiter_game::Period {
        moves: None,
        time_ms: 300_000,
        increment_ms: 0,
        delay: Some(arbiter_game::Delay {
            kind: arbiter_game::DelayKind::Simple,
            ms: 5_000,
        }),
    }]);
    let mut game = Game::standard(tc);
    game.start(0).unwrap();
    let plan = player.go_plan(&game, 2_000);
    assert_eq!(
        plan.command,
        "go wtime 299900 btime 300000 winc 3000 binc 5000"
    );
    assert_eq!(plan.stop_after, Duration::from_millis(302_900));
    // Time per move and untimed: movetime.
    let mut game = Game::standard(TimeControl::PerMove(3_000));
    game.start(0).unwrap();
    assert_eq!(player.go_plan(&game, 500).command, "go movetime 2400");
    let mut game = Game::standard(TimeControl::Untimed);
    game.start(0).unwrap();
    player.set_untimed_think(Duration::from_millis(700));
    assert_eq!(player.go_plan(&game, 0).command, "go movetime 700");
    // A cap on thinking stops the engine early whatever the clock.
    player.set_max_think(Some(Duration::from_millis(250)));
    let mut game = Game::standard(TimeControl::fischer(60_000, 0));
    game.start(0).unwrap();
    assert_eq!(
        player.go_plan(&game, 0).stop_after,
        Duration::from_millis(250)
    );
}

/// Debian's Stockfish 15.1 (`apt-get install stockfish`; another path in
/// `ARBITER_STOCKFISH`) against the built-in engine. Without it the test is skipped, unless
/// `ARBITER_STRICT=1` (CI).
#[test]
#[ignore = "needs /usr/games/stockfish"]
fn stockfish_plays_a_short_game_against_the_builtin_engine() {
    let path = std::env::var("ARBITER_STOCKFISH").unwrap_or("/usr/games/stockfish".into());
    if !Path::new(&path).exists() {
        assert_ne!(
            std::env::var("ARBITER_STRICT").as_deref(),
            Ok("1"),
            "{path} missing"
        );
        eprintln!("skipped: {path} missing");
        return;
    }
    let sf = UciPlayer::start(
        &path,
        &[
            ("Threads", "1"),
            ("Hash", "16"),
            ("UCI_LimitStrength", "true"),
            ("UCI_Elo", "1350"),
        ],
    )
    .unwrap();
    assert!(sf.name().starts_with("Stockfish"), "{}", sf.name());
    let mut players = [
        Opponent::from(EnginePlayer::new(Level::new(5).unwrap())),
        Opponent::from(sf),
    ];
    let mut game = Game::standard(TimeControl::fischer(10_000, 100));
    let plies = play_out(&mut game, &mut players, 120);
    // A real game: 20 plies, or a result by the Laws before them (Stockfish limited to 1350
    // can be mated early: CI once saw a game end in under 20 plies).
    assert!(
        plies >= 20 || game.status() == Status::Finished,
        "{plies} plies, {:?}",
        game.termination()
    );
    // Art. 6.9: neither side lost on time.
    assert_ne!(game.termination(), Some(arbiter_game::Termination::Timeout));
}
