//! The bundled replay against python-chess: for every row of the lichess `chess-openings`
//! `dist` files (columns `eco name pgn uci epd`, the EPD made by python-chess), replaying the
//! `pgn` column with arbiter-rules gives the `epd` column, and the `uci` column gives the
//! same position. Both write the en passant square only when an en passant capture is legal.
//!
//! Needs `ARBITER_DATA` (the shared data folder):
//! `ARBITER_DATA=/work/shared/data cargo test --profile ci -p arbiter-openings --test oracle -- --ignored`

use arbiter_rules::Position;

fn data_dir() -> std::path::PathBuf {
    let data = std::env::var("ARBITER_DATA").expect(
        "ARBITER_DATA must name the shared data folder (e.g. ARBITER_DATA=/work/shared/data)",
    );
    std::path::Path::new(&data).join("oracles/chess-openings/dist-2022")
}

#[test]
#[ignore = "needs ARBITER_DATA (the shared test data folder)"]
fn replay_of_every_dist_line_gives_python_chess_epd() {
    let mut rows = 0;
    let mut named = 0;
    let openings = arbiter_openings::Openings::get();
    for file in ["a", "b", "c", "d", "e"] {
        let path = data_dir().join(format!("{file}.tsv"));
        let text = std::fs::read_to_string(&path).unwrap();
        for (i, line) in text.lines().enumerate().skip(1) {
            let cols: Vec<&str> = line.split('\t').collect();
            assert_eq!(cols.len(), 5, "{file}.tsv:{}", i + 1);
            let (pgn, uci, epd) = (cols[2], cols[3], cols[4]);
            let mut by_san = Position::new();
            for token in pgn.split_whitespace().filter(|t| !t.ends_with('.')) {
                let m = by_san
                    .parse_san(token)
                    .unwrap_or_else(|e| panic!("{file}.tsv:{}: {token}: {e}", i + 1));
                by_san.play_unchecked(m);
            }
            assert_eq!(by_san.epd(), epd, "{file}.tsv:{} SAN {pgn}", i + 1);
            let mut by_uci = Position::new();
            for token in uci.split_whitespace() {
                let m = by_uci
                    .parse_uci(token)
                    .unwrap_or_else(|e| panic!("{file}.tsv:{}: {token}: {e}", i + 1));
                by_uci.play_unchecked(m);
            }
            assert_eq!(by_uci.epd(), epd, "{file}.tsv:{} UCI {uci}", i + 1);
            // Most 2022 lines are still in the current data; their position must be found.
            named += usize::from(openings.lookup(&by_san).is_some());
            rows += 1;
        }
    }
    assert_eq!(rows, 3_373);
    eprintln!("{rows} rows agree with python-chess; {named} positions named in the bundled data");
    assert!(
        named * 10 > rows * 9,
        "only {named} of {rows} positions named"
    );
}
