//! Exports: the crosstable (JSON, text, CSV), the TRF, the PGN of every game.

use std::sync::Arc;

use arbiter_tournament::model::{Bye, Colour, GameResult, RoundEntry, Tournament};
use arbiter_tournament::tiebreak::Standings;

use super::state::State;
use super::wire::{points, tiebreak_map, CrosstableLine, CrosstableView};
use crate::games::Hub;

/// One crosstable cell as arbiters write it: `3w1`, `5b½`, `4w+`, `U`, `H`, …
pub fn cell(entry: &RoundEntry) -> String {
    let colour = |c: Option<Colour>| match c {
        Some(Colour::White) => "w",
        Some(Colour::Black) => "b",
        None => "",
    };
    match *entry {
        RoundEntry::Game {
            opponent,
            colour: c,
            result,
            ..
        } => format!(
            "{opponent}{}{}",
            colour(Some(c)),
            match result {
                GameResult::Win => "1",
                GameResult::Draw => "½",
                GameResult::Loss => "0",
            }
        ),
        RoundEntry::Pending {
            opponent,
            colour: c,
        } => format!("{opponent}{}*", colour(Some(c))),
        RoundEntry::Forfeit {
            opponent,
            colour: c,
            won,
        } => format!("{opponent}{}{}", colour(c), if won { "+" } else { "-" }),
        RoundEntry::Bye(Bye::PairingAllocated) => "U".into(),
        RoundEntry::Bye(Bye::FullPoint) => "F".into(),
        RoundEntry::Bye(Bye::HalfPoint) => "H".into(),
        RoundEntry::Bye(Bye::ZeroPoint) => "Z".into(),
        RoundEntry::NotPaired => String::new(),
    }
}

/// The crosstable, players by rank.
pub fn crosstable(state: &State, model: &Tournament, table: &Standings) -> CrosstableView {
    let rounds = state.current_round();
    CrosstableView {
        rounds,
        rows: table
            .rows
            .iter()
            .filter_map(|row| {
                let p = model.player(row.start_no)?;
                Some(CrosstableLine {
                    rank: row.rank,
                    no: row.start_no.0,
                    name: p.name.clone(),
                    rating: p.rating,
                    points: points(row.points),
                    results: (1..=rounds).map(|r| cell(&p.entry(r))).collect(),
                    tiebreaks: tiebreak_map(table, &row.values),
                })
            })
            .collect(),
    }
}

fn number(v: Option<f64>) -> String {
    v.map_or_else(String::new, |v| {
        if v.fract() == 0.0 {
            format!("{v:.0}")
        } else {
            format!("{v}")
        }
    })
}

/// One player's cells, as both the text and the CSV crosstable write them: rank, number,
/// name, rating, points, each round's result, the tie-breaks.
fn row_cells(row: &CrosstableLine, tiebreaks: &[String]) -> Vec<String> {
    let mut l = vec![
        row.rank.to_string(),
        row.no.to_string(),
        row.name.clone(),
        row.rating.map(|r| r.to_string()).unwrap_or_default(),
        number(Some(row.points)),
    ];
    l.extend(row.results.iter().cloned());
    l.extend(
        tiebreaks
            .iter()
            .map(|t| number(row.tiebreaks.get(t).copied().flatten())),
    );
    l
}

/// The crosstable as a fixed-width table.
pub fn crosstable_text(x: &CrosstableView, tiebreaks: &[String]) -> String {
    let mut lines: Vec<Vec<String>> = Vec::new();
    let mut head = vec![
        "Rk".to_owned(),
        "No".into(),
        "Name".into(),
        "Rtg".into(),
        "Pts".into(),
    ];
    head.extend((1..=x.rounds).map(|r| format!("R{r}")));
    head.extend(tiebreaks.iter().cloned());
    lines.push(head);
    for row in &x.rows {
        let l = row_cells(row, tiebreaks);
        lines.push(l);
    }
    let cols = lines[0].len();
    let widths: Vec<usize> = (0..cols)
        .map(|c| {
            lines
                .iter()
                .map(|l| l.get(c).map_or(0, |s| s.chars().count()))
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for l in &lines {
        let cells: Vec<String> = l
            .iter()
            .enumerate()
            .map(|(c, s)| {
                if c == 2 {
                    format!("{s:<w$}", w = widths[c])
                } else {
                    format!("{s:>w$}", w = widths[c])
                }
            })
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_owned()
    }
}

/// The crosstable as CSV: `rank,no,name,rating,points,r1,…,<tie-breaks>`.
pub fn crosstable_csv(x: &CrosstableView, tiebreaks: &[String]) -> String {
    let mut head = vec![
        "rank".to_owned(),
        "no".into(),
        "name".into(),
        "rating".into(),
        "points".into(),
    ];
    head.extend((1..=x.rounds).map(|r| format!("r{r}")));
    head.extend(tiebreaks.iter().cloned());
    let mut out = head
        .iter()
        .map(|s| csv_field(s))
        .collect::<Vec<_>>()
        .join(",");
    out.push('\n');
    for row in &x.rows {
        let l = row_cells(row, tiebreaks);
        out.push_str(&l.iter().map(|s| csv_field(s)).collect::<Vec<_>>().join(","));
        out.push('\n');
    }
    out
}

/// Every online game of the tournament in PGN, round by round and board by board, with the
/// tournament's name as `Event` and `round.board` as `Round`.
pub async fn pgn(hub: &Arc<Hub>, state: &State) -> String {
    let name = state.settings().name.replace(['"', '\\'], "");
    let mut out = String::new();
    for r in &state.rounds {
        for b in &r.boards {
            let Some(game) = &b.paired.game else { continue };
            let Ok(text) = hub.pgn(game).await else {
                continue;
            };
            let mut has_round = false;
            for line in text.lines() {
                if line.starts_with("[Event ") {
                    out.push_str(&format!("[Event \"{name}\"]\n"));
                } else if line.starts_with("[Round ") {
                    has_round = true;
                    out.push_str(&format!("[Round \"{}.{}\"]\n", r.round, b.paired.board));
                } else {
                    if !has_round && line.starts_with("[White ") {
                        has_round = true;
                        out.push_str(&format!("[Round \"{}.{}\"]\n", r.round, b.paired.board));
                    }
                    out.push_str(line);
                    out.push('\n');
                }
            }
            if !out.ends_with("\n\n") {
                out.push('\n');
            }
        }
    }
    out
}
