//! Differential test against python-chess 1.11 (the reference oracle): for every PGN file of
//! the shared corpus, the number of games and the number of main-line plies of each game must
//! be what python-chess reads.
//!
//! Needs `ARBITER_DATA` (the shared data folder, holding `pgn/`) and `ARBITER_PYTHON` (a
//! Python with python-chess installed), hence ignored by default:
//!
//! ```text
//! ARBITER_DATA=/work/shared/data ARBITER_PYTHON=$PWD/.venv/bin/python \
//!     cargo test -p arbiter-pgn --test differential -- --include-ignored
//! ```
//!
//! Where we differ on purpose, the file is listed in [`DIFFERENT_ON_PURPOSE`] with the reason;
//! for those files only the game count is compared.

use arbiter_pgn::{Control, Reader, Visitor};
use arbiter_rules::{Move, Position};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Files where python-chess and this reader count different main-line plies, and why.
const DIFFERENT_ON_PURPOSE: &[(&str, &str)] = &[
    // python-chess finds moves inside junk with a regular expression ("O-O<br>" -> O-O,
    // "B1d3d7-d5" -> B1d3 and d7-d5, "Qc3w" -> Qc3) and skips what it cannot read. We report
    // the first token that is not a move (game, line, column) and skip the rest of that game.
    (
        "pgn-read/Little_01.pgn",
        "junk tokens (HTML, ';' between moves)",
    ),
    ("pgn-read/Little_02.pgn", "junk tokens"),
    ("pgn-read/Little_05.pgn", "junk tokens"),
    ("pgn-read/Little_06.pgn", "junk tokens"),
    ("pgn-read/Little_07.pgn", "junk tokens"),
    ("pgn-read/Little_08.pgn", "junk tokens"),
    ("pgn-read/Little_09.pgn", "junk tokens"),
    ("pgn-read/Little_10.pgn", "junk tokens"),
    ("pgn-read/Little_11.pgn", "junk tokens"),
    ("pgn-read/Little_12.pgn", "junk tokens"),
    ("pgn-read/Little_13.pgn", "junk tokens"),
    ("pgn-read/Little_14.pgn", "junk tokens"),
    ("pgn-read/Little_15.pgn", "junk tokens"),
    ("pgn-read/Little_16.pgn", "junk tokens"),
    (
        "pgn-read/crafty06_02.pgn",
        "an HTML e-mail: python-chess finds 'moves' in the HTML",
    ),
    (
        "pioz-chess/invalid/0002.pgn",
        "junk word 'INVALIDATING' inside the movetext",
    ),
    ("pioz-chess/invalid/0003.pgn", "junk suffix: 'Qc3w'"),
    // A null move (`Z0`, `--`) is not a move under the Laws (Art. 1.1: the players move
    // alternately); python-chess plays it.
    (
        "python-chess/anastasian-lewis.pgn",
        "null move Z0 in the main line",
    ),
    // Variants are not chess: we report them instead of reading their moves.
    (
        "python-chess/antichess-programfox.pgn",
        "variant: antichess",
    ),
    (
        "python-chess/knightvuillaume-jannlee-zh-lichess.pgn",
        "variant: crazyhouse",
    ),
    (
        "python-chess/saturs-jannlee-zh-lichess.pgn",
        "variant: crazyhouse",
    ),
];

#[derive(Default)]
struct Count {
    plies: usize,
}

impl Visitor for Count {
    type Output = usize;
    fn begin_game(&mut self, _game: u64) {
        self.plies = 0;
    }
    fn mv(&mut self, _before: &Position, _mv: Move) {
        self.plies += 1;
    }
    fn begin_variation(&mut self) -> Control {
        Control::Skip
    }
    fn end_game(&mut self) -> usize {
        self.plies
    }
}

fn ours(path: &Path) -> Vec<usize> {
    let mut reader = Reader::new(std::fs::File::open(path).expect("open"));
    let mut v = Count::default();
    let mut out = Vec::new();
    while let Some(n) = reader.read_game(&mut v).expect("read") {
        out.push(n);
    }
    out
}

#[test]
#[ignore = "needs ARBITER_DATA and ARBITER_PYTHON (python-chess)"]
fn python_chess_reads_the_same_games_and_mainline_plies() {
    let data = PathBuf::from(std::env::var("ARBITER_DATA").expect("ARBITER_DATA"));
    let python = std::env::var("ARBITER_PYTHON").expect("ARBITER_PYTHON");
    let root = data.join("pgn");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/mainline_counts.py");
    let out = Command::new(python)
        .arg(&script)
        .arg(&root)
        .output()
        .expect("run python");
    assert!(
        out.status.success(),
        "python failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let theirs: BTreeMap<String, Vec<usize>> = String::from_utf8(out.stdout)
        .expect("utf-8")
        .lines()
        .map(|l| {
            let mut f = l.split('\t');
            let name = f.next().unwrap().to_owned();
            let games: usize = f.next().unwrap().parse().unwrap();
            let plies: Vec<usize> = f
                .next()
                .unwrap_or("")
                .split(',')
                .filter(|s| !s.is_empty())
                .map(|s| s.parse().unwrap())
                .collect();
            assert_eq!(games, plies.len());
            (name, plies)
        })
        .collect();
    assert!(
        theirs.len() > 1000,
        "expected the whole corpus, got {} files",
        theirs.len()
    );
    let purpose: BTreeMap<&str, &str> = DIFFERENT_ON_PURPOSE.iter().copied().collect();
    let mut failures = Vec::new();
    let (mut games, mut plies) = (0, 0);
    for (name, py) in &theirs {
        let rs = ours(&root.join(name));
        games += rs.len();
        plies += rs.iter().sum::<usize>();
        if rs.len() != py.len() {
            failures.push(format!(
                "{name}: {} games, python-chess {}",
                rs.len(),
                py.len()
            ));
        } else if rs != *py {
            if !purpose.contains_key(name.as_str()) {
                let first = rs.iter().zip(py).position(|(a, b)| a != b).unwrap();
                failures.push(format!(
                    "{name}: game {} has {} plies, python-chess {}",
                    first + 1,
                    rs[first],
                    py[first]
                ));
            }
        } else if purpose.contains_key(name.as_str()) {
            failures.push(format!("{name}: listed as different on purpose but agrees"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The corpus is large: make sure it was really read.
    assert!(
        games > 4000 && plies > 300_000,
        "{games} games, {plies} plies"
    );
}
