//! The JSON of the tournaments' API: requests, and the views of a tournament's state.

use std::collections::BTreeMap;

use arbiter_tournament::model::Points;
use arbiter_tournament::tiebreak::{Standings, TieBreak};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::events::{ByeKind, ScoringSettings, Settings, System};
use super::state::State;

/// `POST /api/tournaments`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct CreateTournament {
    /// Name, 1–80 characters.
    pub name: String,
    /// `swiss` (default), `round_robin`, `double_round_robin`.
    #[serde(default)]
    pub system: System,
    /// Swiss: number of rounds (1–30; default 5).
    #[serde(default)]
    pub rounds: Option<u32>,
    /// Time control, e.g. `3+2`.
    #[schema(example = "3+2")]
    pub time_control: String,
    /// Rated games.
    #[serde(default)]
    pub rated: bool,
    /// Online games (default true); false: over the board, results typed by the director.
    #[serde(default = "yes")]
    pub online: bool,
    /// Start time, unix ms; null: the director starts it.
    #[serde(default)]
    pub starts_at: Option<i64>,
    /// Self-registration open (default true).
    #[serde(default = "yes")]
    pub registration_open: bool,
    /// Swiss: registration possible until round N is paired; 0 (default): not after the start.
    #[serde(default)]
    pub late_entry_until_round: u32,
    /// C.07 tie-breaks in order (abbreviations); default: all of `arbiter standings`.
    #[serde(default)]
    pub tiebreaks: Option<Vec<String>>,
    /// `2026` (default) or `2024`.
    #[serde(default)]
    pub tiebreak_rules: Option<String>,
    /// Art. 6.7.1 default time, seconds (0–86400); default: the lesser of 300 and the base time.
    #[serde(default)]
    pub default_time_secs: Option<i64>,
    /// Pause between rounds, seconds (0–86400; default 30); null: the director pairs.
    #[serde(default = "default_pause")]
    pub pause_secs: Option<i64>,
    /// Points of each result (default 1/½/0, bye 1).
    #[serde(default)]
    pub scoring: Option<ScoringSettings>,
    /// Art. 11.3: the players may chat while their game is played (default false: the
    /// players' chat room is closed during play and opens when the game ends).
    #[serde(default)]
    pub players_chat: bool,
}

fn yes() -> bool {
    true
}

fn default_pause() -> Option<i64> {
    Some(30)
}

/// `POST /api/tournaments/{id}/players`: a player entered by the director.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct NewPlayer {
    /// Name (`Surname, Given names` for TRF), 1–60 characters.
    pub name: String,
    /// Rating (0–4000).
    #[serde(default)]
    pub rating: Option<u32>,
    /// FIDE title (`GM`, `IM`, `FM`, `CM`, `WGM`, `WIM`, `WFM`, `WCM`).
    #[serde(default)]
    pub title: Option<String>,
    /// Federation (up to 3 letters).
    #[serde(default)]
    pub federation: Option<String>,
    /// FIDE id.
    #[serde(default)]
    pub fide_id: Option<u64>,
}

/// `POST /api/tournaments/{id}/registration`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct RegistrationRequest {
    /// Open or close self-registration.
    pub open: bool,
}

/// `POST /api/tournaments/{id}/byes`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ByeRequest {
    /// Start number.
    pub player: u32,
    /// A round not paired yet.
    pub round: u32,
    /// `half`, `full` or `zero`.
    pub kind: String,
}

/// `POST /api/tournaments/{id}/forbidden`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ForbidRequest {
    /// Two start numbers.
    pub players: Vec<u32>,
}

/// `POST …/rounds/{round}/boards/{board}/result`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ResultRequest {
    /// `1-0`, `1/2-1/2`, `0-1`, `+/-`, `-/+`, `-/-`.
    pub result: String,
}

/// `POST …/rounds/{round}/boards/{board}/penalty` (Art. 12.9).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PenaltyRequest {
    /// `add_time` (12.9.2), `deduct_time` (12.9.3), `declare_lost` (12.9.6).
    pub kind: String,
    /// `white` or `black`: whose clock, or who loses.
    pub player: String,
    /// Seconds (1–3600) for the time penalties.
    #[serde(default)]
    pub seconds: Option<u32>,
}

/// The answer to a penalty: the game event stored.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PenaltyDone {
    /// The game.
    pub game: String,
    /// The game event's number.
    pub seq: i64,
}

/// `GET /api/tournaments?status=`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, utoipa::IntoParams)]
pub struct ListQuery {
    /// `upcoming`, `running` or `finished`.
    #[serde(default)]
    pub status: Option<String>,
}

/// A tournament in a list.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Summary {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// `upcoming`, `running`, `finished`.
    pub status: String,
    /// System.
    pub system: System,
    /// Rounds planned.
    pub rounds: Option<u32>,
    /// Time control.
    pub time_control: String,
    /// Rated.
    pub rated: bool,
    /// Online games.
    pub online: bool,
    /// Start time, unix ms.
    pub starts_at: Option<i64>,
    /// Players registered.
    pub players: u32,
    /// Last round paired.
    pub current_round: u32,
    /// The director's username.
    pub director: String,
}

/// The lists.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TournamentList {
    /// Newest first.
    pub tournaments: Vec<Summary>,
}

/// A bye as shown.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ByeView {
    /// Start number.
    pub player: u32,
    /// Round.
    pub round: u32,
    /// Kind.
    pub kind: ByeKind,
}

/// A player as shown.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PlayerView {
    /// Start number.
    pub no: u32,
    /// Name.
    pub name: String,
    /// The account's username; null for a player entered by name.
    pub username: Option<String>,
    /// Rating.
    pub rating: Option<u16>,
    /// Title.
    pub title: Option<String>,
    /// Federation.
    pub federation: String,
    /// FIDE id.
    pub fide_id: Option<u64>,
    /// Withdrawn.
    pub withdrawn: bool,
    /// Points.
    pub points: f64,
    /// Byes granted for rounds not paired yet.
    pub byes: Vec<ByeView>,
}

/// A board as shown.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct BoardView {
    /// Board.
    pub board: u32,
    /// White's number.
    pub white: u32,
    /// Black's number.
    pub black: u32,
    /// The online game.
    pub game: Option<String>,
    /// Result.
    pub result: Option<String>,
    /// How it ended.
    pub termination: Option<String>,
}

/// A bye of a paired round.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct RoundBye {
    /// Start number.
    pub player: u32,
    /// Kind.
    pub kind: ByeKind,
}

/// A round as shown.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct RoundView {
    /// Number.
    pub round: u32,
    /// Unix ms.
    pub paired_at: i64,
    /// Every board has a result.
    pub complete: bool,
    /// Boards.
    pub boards: Vec<BoardView>,
    /// Byes.
    pub byes: Vec<RoundBye>,
    /// How it was paired.
    pub explanation: Vec<String>,
}

/// A line of the standings.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct StandingsLine {
    /// Place.
    pub rank: u32,
    /// Start number.
    pub no: u32,
    /// Name.
    pub name: String,
    /// Points.
    pub points: f64,
    /// Each tie-break by abbreviation (null: does not exist).
    pub tiebreaks: BTreeMap<String, Option<f64>>,
}

/// The standings.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct StandingsView {
    /// Tie-breaks in order.
    pub tiebreaks: Vec<String>,
    /// Best first.
    pub rows: Vec<StandingsLine>,
}

/// A line of the crosstable.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct CrosstableLine {
    /// Place.
    pub rank: u32,
    /// Start number.
    pub no: u32,
    /// Name.
    pub name: String,
    /// Rating.
    pub rating: Option<u16>,
    /// Points.
    pub points: f64,
    /// One cell per round (`3w1`, `5b½`, `4w+`, `U`, `H`, …).
    pub results: Vec<String>,
    /// Tie-breaks.
    pub tiebreaks: BTreeMap<String, Option<f64>>,
}

/// The crosstable.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct CrosstableView {
    /// Rounds paired.
    pub rounds: u32,
    /// By rank.
    pub rows: Vec<CrosstableLine>,
}

/// A tournament, whole.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TournamentView {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// The director's username.
    pub director: String,
    /// `upcoming`, `running`, `finished`.
    pub status: String,
    /// Rules.
    pub settings: Settings,
    /// Self-registration possible now.
    pub registration_open: bool,
    /// Paused.
    pub paused: bool,
    /// Last round paired.
    pub current_round: u32,
    /// Rounds planned.
    pub rounds_planned: Option<u32>,
    /// When the next round is paired by itself, unix ms.
    pub next_round_at: Option<i64>,
    /// When absent players lose by default (Art. 6.7.1), unix ms.
    pub round_deadline: Option<i64>,
    /// Players.
    pub players: Vec<PlayerView>,
    /// Rounds.
    pub rounds: Vec<RoundView>,
    /// Standings.
    pub standings: StandingsView,
    /// Unix ms.
    pub created_at: i64,
    /// Unix ms.
    pub started_at: Option<i64>,
    /// Unix ms.
    pub finished_at: Option<i64>,
    /// Number of the last event.
    pub last_seq: i64,
}

/// A number of points as JSON.
pub fn points(p: Points) -> f64 {
    p.to_f64()
}

fn tiebreak_value(t: TieBreak, v: Option<Points>) -> Option<f64> {
    v.map(|v| {
        if t.is_whole_number() {
            (v.ten_thousandths() / 10_000) as f64
        } else {
            v.to_f64()
        }
    })
}

/// The standings as shown.
pub fn standings_view(state: &State, table: &Standings) -> StandingsView {
    StandingsView {
        tiebreaks: table.tie_breaks.iter().map(ToString::to_string).collect(),
        rows: table
            .rows
            .iter()
            .map(|row| StandingsLine {
                rank: row.rank,
                no: row.start_no.0,
                name: state
                    .player(row.start_no.0)
                    .map(|p| p.name.clone())
                    .unwrap_or_default(),
                points: points(row.points),
                tiebreaks: tiebreak_map(table, &row.values),
            })
            .collect(),
    }
}

/// A row's tie-breaks by abbreviation.
pub fn tiebreak_map(table: &Standings, values: &[Option<Points>]) -> BTreeMap<String, Option<f64>> {
    table
        .tie_breaks
        .iter()
        .zip(values)
        .map(|(t, v)| (t.to_string(), tiebreak_value(*t, *v)))
        .collect()
}

/// A round as shown.
pub fn round_view(r: &super::state::RoundState) -> RoundView {
    RoundView {
        round: r.round,
        paired_at: r.paired_at,
        complete: r.complete(),
        boards: r
            .boards
            .iter()
            .map(|b| BoardView {
                board: b.paired.board,
                white: b.paired.white,
                black: b.paired.black,
                game: b.paired.game.clone(),
                result: b.result.clone(),
                termination: b.termination.clone(),
            })
            .collect(),
        byes: r
            .byes
            .iter()
            .map(|(p, k)| RoundBye {
                player: *p,
                kind: *k,
            })
            .collect(),
        explanation: r.explanation.clone(),
    }
}

/// A player as shown; `usernames` are the accounts' names.
pub fn player_view(state: &State, e: &super::state::Entrant, pts: Points) -> PlayerView {
    PlayerView {
        no: e.no,
        name: e.name.clone(),
        username: e.account.as_ref().map(|_| e.name.clone()),
        rating: e.rating,
        title: e.title.clone(),
        federation: e.federation.clone(),
        fide_id: e.fide_id,
        withdrawn: e.withdrawn(),
        points: points(pts),
        byes: state
            .byes
            .iter()
            .filter(|((_, p), _)| *p == e.no)
            .map(|((r, p), k)| ByeView {
                player: *p,
                round: *r,
                kind: *k,
            })
            .collect(),
    }
}

/// The whole tournament as shown; `timers` = (next round at, round deadline) as the actor
/// keeps them.
pub fn tournament_view(state: &State, timers: (Option<i64>, Option<i64>)) -> TournamentView {
    let (model, table) = state.standings();
    let s = state.settings();
    TournamentView {
        id: state.id.clone(),
        name: s.name.clone(),
        director: state.director_name.clone(),
        status: state.status().to_owned(),
        settings: s.clone(),
        registration_open: super::actor::registration_possible(state, false).is_ok(),
        paused: state.paused,
        current_round: state.current_round(),
        rounds_planned: state.planned_rounds,
        next_round_at: timers.0,
        round_deadline: timers.1,
        players: state
            .players
            .iter()
            .map(|e| {
                let pts = model
                    .player(arbiter_tournament::model::StartNo(e.no))
                    .map(|p| model.points_after(p, model.rounds_played()))
                    .unwrap_or_default();
                player_view(state, e, pts)
            })
            .collect(),
        rounds: state.rounds.iter().map(round_view).collect(),
        standings: standings_view(state, &table),
        created_at: state.created_at,
        started_at: state.started_at,
        finished_at: state.finished_at,
        last_seq: state.last_seq,
    }
}

/// A tournament in a list.
pub fn summary(state: &State) -> Summary {
    let s = state.settings();
    Summary {
        id: state.id.clone(),
        name: s.name.clone(),
        status: state.status().to_owned(),
        system: s.system,
        rounds: state.planned_rounds,
        time_control: s.time_control.clone(),
        rated: s.rated,
        online: s.online,
        starts_at: s.starts_at,
        players: state.players.len() as u32,
        current_round: state.current_round(),
        director: state.director_name.clone(),
    }
}
