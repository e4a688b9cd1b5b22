//! A stored game rebuilt from its row and its event log: the referee (every event replayed
//! through `arbiter-game`), the events as clients saw them, and the seats with their names.
//! A game's actor starts from this; the players' PGN export uses it without starting one.

use std::collections::HashMap;

use serde_json::Value;

use super::api::Status;
use super::computer::ComputerSeat;
use super::players::Seats;
use super::referee::{Referee, Spec};
use crate::accounts::queries::PlayerName;
use crate::db::{EventRow, GameRow};
use crate::error::{ApiResult, AppError};

/// A game replayed from storage.
pub struct Replayed {
    /// The creation parameters.
    pub spec: Spec,
    /// The game with every stored event applied.
    pub referee: Referee,
    /// Each event's number and its JSON as clients see it.
    pub wire: Vec<(i64, String)>,
    /// Game time of the last event (ms).
    pub base_t: u64,
}

/// Replay `events` (the whole log of `row`'s game, in order) through the game crate.
///
/// # Errors
/// 500 when the spec or an event cannot be read, an event is missing, or the log does not
/// replay: stored data the server wrote itself, so any of these is a server fault.
pub fn replay(row: &GameRow, events: &[EventRow]) -> ApiResult<Replayed> {
    let id = &row.id;
    let spec: Spec = serde_json::from_str(&row.spec)
        .map_err(|e| AppError::Internal(format!("game {id}: bad spec: {e}")))?;
    let mut referee = Referee::new(&spec)?;
    let mut wire = Vec::with_capacity(events.len());
    let mut base_t = 0;
    for (i, ev) in events.iter().enumerate() {
        if ev.seq != i as i64 + 1 {
            return Err(AppError::Internal(format!(
                "game {id}: event {} missing",
                i + 1
            )));
        }
        let data: Value = serde_json::from_str(&ev.data)
            .map_err(|e| AppError::Internal(format!("game {id}: bad event {}: {e}", ev.seq)))?;
        let timed = data.get("timed").cloned().unwrap_or(Value::Null);
        referee.replay(timed).map_err(|e| {
            AppError::Internal(format!("game {id}: replay of event {}: {e}", ev.seq))
        })?;
        base_t = u64::try_from(ev.t_ms).unwrap_or(0);
        wire.push((
            ev.seq,
            data.get("wire").map(Value::to_string).unwrap_or_default(),
        ));
    }
    Ok(Replayed {
        spec,
        referee,
        wire,
        base_t,
    })
}

/// The seats of `row`'s game; `names` maps account ids to their usernames and whether the
/// account is closed.
pub fn seats(row: &GameRow, names: &HashMap<String, PlayerName>) -> Seats {
    let name_of = |a: &Option<String>| a.as_ref().and_then(|a| names.get(a).cloned());
    Seats {
        white_name: name_of(&row.players.white_account),
        black_name: name_of(&row.players.black_account),
        white_hash: row.white_hash.clone(),
        black_hash: row.black_hash.clone(),
        row: row.players.clone(),
    }
}

/// The status stored in `row` (the database keeps its name); a name the server never writes
/// reads as `waiting`, as a game that has not started.
pub fn status(row: &GameRow) -> Status {
    row.status.parse().unwrap_or(Status::Waiting)
}

/// The computer seat stored with `row`'s game, if any.
///
/// # Errors
/// 500 when the stored seat cannot be read.
pub fn computer_seat(row: &GameRow) -> ApiResult<Option<ComputerSeat>> {
    row.computer
        .as_deref()
        .map(|json| {
            serde_json::from_str(json)
                .map_err(|e| AppError::Internal(format!("game {}: bad computer seat: {e}", row.id)))
        })
        .transpose()
}

/// The PGN of a replayed game, with the players' tags as its page shows them.
pub fn pgn(row: &GameRow, seats: &Seats, referee: &Referee) -> ApiResult<String> {
    let computer = computer_seat(row)?.map(|c| (c.seat, c.player.name()));
    let tags = seats.pgn_tags(computer);
    Ok(referee.pgn(&row.id, row.created_at, &tags))
}

/// The client JSON of a stored event (its `wire` part), as the game's sockets sent it.
pub fn wire_json(row: &EventRow) -> Option<String> {
    let data: Value = serde_json::from_str(&row.data).ok()?;
    data.get("wire").map(Value::to_string)
}
