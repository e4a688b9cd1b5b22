//! `arbiter pair --dutch IN.trf -p [OUT.txt]` and `-c` as programs that call bbpPairings or
//! JaVaFo see them: the output format, the check of a whole file, and errors (a message on
//! standard error, exit status 1, no output file).

use std::path::{Path, PathBuf};
use std::process::Command;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tournament/tests/data")
        .join(name)
}

/// A fresh folder for this test's files.
fn scratch(test: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("arbiter-pair-dutch-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn arbiter(args: &[&str]) -> (String, String, i32) {
    let output = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .output()
        .expect("arbiter runs");
    (
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
        output.status.code().unwrap_or(-1),
    )
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `t0109` (9 players, 7 rounds, every round bbpPairings' pairing) cut after round 3, with
/// the number of rounds and the initial colour as a pairing program is given them.
fn t0109_after_round_3(dir: &Path) -> PathBuf {
    let text = std::fs::read_to_string(data("t0109.trf")).unwrap();
    let mut cut = String::new();
    for line in text.split(['\r', '\n']).filter(|l| !l.is_empty()) {
        if line.starts_with("001") {
            // Rounds from column 92, ten characters each: three rounds end at column 119.
            cut.push_str(&line[..119]);
        } else {
            cut.push_str(line);
        }
        cut.push('\n');
    }
    cut.push_str("XXR 7\nXXC white1\n");
    let file = dir.join("t0109-r3.trf");
    std::fs::write(&file, cut).unwrap();
    file
}

#[test]
fn pairs_the_next_round_as_bbppairings_writes_it() {
    let dir = scratch("pairs");
    let input = t0109_after_round_3(&dir);
    let (out, err, code) = arbiter(&["pair", "--dutch", path(&input), "-p"]);
    assert_eq!(code, 0, "{err}");
    // Round 4 of t0109 as bbpPairings paired it: 3-1, 5-7, 2-8, 9-6, and 4 the bye; boards
    // by the score and rank of their higher player (C.04.2), the bye last.
    assert_eq!(out, "5\n3 1\n5 7\n2 8\n9 6\n4 0\n");
    assert!(err.is_empty(), "{err}");

    // To a file: the same text, nothing on standard output.
    let output = dir.join("out.txt");
    let (out, err, code) = arbiter(&["pair", "--dutch", path(&input), "-p", path(&output)]);
    assert_eq!(code, 0, "{err}");
    assert!(out.is_empty());
    assert_eq!(
        std::fs::read_to_string(&output).unwrap(),
        "5\n3 1\n5 7\n2 8\n9 6\n4 0\n"
    );

    // --explain: the pairing, then how it was made.
    let (out, err, code) = arbiter(&["pair", "--dutch", path(&input), "-p", "--explain"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("5\n3 1\n5 7\n2 8\n9 6\n4 0\n") && out.lines().count() > 6);
}

#[test]
fn check_finds_every_round_of_a_bbppairings_file_identical() {
    let input = data("t0109.trf");
    let (out, err, code) = arbiter(&["pair", "--dutch", path(&input), "-c"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.ends_with("t0109.trf: 7 rounds checked: all identical\n"),
        "{out}"
    );
}

#[test]
fn check_lists_a_round_that_differs_and_fails() {
    let dir = scratch("check");
    // t0109 with round 1's colours swapped on the third board (3-7 becomes 7-3).
    let text = std::fs::read_to_string(data("t0109.trf")).unwrap();
    let mut changed = String::new();
    for line in text.split('\r').filter(|l| !l.is_empty()) {
        let line = if line.starts_with("001    3 ") {
            line.replacen("   7 w 1", "   7 b 1", 1)
        } else if line.starts_with("001    7 ") {
            line.replacen("   3 b 0", "   3 w 0", 1)
        } else {
            line.to_string()
        };
        changed.push_str(&line);
        changed.push('\n');
    }
    let input = dir.join("t0109-swapped.trf");
    std::fs::write(&input, changed).unwrap();
    let (out, err, code) = arbiter(&["pair", "--dutch", path(&input), "-c"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("round 1 differs: file 7-3 | arbiter 3-7"),
        "{out}"
    );
    assert!(out.contains("7 rounds checked:"), "{out}");
}

#[test]
fn an_unreadable_file_is_an_error_and_writes_nothing() {
    let dir = scratch("unreadable");
    let output = dir.join("out.txt");
    let missing = dir.join("missing.trf");
    let (out, err, code) = arbiter(&["pair", "--dutch", path(&missing), "-p", path(&output)]);
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert!(err.contains("missing.trf: cannot read the file"), "{err}");
    assert!(!output.exists());
}

#[test]
fn a_trf_error_is_named_by_file_line_and_column_and_writes_nothing() {
    let dir = scratch("trf-error");
    let input = dir.join("bad.trf");
    std::fs::write(
        &input,
        "012 Bad\n\
XXR 5\n\
001    1      A                                 2000                             1.0    1     2 w 1\n\
001    2      B                                 1900                             0.0    2     1 x 0\n",
    )
    .unwrap();
    let output = dir.join("out.txt");
    let (out, err, code) = arbiter(&["pair", "--dutch", path(&input), "-p", path(&output)]);
    assert_eq!(code, 1);
    assert!(out.is_empty());
    // The colour of player 2's round 1, column 97.
    assert!(
        err.contains("bad.trf:4:97: error: round 1: expected the colour w, b or -"),
        "{err}"
    );
    assert!(!output.exists());
    // -c reads the file the same way.
    let (_, err, code) = arbiter(&["pair", "--dutch", path(&input), "-c"]);
    assert_eq!(code, 1);
    assert!(err.contains("bad.trf:4:97: error:"), "{err}");
}

#[test]
fn a_record_that_would_change_the_pairing_is_refused() {
    let dir = scratch("acceleration");
    let input = dir.join("accelerated.trf");
    std::fs::write(
        &input,
        "012 Accelerated\n\
XXR 5\n\
XXA    1  1.0\n\
001    1      A                                 2000                             0.0    1\n\
001    2      B                                 1900                             0.0    2\n",
    )
    .unwrap();
    let (out, err, code) = arbiter(&["pair", "--dutch", path(&input), "-p"]);
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert!(err.contains("accelerated.trf:3:1: error:"), "{err}");
    assert!(err.contains("would change the pairing"), "{err}");
}

#[test]
fn a_round_that_cannot_be_paired_is_an_error_and_writes_nothing() {
    let dir = scratch("unpairable");
    // Two players who have met: the absolute criteria leave no pairing for round 2.
    let input = dir.join("met.trf");
    std::fs::write(
        &input,
        "012 Met\n\
XXR 2\n\
XXC white1\n\
001    1      A                                 2000                             1.0    1     2 w 1\n\
001    2      B                                 1900                             0.0    2     1 b 0\n",
    )
    .unwrap();
    let output = dir.join("out.txt");
    let (out, err, code) = arbiter(&["pair", "--dutch", path(&input), "-p", path(&output)]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.is_empty());
    assert!(err.contains("met.trf: round 2:"), "{err}");
    assert!(!output.exists());
}

#[test]
fn a_finished_tournament_has_no_next_round() {
    let dir = scratch("finished");
    let text = std::fs::read_to_string(data("t0109.trf")).unwrap();
    let input = dir.join("t0109-xxr.trf");
    std::fs::write(&input, format!("{text}\rXXR 7\r")).unwrap();
    let (out, err, code) = arbiter(&["pair", "--dutch", path(&input), "-p"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.is_empty());
    assert!(err.contains("all 7 rounds (XXR) are paired"), "{err}");
}

#[test]
fn berger_still_works_and_options_of_one_system_are_refused_with_the_other() {
    let (out, err, code) = arbiter(&["pair", "--berger", "4"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("Round 1: "), "{out}");
    let (_, _, code) = arbiter(&["pair", "--berger", "4", "-c"]);
    assert_eq!(code, 2);
    let (_, _, code) = arbiter(&["pair", "--dutch", "x.trf", "--double"]);
    assert_eq!(code, 2);
    let (_, _, code) = arbiter(&["pair", "--dutch", "x.trf", "-c", "-p"]);
    assert_eq!(code, 2);
    let (_, _, code) = arbiter(&["pair"]);
    assert_eq!(code, 2);
}
