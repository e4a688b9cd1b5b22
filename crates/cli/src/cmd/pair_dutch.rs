//! `arbiter pair --dutch IN.trf -p [OUT.txt]` and `arbiter pair --dutch IN.trf -c`: the FIDE
//! Dutch system (C.04.3) with the command line and output of bbpPairings and JaVaFo, so that
//! programs which call those can call Arbiter.
//!
//! `-p` pairs the round after the last one paired in the file (the players with an announced
//! bye for it — `H`, `F`, `Z`, `0000 - -` — sit out; everyone else is paired) and writes the
//! number of pairs, then `white black` per board and `player 0` for the pairing-allocated bye.
//! `-c` pairs every round of the file again from the rounds before it, as bbpPairings' checker
//! does (a player not paired in a round took no part in it), and lists the rounds that differ.
//!
//! A file that cannot be read, a TRF error (named `file:line:column`), a record asking for
//! something the engine does not do (acceleration, pairing by rank, other scoring records), or
//! a round that cannot be paired: a message on standard error, exit status 1, no output file.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Result;
use arbiter_tournament::dutch::{self, RoundPairing};
use arbiter_tournament::model::{Bye, Pairing, RoundEntry, Tournament};
use arbiter_tournament::trf::{self, Severity};

/// What to do with the file.
pub enum Mode {
    /// Pair the next round; write it to the file, or to standard output when `None`.
    Pair(Option<PathBuf>),
    /// Pair every round again and list those that differ from the file.
    Check,
}

/// Runs `arbiter pair --dutch`.
///
/// # Errors
///
/// Only when writing to standard output fails; every other failure is reported on standard
/// error and gives exit status 1.
pub fn run(input: &Path, mode: Mode, explain: bool) -> Result<ExitCode> {
    let name = input.display().to_string();
    let Some(tournament) = read_tournament(input, &name) else {
        return Ok(ExitCode::FAILURE);
    };
    match mode {
        Mode::Pair(output) => pair_next_round(&name, &tournament, output.as_deref(), explain),
        Mode::Check => check_every_round(&name, &tournament, explain),
    }
}

/// Reads the TRF file, printing every diagnostic as `file:line:column: severity: message`.
/// `None` when the file cannot be read, has errors, or asks for what the engine does not do.
fn read_tournament(path: &Path, name: &str) -> Option<Tournament> {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("arbiter: {name}: cannot read the file: {e}");
            return None;
        }
    };
    let read = trf::read_bytes(&bytes);
    let text = String::from_utf8_lossy(&bytes);
    let lines = split_lines(&text);
    let mut fatal = 0;
    for d in &read.diagnostics {
        let record = lines.get(d.line.wrapping_sub(1)).copied().unwrap_or("");
        let unsupported = d.severity == Severity::Warning && changes_the_pairing(record);
        let severity = match d.severity {
            Severity::Error => "error",
            Severity::Warning if unsupported => "error",
            Severity::Warning => "warning",
        };
        let mut message = d.message.clone();
        if unsupported {
            message.push_str(" (it would change the pairing, so the file is not paired)");
        }
        eprintln!("{name}:{}:{}: {severity}: {message}", d.line, d.column);
        if d.severity == Severity::Error || unsupported {
            fatal += 1;
        }
    }
    if fatal > 0 {
        eprintln!("arbiter: {name}: {fatal} error(s) in the file; nothing paired");
        return None;
    }
    Some(read.tournament)
}

/// Whether a record the reader skipped would change a pairing program's result: accelerations
/// (`XXA`, `250`), options of `XXC` other than the initial colour (`rank`), JaVaFo's point
/// system (`XXS`), abnormal points (`299`), a tournament type other than the plain Dutch
/// system (`192`, e.g. `FIDE_DUTCH_2025_BAKU`).
fn changes_the_pairing(line: &str) -> bool {
    let code: String = line.chars().take(3).collect();
    match code.as_str() {
        "XXA" | "250" | "XXC" | "XXS" | "299" => true,
        "192" => !matches!(
            line.get(4..).map(str::trim),
            Some("FIDE_DUTCH_2025" | "FIDE_DUTCH")
        ),
        _ => false,
    }
}

/// The lines of a file as the TRF reader numbers them: CR, LF and CR LF each end one.
fn split_lines(text: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    let mut rest = text;
    while let Some(end) = rest.find(['\r', '\n']) {
        lines.push(&rest[..end]);
        let skip = if rest[end..].starts_with("\r\n") {
            2
        } else {
            1
        };
        rest = &rest[end + skip..];
    }
    if !rest.is_empty() {
        lines.push(rest);
    }
    lines
}

/// `-p`: pairs the round after the last one paired and writes it.
fn pair_next_round(
    name: &str,
    tournament: &Tournament,
    output: Option<&Path>,
    explain: bool,
) -> Result<ExitCode> {
    let round = tournament.rounds_paired() + 1;
    if let Some(planned) = tournament.planned_rounds.filter(|&planned| round > planned) {
        eprintln!(
            "arbiter: {name}: all {planned} rounds (XXR) are paired; no round {round} to pair"
        );
        return Ok(ExitCode::FAILURE);
    }
    let mut cut = tournament.cut_after(round - 1);
    if cut.planned_rounds.is_none() {
        eprintln!(
            "{name}: warning: no XXR record (the number of rounds): round {round} is paired as if \
             it were not one of the last"
        );
    }
    cut.initial_colour = tournament.initial_colour_or_inferred();
    if cut.initial_colour.is_none() {
        eprintln!(
            "{name}: warning: no XXC record (white1 or black1): the top player gets white in round 1"
        );
    }
    let pairing = match dutch::pair(&cut, round) {
        Ok(pairing) => pairing,
        Err(e) => {
            eprintln!("arbiter: {name}: round {round}: {e}");
            return Ok(ExitCode::FAILURE);
        }
    };
    let text = pairs_text(&pairing);
    let mut out = std::io::stdout().lock();
    match output {
        None => out.write_all(text.as_bytes())?,
        Some(path) => {
            if let Err(e) = std::fs::write(path, &text) {
                eprintln!("arbiter: {}: cannot write the pairing: {e}", path.display());
                return Ok(ExitCode::FAILURE);
            }
        }
    }
    if explain {
        for line in &pairing.explanation {
            writeln!(out, "{line}")?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The pairing as bbpPairings and JaVaFo write it: the number of pairs (the bye counts as
/// one), `white black` per board in board order, then `player 0` for the bye.
fn pairs_text(pairing: &RoundPairing) -> String {
    let mut text = String::new();
    let pairs = pairing.boards.len() + usize::from(pairing.bye.is_some());
    let _ = writeln!(text, "{pairs}");
    for board in &pairing.boards {
        let _ = writeln!(text, "{} {}", board.white, board.black);
    }
    if let Some(player) = pairing.bye {
        let _ = writeln!(text, "{player} 0");
    }
    text
}

/// `-c`: pairs every round again from the rounds before it and lists those that differ.
fn check_every_round(name: &str, tournament: &Tournament, explain: bool) -> Result<ExitCode> {
    let rounds = tournament.rounds_paired();
    let mut out = std::io::stdout().lock();
    if rounds == 0 {
        writeln!(out, "{name}: no round has been paired; nothing to check")?;
        return Ok(ExitCode::SUCCESS);
    }
    let planned_rounds = tournament.planned_rounds.unwrap_or(rounds);
    let colour = tournament.initial_colour_or_inferred();
    let mut differ = Vec::new();
    for round in 1..=rounds {
        let mut cut = tournament.cut_after(round - 1);
        // As bbpPairings' checker: a player with nothing in this round took no part in it.
        for (player, original) in cut.players.iter_mut().zip(&tournament.players) {
            if original.entry(round) == RoundEntry::NotPaired {
                player.set_entry(round, RoundEntry::Bye(Bye::ZeroPoint));
            }
        }
        cut.planned_rounds = Some(planned_rounds);
        cut.initial_colour = colour;
        match dutch::pair(&cut, round) {
            Ok(pairing) => {
                if let Some(diff) = difference(tournament, round, &pairing) {
                    writeln!(out, "{name}: round {round} differs: {diff}")?;
                    if explain {
                        for line in &pairing.explanation {
                            writeln!(out, "  {line}")?;
                        }
                    }
                    differ.push(round);
                }
            }
            Err(e) => {
                writeln!(out, "{name}: round {round}: arbiter cannot pair it: {e}")?;
                differ.push(round);
            }
        }
    }
    if differ.is_empty() {
        writeln!(out, "{name}: {rounds} rounds checked: all identical")?;
        Ok(ExitCode::SUCCESS)
    } else {
        let list: Vec<String> = differ.iter().map(u32::to_string).collect();
        writeln!(
            out,
            "{name}: {rounds} rounds checked: {} identical, {} differ ({})",
            rounds as usize - differ.len(),
            differ.len(),
            list.join(", ")
        )?;
        Ok(ExitCode::FAILURE)
    }
}

/// The boards and bye only one side has, `file 1-6 7-2 bye 9 | arbiter 1-5 2-7 bye 6`, or
/// `None` when the pairing is the recorded one. A recorded board without colours (a forfeit
/// written without them) matches either way round.
fn difference(tournament: &Tournament, round: u32, pairing: &RoundPairing) -> Option<String> {
    let ours: BTreeSet<(u32, u32)> = pairing
        .boards
        .iter()
        .map(|b| (b.white.0, b.black.0))
        .collect();
    let mut matched = BTreeSet::new();
    let mut file_only = String::new();
    let mut recorded_bye = None;
    for recorded in tournament.pairings(round) {
        match recorded {
            Pairing::Board {
                white,
                black,
                entry,
            } => {
                let (w, b) = (white.0, black.0);
                if ours.contains(&(w, b)) {
                    matched.insert((w, b));
                } else if entry.colour().is_none() && ours.contains(&(b, w)) {
                    matched.insert((b, w));
                } else {
                    let _ = write!(file_only, " {w}-{b}");
                }
            }
            Pairing::Bye {
                player,
                bye: Bye::PairingAllocated,
            } => recorded_bye = Some(player.0),
            Pairing::Bye { .. } => {}
        }
    }
    let mut ours_only = String::new();
    for (w, b) in ours.difference(&matched) {
        let _ = write!(ours_only, " {w}-{b}");
    }
    let our_bye = pairing.bye.map(|p| p.0);
    if recorded_bye != our_bye {
        let bye = |p: Option<u32>| p.map_or(" no bye".to_string(), |p| format!(" bye {p}"));
        file_only.push_str(&bye(recorded_bye));
        ours_only.push_str(&bye(our_bye));
    }
    (!file_only.is_empty() || !ours_only.is_empty())
        .then(|| format!("file{file_only} | arbiter{ours_only}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_tournament::dutch::Board;
    use arbiter_tournament::model::{Colour, StartNo};

    fn pairing(boards: &[(u32, u32)], bye: Option<u32>) -> RoundPairing {
        RoundPairing {
            round: 1,
            boards: boards
                .iter()
                .map(|&(w, b)| Board {
                    white: StartNo(w),
                    black: StartNo(b),
                })
                .collect(),
            bye: bye.map(StartNo),
            explanation: Vec::new(),
        }
    }

    #[test]
    fn pairs_are_written_as_bbppairings_writes_them_with_the_bye_last() {
        assert_eq!(
            pairs_text(&pairing(&[(1, 3), (4, 2)], Some(5))),
            "3\n1 3\n4 2\n5 0\n"
        );
        assert_eq!(pairs_text(&pairing(&[(2, 1)], None)), "1\n2 1\n");
    }

    #[test]
    fn a_round_compared_with_the_file_names_only_what_differs() {
        let text = "012 t\n\
001    1      A                                 2000                             1.0    1     2 w 1  0000 - -\n\
001    2      B                                 1900                             0.0    2     1 b 0     3 w -\n\
001    3      C                                 1800                             1.0    3  0000 - U     2 b +\n";
        let read = trf::read(text);
        assert!(read.diagnostics.is_empty(), "{:?}", read.diagnostics);
        let t = read.tournament;
        assert_eq!(difference(&t, 1, &pairing(&[(1, 2)], Some(3))), None);
        assert_eq!(
            difference(&t, 1, &pairing(&[(2, 1)], Some(3))).as_deref(),
            Some("file 1-2 | arbiter 2-1")
        );
        assert_eq!(
            difference(&t, 1, &pairing(&[(1, 3)], Some(2))).as_deref(),
            Some("file 1-2 bye 3 | arbiter 1-3 bye 2")
        );
        // Round 2: a forfeit with colours counts as paired, colours and all.
        assert_eq!(difference(&t, 2, &pairing(&[(2, 3)], None)), None);
        assert!(difference(&t, 2, &pairing(&[(3, 2)], None)).is_some());
    }

    #[test]
    fn the_initial_colour_is_inferred_when_xxc_is_absent() {
        let t = trf::read(
            "001    1      A                                 2000                             0.0    1  0000 - U\n\
001    2      B                                 1900                             1.0    2     3 w 1\n\
001    3      C                                 1800                             0.0    3     2 b 0\n",
        )
        .tournament;
        // Player 1 took part without a colour: player 2's white, reversed.
        assert_eq!(t.initial_colour_or_inferred(), Some(Colour::Black));
    }

    #[test]
    fn records_that_would_change_the_pairing_are_refused() {
        assert!(changes_the_pairing("XXA    5  1.0"));
        assert!(changes_the_pairing("XXC rank"));
        assert!(changes_the_pairing("192 FIDE_DUTCH_2025_BAKU"));
        assert!(!changes_the_pairing("192 FIDE_DUTCH_2025"));
        assert!(!changes_the_pairing("099 whatever"));
    }

    #[test]
    fn lines_are_split_on_cr_lf_and_crlf() {
        assert_eq!(split_lines("a\rb\r\nc\nd"), ["a", "b", "c", "d"]);
    }
}
