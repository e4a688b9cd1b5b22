//! Comparing our standings with a tie-break table written by FIDE's checker Gacrux
//! (`StartNo Rank PTS BH … PTP`, tab-separated).

use arbiter_tournament::model::{Points, StartNo, Tournament};
use arbiter_tournament::tiebreak::{standings, Rules, StandingsConfig, TieBreak};

/// How a comparison went: values compared, and a line for every one that differs.
pub struct Comparison {
    pub players: usize,
    pub compared: usize,
    pub mismatches: Vec<String>,
}

/// Computes the standings with the tie-breaks the table's header names, in its order, and
/// compares the rank and every value.
pub fn compare_with_gacrux(tournament: &Tournament, tsv: &str, rules: Rules) -> Comparison {
    let mut lines = tsv.lines();
    let header: Vec<&str> = lines.next().expect("a header").split('\t').collect();
    assert_eq!(&header[..2], &["StartNo", "Rank"]);
    let tie_breaks: Vec<TieBreak> = header[2..].iter().map(|h| h.parse().unwrap()).collect();
    let config = StandingsConfig {
        rules,
        tie_breaks: tie_breaks.clone(),
        ..StandingsConfig::default()
    };
    let table = standings(tournament, &config);
    let mut comparison = Comparison {
        players: 0,
        compared: 0,
        mismatches: Vec::new(),
    };
    for line in lines.filter(|l| !l.trim().is_empty()) {
        let fields: Vec<&str> = line.split('\t').collect();
        let start_no: u32 = fields[0].parse().unwrap();
        let row = table.row(StartNo(start_no)).expect("every player ranked");
        comparison.players += 1;
        let mut check = |column: &str, expected: &str, ours: Option<Points>| {
            comparison.compared += 1;
            let equal = match (expected.parse::<Points>(), ours) {
                (Ok(e), Some(o)) => e == o,
                (Err(_), None) => expected.trim().is_empty(),
                _ => false,
            };
            if !equal {
                let ours = ours.map(|o| o.to_string()).unwrap_or_default();
                comparison.mismatches.push(format!(
                    "player {start_no} {column}: Gacrux {expected}, ours {ours}"
                ));
            }
        };
        check(
            "Rank",
            fields[1],
            Some(Points::from_int(i64::from(row.rank))),
        );
        for (i, tie_break) in tie_breaks.iter().enumerate() {
            check(&tie_break.to_string(), fields[i + 2], row.values[i]);
        }
    }
    comparison
}
