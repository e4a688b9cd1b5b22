//! The TRF writer: header records, one fixed-column `001` line per player, then the records
//! pairing programs read. Lines end with LF.

use std::fmt::Write as _;

use super::layout;
use crate::model::{
    Bye, Colour, GameResult, Player, Points, RoundEntry, ScoringSystem, Tournament,
};

/// Writes the tournament as TRF. Points and rank come from what was read when known
/// ([`Player::reported_points`], [`Player::reported_rank`]); otherwise the points are computed
/// and the rank left blank.
pub fn write(tournament: &Tournament) -> String {
    let mut out = String::new();
    let mut record = |code: &str, value: &str| {
        if !value.is_empty() {
            let _ = writeln!(out, "{code} {value}");
        }
    };
    record("012", &tournament.name);
    record("022", &tournament.city);
    record("032", &tournament.federation);
    record("042", &tournament.start_date);
    record("052", &tournament.end_date);
    record("092", &tournament.system);
    record("102", &tournament.chief_arbiter);
    for deputy in &tournament.deputy_arbiters {
        record("112", deputy);
    }
    record("122", &tournament.time_control);
    if !tournament.round_dates.is_empty() {
        let mut line = format!("{:<width$}", "132", width = layout::FIRST_ROUND_COLUMN);
        let dates: Vec<String> = tournament
            .round_dates
            .iter()
            .map(|d| format!("{d:>width$}", width = layout::ROUND_WIDTH))
            .collect();
        line.push_str(&dates.join("  "));
        let _ = writeln!(out, "{}", line.trim_end());
    }
    for player in &tournament.players {
        out.push_str(&write_player_line(tournament, player));
        out.push('\n');
    }
    if let Some(rounds) = tournament.planned_rounds {
        let _ = writeln!(out, "XXR {rounds}");
    }
    match tournament.initial_colour {
        Some(Colour::White) => out.push_str("XXC white1\n"),
        Some(Colour::Black) => out.push_str("XXC black1\n"),
        None => {}
    }
    if tournament.scoring != ScoringSystem::standard() {
        out.push_str(&scoring_line(&tournament.scoring));
        out.push('\n');
    }
    for ban in &tournament.forbidden_pairs {
        match ban.rounds {
            Some((first, last)) => {
                let _ = write!(out, "260 {first:>3} {last:>3}");
                for player in &ban.players {
                    let _ = write!(out, " {:>4}", player.0);
                }
            }
            None => {
                out.push_str("XXP");
                for player in &ban.players {
                    let _ = write!(out, " {}", player.0);
                }
            }
        }
        out.push('\n');
    }
    out
}

/// One player's `001` line, without its line end and without trailing spaces.
pub fn write_player_line(tournament: &Tournament, player: &Player) -> String {
    let rounds = player.rounds.len() as u32;
    let points = player
        .reported_points
        .unwrap_or_else(|| tournament.points_after(player, rounds));
    // The field has four columns: a value that cannot be written in them is left out rather
    // than shifting every column after it.
    let points = points_text(points).unwrap_or_default();
    let mut line = format!(
        "001 {start:>4} {sex}{title:>3} {name:<33} {rating:>4} {federation:<3} {fide_id:>11} {birth:<10} {points:>4} {rank:>4}",
        start = player.start_no.0,
        sex = player.sex.unwrap_or(' '),
        title = player.title.as_ref().map(|t| t.trf_code()).unwrap_or(""),
        name = truncate(&player.name, layout::NAME.1 - layout::NAME.0),
        rating = player.rating.map(|r| r.to_string()).unwrap_or_default(),
        federation = truncate(&player.federation, 3),
        fide_id = player.fide_id.map(|id| id.to_string()).unwrap_or_default(),
        birth = truncate(&player.birth_date, 10),
        points = points,
        rank = player.reported_rank.map(|r| r.to_string()).unwrap_or_default(),
    );
    for entry in &player.rounds {
        line.push_str("  ");
        line.push_str(&block(entry));
    }
    line.truncate(line.trim_end().len());
    line
}

/// Points as TRF writes them in four columns: one decimal when it fits (`6.5`, `10.0`), else
/// as few characters as say the value exactly (`100`, `.125`); `None` when nothing fits.
fn points_text(points: Points) -> Option<String> {
    let exact = points.format(points.decimals());
    let without_leading_zero = exact
        .strip_prefix("0.")
        .map(|rest| format!(".{rest}"))
        .or_else(|| exact.strip_prefix("-0.").map(|rest| format!("-.{rest}")));
    [Some(points.to_string()), Some(exact), without_leading_zero]
        .into_iter()
        .flatten()
        .find(|text| text.chars().count() <= layout::POINTS.1 - layout::POINTS.0)
}

fn truncate(text: &str, width: usize) -> String {
    text.chars().take(width).collect()
}

/// A round block: opponent (4), space, colour, space, result.
fn block(entry: &RoundEntry) -> String {
    let colour = |c: Option<Colour>| match c {
        Some(Colour::White) => 'w',
        Some(Colour::Black) => 'b',
        None => '-',
    };
    match *entry {
        RoundEntry::Game {
            opponent,
            colour: c,
            result,
            rated,
        } => {
            let code = match (result, rated) {
                (GameResult::Win, true) => '1',
                (GameResult::Draw, true) => '=',
                (GameResult::Loss, true) => '0',
                (GameResult::Win, false) => 'W',
                (GameResult::Draw, false) => 'D',
                (GameResult::Loss, false) => 'L',
            };
            format!("{:>4} {} {code}", opponent.0, colour(Some(c)))
        }
        RoundEntry::Pending {
            opponent,
            colour: c,
        } => format!("{:>4} {}  ", opponent.0, colour(Some(c))),
        RoundEntry::Forfeit {
            opponent,
            colour: c,
            won,
        } => format!(
            "{:>4} {} {}",
            opponent.0,
            colour(c),
            if won { '+' } else { '-' }
        ),
        RoundEntry::Bye(bye) => {
            let code = match bye {
                Bye::PairingAllocated => 'U',
                Bye::FullPoint => 'F',
                Bye::HalfPoint => 'H',
                Bye::ZeroPoint => 'Z',
            };
            format!("0000 - {code}")
        }
        RoundEntry::NotPaired => " ".repeat(layout::ROUND_WIDTH),
    }
}

/// `162` with every value that differs from what the win, draw and loss imply, in the layout
/// bbpPairings and Gacrux read (a letter at column 6, its value in the next four, every nine
/// columns).
fn scoring_line(scoring: &ScoringSystem) -> String {
    let implied = ScoringSystem::with_game_points(scoring.win, scoring.draw, scoring.loss);
    let mut entries = vec![('W', scoring.win), ('D', scoring.draw), ('L', scoring.loss)];
    for (letter, value, default) in [
        ('Z', scoring.zero_point_bye, implied.zero_point_bye),
        (
            'P',
            scoring.pairing_allocated_bye,
            implied.pairing_allocated_bye,
        ),
        ('F', scoring.full_point_bye, implied.full_point_bye),
        ('H', scoring.half_point_bye, implied.half_point_bye),
        ('+', scoring.forfeit_win, implied.forfeit_win),
        ('-', scoring.forfeit_loss, scoring.zero_point_bye),
    ] {
        if value != default {
            entries.push((letter, value));
        }
    }
    let mut line = String::from("162 ");
    for (letter, value) in entries {
        let _ = write!(line, " {letter}{:>4}   ", value.to_string());
    }
    line.trim_end().to_string()
}
