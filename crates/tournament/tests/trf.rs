//! TRF: files read and written back unchanged, every record pairing programs add, problems
//! named by line and column, and no input that makes the reader panic.

use std::path::{Path, PathBuf};

use arbiter_tournament::model::{Bye, Colour, Points, RoundEntry, ScoringSystem, StartNo};
use arbiter_tournament::tiebreak::{standings, StandingsConfig};
use arbiter_tournament::trf::{self, Severity};
use proptest::prelude::*;

fn repository_file(name: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data")
            .join(name),
    )
    .unwrap()
}

/// The `001` lines of a file, whatever its line ends.
fn player_lines(text: &str) -> Vec<String> {
    text.split(['\r', '\n'])
        .filter(|l| l.starts_with("001"))
        .map(str::to_string)
        .collect()
}

/// Read, write, read again: the same tournament, and the same player lines as the original.
fn assert_round_trip(name: &str, bytes: &[u8]) {
    let original = String::from_utf8(bytes.to_vec()).unwrap();
    let first = trf::read(&original);
    assert!(
        first.diagnostics.is_empty(),
        "{name}: {:?}",
        first.diagnostics
    );
    let written = trf::write(&first.tournament);
    assert_eq!(player_lines(&written), player_lines(&original), "{name}");
    let second = trf::read(&written);
    assert!(
        second.diagnostics.is_empty(),
        "{name}: {:?}",
        second.diagnostics
    );
    assert_eq!(second.tournament, first.tournament, "{name}");
    assert_eq!(trf::write(&second.tournament), written, "{name}");
}

#[test]
fn trf_files_in_the_repository_round_trip_byte_for_byte() {
    for name in [
        "t0019.trf",
        "t0102.trf",
        "t0109.trf",
        "fide-exercise-2024.trf",
    ] {
        assert_round_trip(name, &repository_file(name));
    }
}

#[test]
#[ignore = "needs ARBITER_DATA (the shared test data folder)"]
fn trf_all_120_shared_tournaments_round_trip_byte_for_byte() {
    let dir = PathBuf::from(std::env::var("ARBITER_DATA").expect("ARBITER_DATA"))
        .join("tournaments/dutch");
    let mut count = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "trf") {
            assert_round_trip(&path.display().to_string(), &std::fs::read(&path).unwrap());
            count += 1;
        }
    }
    assert_eq!(count, 120);
}

#[test]
fn trf_reads_the_header_and_pairing_program_records() {
    let text = "012 Spring Open\r\n\
022 Prague\r\n\
042 2026/04/01\r\n\
052 2026/04/05\r\n\
092 FIDE_DUTCH_2025\r\n\
102 Jana Novakova\r\n\
001    1 m  g Novak, Jan                        2600 CZE     1234567 1990/01/01  1.0    1     2 w 1\r\n\
001    2 w wm Svobodova, Eva                    2300 CZE      765432 2001        0.0    2     1 b 0\r\n\
001    3      Late, Entry                                                        0.0    3\r\n\
XXR 7\r\n\
XXC black1\r\n\
162 W 3.0    D 1.0    L 0.0\r\n\
260   2   4    1    2\r\n\
XXP 1 3\r\n\
240 H   2    3\r\n";
    let read = trf::read(text);
    assert!(read.diagnostics.is_empty(), "{:?}", read.diagnostics);
    let t = read.tournament;
    assert_eq!(t.name, "Spring Open");
    assert_eq!(t.city, "Prague");
    assert_eq!(t.planned_rounds, Some(7));
    assert_eq!(t.initial_colour, Some(Colour::Black));
    assert_eq!(t.scoring, ScoringSystem::three_one_zero());
    assert!(t.is_forbidden(StartNo(1), StartNo(2), 3));
    assert!(!t.is_forbidden(StartNo(1), StartNo(2), 5));
    assert!(t.is_forbidden(StartNo(3), StartNo(1), 9));
    let jan = t.player(StartNo(1)).unwrap();
    assert_eq!(jan.title.as_ref().unwrap().to_string(), "GM");
    assert_eq!((jan.rating, jan.fide_id), (Some(2600), Some(1234567)));
    assert_eq!(jan.federation, "CZE");
    assert_eq!(jan.birth_date, "1990/01/01");
    assert_eq!(t.points_after(jan, 1), Points::from_int(3));
    // A late entry: nothing in round 1, a half-point bye announced for round 2.
    let late = t.player(StartNo(3)).unwrap();
    assert_eq!(late.entry(1), RoundEntry::NotPaired);
    assert_eq!(late.entry(2), RoundEntry::Bye(Bye::HalfPoint));
    assert_eq!(late.first_round(), Some(2));
    // Written and read again: the same tournament.
    let again = trf::read(&trf::write(&t));
    assert!(again.diagnostics.is_empty(), "{:?}", again.diagnostics);
    assert_eq!(again.tournament, t);
}

#[test]
fn trf_errors_name_line_and_column_and_the_rest_is_read() {
    let text = "012 Broken\n\
001    1      A                                 2000                             1.0    1     2 w 1     3 x 1\n\
001    x      B\n\
XYZ what is this\n\
001    2      B                                 20O0                             0.0    2     1 b 0\n\
XXR many\n";
    let read = trf::read(text);
    let found: Vec<(usize, usize, Severity)> = read
        .diagnostics
        .iter()
        .map(|d| (d.line, d.column, d.severity))
        .collect();
    // Line 2: round 2's colour `x` at column 107. Line 3: the start number at column 5.
    // Line 4: an unknown record (warning). Line 5: the rating at column 49. Line 6: XXR.
    assert_eq!(
        found,
        vec![
            (2, 107, Severity::Error),
            (3, 5, Severity::Error),
            (4, 1, Severity::Warning),
            (5, 49, Severity::Error),
            (6, 5, Severity::Error),
        ],
        "{:#?}",
        read.diagnostics
    );
    assert!(read.diagnostics[0]
        .to_string()
        .starts_with("line 2, column 107: error: round 2"));
    // What could be read was: both players, the game of round 1.
    let t = read.tournament;
    assert_eq!(t.players.len(), 2);
    assert_eq!(t.player(StartNo(2)).unwrap().rating, None);
    assert_eq!(
        t.player(StartNo(1)).unwrap().entry(2),
        RoundEntry::NotPaired
    );
    assert!(t.check().is_empty());
}

#[test]
fn trf_reports_pairings_whose_sides_disagree() {
    let text = "001    1      A                                                                  1.0          2 w 1\n\
001    2      B                                                                  1.0          1 w 1\n";
    let read = trf::read(text);
    assert_eq!(read.diagnostics.len(), 2, "{:?}", read.diagnostics);
    assert!(read.diagnostics.iter().all(|d| d.column == 92));
}

#[test]
fn trf_latin_1_files_are_read_with_a_warning() {
    let mut bytes = b"012 Turnier in K".to_vec();
    bytes.push(0xF6); // ö in Latin-1
    bytes.extend_from_slice(b"ln\n");
    let read = trf::read_bytes(&bytes);
    assert_eq!(read.tournament.name, "Turnier in Köln");
    assert_eq!(read.diagnostics.len(), 1);
    assert_eq!(read.diagnostics[0].severity, Severity::Warning);
}

/// Reads anything; whatever is read is written, and reading and writing that again changes
/// nothing; the standings of whatever was read can be computed.
fn check_any_input(bytes: &[u8]) {
    let read = trf::read_bytes(bytes);
    let written = trf::write(&read.tournament);
    let again = trf::read(&written);
    assert_eq!(trf::write(&again.tournament), written);
    let _ = standings(&read.tournament, &StandingsConfig::default());
    let _ = read.tournament.check();
}

/// A valid file to mangle.
fn sample() -> Vec<u8> {
    repository_file("t0109.trf")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn trf_random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        check_any_input(&bytes);
    }

    #[test]
    fn trf_mangled_files_never_panic(
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0u8..4), 1..20)
    ) {
        let mut bytes = sample();
        for (at, byte, kind) in edits {
            if bytes.is_empty() {
                break;
            }
            let i = at.index(bytes.len());
            match kind {
                0 => bytes[i] = byte,
                1 => bytes.insert(i, byte),
                2 => { bytes.remove(i); }
                // A character TRF gives meaning to, in a place where it may confuse.
                _ => bytes[i] = b" 0123456789wb-+=UFHZ\r\n"[usize::from(byte) % 22],
            }
        }
        check_any_input(&bytes);
    }
}
