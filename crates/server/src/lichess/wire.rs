//! lichess's JSON for games: status names, clocks in milliseconds, moves as space-separated
//! UCI, variants, speeds and players, built from the native [`GameView`]. Every status the
//! Laws produce maps onto one of lichess's names; Arbiter's exact termination and its Article
//! travel beside it in the extra field `arbiter`.

use std::str::FromStr;

use arbiter_game::{GameResult, TimeControl};
use arbiter_rules::Color;
use serde_json::{json, Value};

use crate::games::wire::{GameView, PlayerView, Seat, Variant};
use crate::games::Status;

/// The standard start position, which lichess writes `startpos` in `initialFen`.
pub const STANDARD_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// lichess's clock value for a side without a clock (an untimed game).
const NO_CLOCK_MS: i64 = 2_147_483_647;

/// The Article of the Laws under which a game ended with `termination`.
pub fn article(termination: &str) -> Option<&'static str> {
    Some(match termination {
        "checkmate" => "5.1.1",
        "resignation" => "5.1.2",
        "stalemate" => "5.2.1",
        "dead_position" => "5.2.2",
        "agreement" => "9.1.2",
        "threefold_repetition" => "9.2",
        "fifty_moves" => "9.3",
        "fivefold_repetition" => "9.6.1",
        "seventyfive_moves" => "9.6.2",
        "timeout" | "timeout_vs_insufficient_material" => "6.9",
        "illegal_moves" | "illegal_moves_vs_insufficient_material" => "7.5.5",
        "invalid_sealed_move" => "Guideline I.8",
        "forfeit" => "6.7.1",
        "arbiter_decision" => "12.9",
        _ => return None,
    })
}

/// lichess's status name for the game's state.
///
/// Art. 5.2.2 (dead position), 9.2/9.3 (claims), 9.6 (fivefold, 75 moves) and agreement
/// are all lichess's `draw`; a flag fall is `outoftime` with a winner, or without one when
/// the opponent could not have mated (Art. 6.9); a forfeit is `noStart`; what lichess has no
/// name for (the illegal-move penalty, an invalid sealed move, an arbiter's decision) is
/// `unknownFinish` with the winner the result gives.
pub fn status_name(view: &GameView) -> &'static str {
    match view.status {
        Status::Waiting => return "created",
        Status::Withdrawn => return "aborted",
        Status::Finished => {}
        // Adjourned (Guideline I): the game goes on.
        Status::Playing | Status::Adjourned => return "started",
    }
    match view.termination.as_deref().unwrap_or("") {
        "checkmate" => "mate",
        "resignation" => "resign",
        "stalemate" => "stalemate",
        "dead_position"
        | "agreement"
        | "threefold_repetition"
        | "fifty_moves"
        | "fivefold_repetition"
        | "seventyfive_moves" => "draw",
        "timeout" | "timeout_vs_insufficient_material" => "outoftime",
        "forfeit" => "noStart",
        "aborted" => "aborted",
        _ => "unknownFinish",
    }
}

/// lichess's numeric id of a status name.
pub fn status_id(name: &str) -> u32 {
    match name {
        "created" => 10,
        "started" => 20,
        "aborted" => 25,
        "mate" => 30,
        "resign" => 31,
        "stalemate" => 32,
        "timeout" => 33,
        "draw" => 34,
        "outoftime" => 35,
        "cheat" => 36,
        "noStart" => 37,
        "variantEnd" => 60,
        _ => 38,
    }
}

/// The winner a result names, if any (`1-0` and the forfeit `+/-` name White).
pub fn winner(result: Option<&str>) -> Option<&'static str> {
    match result?.parse::<GameResult>().ok()?.winner()? {
        Color::White => Some("white"),
        Color::Black => Some("black"),
    }
}

/// The extra field: Arbiter's own status, result, termination and the Article applied.
pub fn arbiter_field(view: &GameView) -> Value {
    json!({
        "status": view.status,
        "result": view.result,
        "termination": view.termination,
        "article": view.termination.as_deref().and_then(article),
    })
}

/// A game's clock as lichess describes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Clock {
    /// A chess clock: initial time and increment, ms.
    RealTime {
        /// Initial time, ms.
        initial_ms: i64,
        /// Increment, ms.
        increment_ms: i64,
    },
    /// Correspondence: days per move.
    Correspondence {
        /// Days per move.
        days: i64,
    },
    /// No clock.
    Unlimited,
}

impl Clock {
    /// The clock of a native time control (its first period, as lichess has only one).
    pub fn of(time_control: &str) -> Self {
        match TimeControl::from_str(time_control) {
            Ok(TimeControl::Periods(p)) if !p.is_empty() => Clock::RealTime {
                initial_ms: ms(p[0].time_ms),
                increment_ms: ms(p[0].increment_ms),
            },
            Ok(TimeControl::PerMove(m)) => {
                let ms = ms(m);
                if ms >= 86_400_000 {
                    Clock::Correspondence {
                        days: ms / 86_400_000,
                    }
                } else {
                    // A time per move shorter than a day: lichess has no such clock; it is
                    // shown as the time per move, without increment.
                    Clock::RealTime {
                        initial_ms: ms,
                        increment_ms: 0,
                    }
                }
            }
            Ok(TimeControl::Hourglass(m)) => Clock::RealTime {
                initial_ms: ms(m),
                increment_ms: 0,
            },
            _ => Clock::Unlimited,
        }
    }

    /// lichess's speed: by the estimated duration `limit + 40 × increment` (seconds).
    pub fn speed(self) -> &'static str {
        match self {
            Clock::RealTime {
                initial_ms,
                increment_ms,
            } => {
                let estimate = initial_ms / 1000 + 40 * increment_ms / 1000;
                match estimate {
                    e if e < 30 => "ultraBullet",
                    e if e < 180 => "bullet",
                    e if e < 480 => "blitz",
                    e if e < 1500 => "rapid",
                    _ => "classical",
                }
            }
            Clock::Correspondence { .. } | Clock::Unlimited => "correspondence",
        }
    }

    /// lichess's `timeControl` object of a challenge.
    pub fn time_control_json(self) -> Value {
        match self {
            Clock::RealTime {
                initial_ms,
                increment_ms,
            } => {
                let limit = initial_ms / 1000;
                let inc = increment_ms / 1000;
                let show = match limit {
                    15 => "¼".to_owned(),
                    30 => "½".to_owned(),
                    45 => "¾".to_owned(),
                    90 => "1.5".to_owned(),
                    l if l % 60 == 0 => (l / 60).to_string(),
                    l => format!("{l}s"),
                };
                json!({"type": "clock", "limit": limit, "increment": inc, "show": format!("{show}+{inc}")})
            }
            Clock::Correspondence { days } => {
                json!({"type": "correspondence", "daysPerTurn": days})
            }
            Clock::Unlimited => json!({"type": "unlimited"}),
        }
    }
}

fn ms(m: u64) -> i64 {
    i64::try_from(m).unwrap_or(i64::MAX)
}

/// lichess's `perf` name of a speed or variant.
pub fn perf_name(speed: &str, variant: Variant) -> &'static str {
    if variant == Variant::Chess960 {
        return "Chess960";
    }
    match speed {
        "ultraBullet" => "UltraBullet",
        "bullet" => "Bullet",
        "blitz" => "Blitz",
        "rapid" => "Rapid",
        "classical" => "Classical",
        _ => "Correspondence",
    }
}

/// lichess's variant object; a standard game from a set-up position is `fromPosition`.
pub fn variant_json(variant: Variant, initial_fen: &str) -> Value {
    match variant {
        Variant::Chess960 => json!({"key": "chess960", "name": "Chess960", "short": "960"}),
        Variant::Standard if initial_fen != STANDARD_FEN => {
            json!({"key": "fromPosition", "name": "From Position", "short": "FEN"})
        }
        Variant::Standard => json!({"key": "standard", "name": "Standard", "short": "Std"}),
    }
}

/// The seat the player named `username` holds in the game `view` shows.
pub fn seat_of(view: &GameView, username: &str) -> Option<Seat> {
    if view
        .players
        .white
        .as_ref()
        .is_some_and(|p| p.name == username)
    {
        Some(Seat::White)
    } else if view
        .players
        .black
        .as_ref()
        .is_some_and(|p| p.name == username)
    {
        Some(Seat::Black)
    } else {
        None
    }
}

/// A player of a game as lichess's game stream writes it (`id` is the lower-case name).
pub fn player_json(view: &GameView, seat: Seat) -> Value {
    if let Some(c) = view.computer.as_ref().filter(|c| c.seat == seat) {
        return json!({"aiLevel": c.level, "name": c.name, "id": null, "title": null});
    }
    let p: Option<&PlayerView> = match seat {
        Seat::White => view.players.white.as_ref(),
        Seat::Black => view.players.black.as_ref(),
    };
    match p {
        Some(p) => {
            let mut v = json!({
                "id": p.name.to_lowercase(),
                "name": p.name,
                "title": p.title,
            });
            if let Some(r) = p.rating {
                v["rating"] = json!(r);
            }
            if p.provisional {
                v["provisional"] = json!(true);
            }
            v
        }
        None => json!({"id": null, "name": "Anonymous", "title": null}),
    }
}

/// The moves as lichess writes them: UCI, space separated.
pub fn moves_text(view: &GameView) -> String {
    let mut s = String::with_capacity(view.moves.len() * 5);
    for (i, m) in view.moves.iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        s.push_str(&m.uci);
    }
    s
}

/// The `gameState` event of a game as it is now.
pub fn game_state(view: &GameView) -> Value {
    let clock = Clock::of(&view.time_control);
    let inc = match clock {
        Clock::RealTime { increment_ms, .. } => increment_ms,
        _ => 0,
    };
    let status = status_name(view);
    let mut v = json!({
        "type": "gameState",
        "moves": moves_text(view),
        "wtime": view.clocks.white_ms.unwrap_or(NO_CLOCK_MS),
        "btime": view.clocks.black_ms.unwrap_or(NO_CLOCK_MS),
        "winc": inc,
        "binc": inc,
        "status": status,
        "wdraw": view.draw_offer == Some(Seat::White),
        "bdraw": view.draw_offer == Some(Seat::Black),
        "wtakeback": false,
        "btakeback": false,
        "arbiter": arbiter_field(view),
    });
    if let Some(w) = winner(view.result.as_deref()) {
        v["winner"] = json!(w);
    }
    v
}

/// The `gameFull` event: the game's fixed facts and its state now.
pub fn game_full(view: &GameView, tournament: Option<&str>) -> Value {
    let clock = Clock::of(&view.time_control);
    let speed = clock.speed();
    let mut v = json!({
        "type": "gameFull",
        "id": view.id,
        "variant": variant_json(view.variant, &view.initial_fen),
        "speed": speed,
        "perf": {"name": perf_name(speed, view.variant)},
        "rated": view.rated,
        "createdAt": view.created_at,
        "white": player_json(view, Seat::White),
        "black": player_json(view, Seat::Black),
        "initialFen": if view.initial_fen == STANDARD_FEN { "startpos" } else { view.initial_fen.as_str() },
        "state": game_state(view),
    });
    match clock {
        Clock::RealTime {
            initial_ms,
            increment_ms,
        } => v["clock"] = json!({"initial": initial_ms, "increment": increment_ms}),
        Clock::Correspondence { days } => v["daysPerTurn"] = json!(days),
        Clock::Unlimited => v["clock"] = Value::Null,
    }
    if let Some(t) = tournament {
        v["tournamentId"] = json!(t);
    }
    v
}

/// Where a game came from, as lichess names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// An accepted challenge.
    Friend,
    /// A seek or a pool.
    Lobby,
    /// Against the computer.
    Ai,
}

impl Source {
    fn as_str(self) -> &'static str {
        match self {
            Source::Friend => "friend",
            Source::Lobby => "lobby",
            Source::Ai => "ai",
        }
    }
}

/// The game as `gameStart`, `gameFinish` and `nowPlaying` describe it for the player of
/// `seat`.
pub fn game_info(view: &GameView, seat: Seat, source: Source) -> Value {
    let clock = Clock::of(&view.time_control);
    let speed = clock.speed();
    let status = status_name(view);
    let opponent = player_json(view, seat.other());
    let mut opp = json!({
        "id": opponent["id"],
        "username": opponent["name"],
    });
    if let Some(r) = opponent.get("rating") {
        opp["rating"] = r.clone();
    }
    if let Some(l) = opponent.get("aiLevel") {
        opp["ai"] = l.clone();
    }
    let seconds_left = match seat {
        Seat::White => view.clocks.white_ms,
        Seat::Black => view.clocks.black_ms,
    }
    .map(|ms| ms / 1000);
    let last_move = view.moves.last().map(|m| m.uci.clone()).unwrap_or_default();
    let mut v = json!({
        "id": view.id,
        "gameId": view.id,
        "fullId": view.id,
        "color": seat.as_str(),
        "fen": view.fen,
        "lastMove": last_move,
        "source": source.as_str(),
        "status": {"id": status_id(status), "name": status},
        "variant": variant_json(view.variant, &view.initial_fen),
        "speed": speed,
        "perf": perf_name(speed, view.variant).to_lowercase(),
        "rated": view.rated,
        "hasMoved": view.moves.len() >= if first_mover(view) == seat { 1 } else { 2 },
        "opponent": opp,
        "isMyTurn": view.status == Status::Playing && view.turn == seat,
        "compat": {"bot": true, "board": true},
        "arbiter": arbiter_field(view),
    });
    if let Some(s) = seconds_left {
        v["secondsLeft"] = json!(s);
    }
    if let Some(w) = winner(view.result.as_deref()) {
        v["winner"] = json!(w);
    }
    let me = match seat {
        Seat::White => view.players.white.as_ref(),
        Seat::Black => view.players.black.as_ref(),
    };
    if let Some(p) = me {
        if let Some(r) = p.rating {
            v["rating"] = json!(r);
        }
        if let Some(d) = p.rating_diff {
            v["ratingDiff"] = json!(d);
        }
    }
    v
}

/// The side that made the game's first move (Black when the start position says so).
fn first_mover(view: &GameView) -> Seat {
    if view.initial_fen.split(' ').nth(1) == Some("b") {
        Seat::Black
    } else {
        Seat::White
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_and_speeds_follow_lichess_estimate() {
        assert_eq!(
            Clock::of("5+3"),
            Clock::RealTime {
                initial_ms: 300_000,
                increment_ms: 3_000
            }
        );
        assert_eq!(Clock::of("5+3").speed(), "blitz");
        assert_eq!(Clock::of("1+0").speed(), "bullet");
        assert_eq!(Clock::of("15+10").speed(), "rapid");
        assert_eq!(Clock::of("90+30").speed(), "classical");
        assert_eq!(Clock::of("untimed"), Clock::Unlimited);
        assert_eq!(Clock::of("3+2").time_control_json()["show"], json!("3+2"));
    }

    #[test]
    fn art_6_9_a_flag_against_insufficient_material_is_outoftime_without_winner() {
        assert_eq!(article("timeout_vs_insufficient_material"), Some("6.9"));
        assert_eq!(winner(Some("1/2-1/2")), None);
        assert_eq!(winner(Some("+/-")), Some("white"));
        assert_eq!(winner(Some("0-1")), Some("black"));
        assert_eq!(status_id("outoftime"), 35);
        assert_eq!(article("dead_position"), Some("5.2.2"));
    }
}
