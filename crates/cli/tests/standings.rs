//! `arbiter standings --json` and `arbiter pair --berger` as other programs see them: the
//! standings of a tournament checked by FIDE's checker Gacrux equal its table.

use std::path::PathBuf;
use std::process::Command;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tournament/tests/data")
        .join(name)
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

#[test]
fn standings_json_equals_gacrux_table() {
    for name in ["t0109", "t0102"] {
        let trf = data(&format!("{name}.trf"));
        let (out, err, code) = arbiter(&["standings", trf.to_str().unwrap(), "--json"]);
        assert_eq!(code, 0, "{err}");
        let rows: Vec<serde_json::Value> = serde_json::from_str(&out).unwrap();
        let tsv = std::fs::read_to_string(data(&format!("{name}.tb2026.tsv"))).unwrap();
        let mut lines = tsv.lines();
        let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
        let mut compared = 0;
        for line in lines {
            let fields: Vec<&str> = line.split('\t').collect();
            let start_no: u64 = fields[0].parse().unwrap();
            let row = rows
                .iter()
                .find(|r| r["start_no"] == start_no)
                .unwrap_or_else(|| panic!("{name}: player {start_no} missing"));
            assert_eq!(row["rank"].as_u64().unwrap().to_string(), fields[1]);
            for (column, expected) in header[2..].iter().zip(&fields[2..]) {
                let ours = row["tiebreaks"][column].as_f64().unwrap();
                let expected: f64 = expected.parse().unwrap();
                assert!(
                    (ours - expected).abs() < 1e-9,
                    "{name}: player {start_no} {column}: Gacrux {expected}, ours {ours}"
                );
                compared += 1;
            }
        }
        assert!(compared > 100);
        // Best first.
        let ranks: Vec<u64> = rows.iter().map(|r| r["rank"].as_u64().unwrap()).collect();
        assert!(ranks.windows(2).all(|w| w[0] <= w[1]));
    }
}

#[test]
fn standings_chosen_tie_breaks_and_rules() {
    let trf = data("fide-exercise-2024.trf");
    let trf = trf.to_str().unwrap();
    let bh_of_11 = |rules: &str| {
        let (out, err, code) = arbiter(&[
            "standings",
            trf,
            "--tiebreaks",
            "BH,BH/C1",
            "--rules",
            rules,
            "--json",
        ]);
        assert_eq!(code, 0, "{err}");
        let rows: Vec<serde_json::Value> = serde_json::from_str(&out).unwrap();
        let row = rows.iter().find(|r| r["start_no"] == 11).unwrap();
        let keys: Vec<&String> = row["tiebreaks"].as_object().unwrap().keys().collect();
        assert_eq!(keys, ["PTS", "BH", "BH/C1"]);
        row["tiebreaks"]["BH"].as_f64().unwrap()
    };
    assert_eq!(bh_of_11("2024"), 13.5);
    assert_eq!(bh_of_11("2026"), 12.5);
    let (out, _, code) = arbiter(&["standings", trf, "--tiebreaks", "BH/C1,SB"]);
    assert_eq!(code, 0);
    let header = out.lines().next().unwrap();
    assert!(
        header
            .split_whitespace()
            .eq(["Rank", "No", "Name", "PTS", "BH/C1", "SB"]),
        "{header}"
    );
    assert_eq!(out.lines().count(), 17);
}

#[test]
fn standings_bad_input_is_named() {
    let (_, err, code) = arbiter(&["standings", "/nonexistent.trf"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot read /nonexistent.trf"), "{err}");
    let (_, err, code) = arbiter(&[
        "standings",
        data("t0109.trf").to_str().unwrap(),
        "--tiebreaks",
        "XX",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown tie-break"), "{err}");
    let dir = std::env::temp_dir().join(format!("arbiter-standings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let broken = dir.join("broken.trf");
    std::fs::write(&broken, "001    1      A                                                                  1.0          2 x 1\n").unwrap();
    let (out, err, code) = arbiter(&["standings", broken.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(err.contains("line 1, column 97: error: round 1"), "{err}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn pair_berger_prints_the_c05_tables() {
    let (out, err, code) = arbiter(&["pair", "--berger", "4"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "Round 1: 1-4  2-3\nRound 2: 4-3  1-2\nRound 3: 2-4  3-1\n"
    );
    let (out, _, code) = arbiter(&["pair", "--berger", "3", "--double", "--json"]);
    assert_eq!(code, 0);
    let rounds: Vec<Vec<[u32; 2]>> = serde_json::from_str(&out).unwrap();
    assert_eq!(rounds.len(), 6);
    assert_eq!(rounds[0], [[1, 0], [2, 3]]);
    assert_eq!(rounds[3], [[1, 0], [3, 2]]);
}
