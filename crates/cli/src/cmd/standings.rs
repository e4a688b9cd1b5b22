//! `arbiter standings IN.trf [--tiebreaks BH/C1,SB,DE] [--rules 2024|2026] [--json]`: the
//! final standings of a tournament with its tie-breaks (FIDE C.07), named by their
//! abbreviations.

use anyhow::{bail, Context, Result};
use arbiter_tournament::model::Tournament;
use arbiter_tournament::tiebreak::{standings, Rules, Standings, StandingsConfig, TieBreak};
use arbiter_tournament::trf::{self, Severity};
use clap::Parser;
use std::io::Write;
use std::process::ExitCode;

/// Arguments of `arbiter standings`.
#[derive(Parser)]
pub struct Args {
    /// A tournament report file (TRF-2026 or TRF-16).
    file: String,
    /// Tie-breaks in the competition's order, by their C.07 abbreviations, comma-separated
    /// (PTS BH BH/C1 BH/C2 BH/M1 SB DE WIN WON BPG BWG GE ARO TPR PTP KS); all but KS when
    /// absent. Points are always the first criterion.
    #[arg(long, value_delimiter = ',')]
    tiebreaks: Option<Vec<TieBreak>>,
    /// The edition of the tie-break regulations: 2026 (in force from 1 March 2026) or 2024.
    #[arg(long, default_value = "2026")]
    rules: Rules,
    /// Print `[{"start_no":1,"rank":3,"tiebreaks":{"PTS":6.0,"BH":34.5,…}},…]`, best first.
    #[arg(long)]
    json: bool,
}

/// Runs the command.
pub fn run(args: Args) -> Result<ExitCode> {
    let tournament = read_tournament(&args.file)?;
    let mut tie_breaks = args.tiebreaks.unwrap_or_else(TieBreak::all);
    if !tie_breaks.contains(&TieBreak::Points) {
        tie_breaks.insert(0, TieBreak::Points);
    }
    let config = StandingsConfig {
        rules: args.rules,
        tie_breaks,
        ..StandingsConfig::default()
    };
    let table = standings(&tournament, &config);
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", serde_json::to_string(&json(&table))?)?;
    } else {
        write!(out, "{}", text(&tournament, &table))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Reads a TRF file; warnings go to standard error, errors stop the command (standings from
/// a file read in part would be wrong).
pub fn read_tournament(path: &str) -> Result<Tournament> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {path}"))?;
    let read = trf::read_bytes(&bytes);
    for diagnostic in &read.diagnostics {
        eprintln!("{path}: {diagnostic}");
    }
    let errors = read
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    if errors > 0 {
        bail!("{path}: {errors} error(s) in the file");
    }
    Ok(read.tournament)
}

fn json(table: &Standings) -> serde_json::Value {
    let rows: Vec<serde_json::Value> = table
        .rows
        .iter()
        .map(|row| {
            let mut values = serde_json::Map::new();
            for (tie_break, value) in table.tie_breaks.iter().zip(&row.values) {
                let number = match value {
                    None => serde_json::Value::Null,
                    Some(v) if tie_break.is_whole_number() => {
                        serde_json::json!(v.ten_thousandths() / 10_000)
                    }
                    Some(v) => serde_json::json!(v.to_f64()),
                };
                values.insert(tie_break.to_string(), number);
            }
            serde_json::json!({"start_no": row.start_no.0, "rank": row.rank, "tiebreaks": values})
        })
        .collect();
    serde_json::Value::Array(rows)
}

fn text(tournament: &Tournament, table: &Standings) -> String {
    let name_width = tournament
        .players
        .iter()
        .map(|p| p.name.chars().count())
        .max()
        .unwrap_or(0)
        .clamp(4, 33);
    let mut header = vec!["Rank".to_string(), "No".to_string(), "Name".to_string()];
    header.extend(table.tie_breaks.iter().map(|t| t.to_string()));
    let mut lines: Vec<Vec<String>> = vec![header];
    for row in &table.rows {
        let name = tournament
            .player(row.start_no)
            .map(|p| p.name.chars().take(name_width).collect())
            .unwrap_or_default();
        let mut line = vec![row.rank.to_string(), row.start_no.to_string(), name];
        for (tie_break, value) in table.tie_breaks.iter().zip(&row.values) {
            line.push(value.map(|v| tie_break.format_value(v)).unwrap_or_default());
        }
        lines.push(line);
    }
    let columns = lines[0].len();
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            lines
                .iter()
                .map(|l| l[c].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for line in &lines {
        let cells: Vec<String> = line
            .iter()
            .enumerate()
            .map(|(c, cell)| {
                if c == 2 {
                    format!("{cell:<width$}", width = widths[c])
                } else {
                    format!("{cell:>width$}", width = widths[c])
                }
            })
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out
}
