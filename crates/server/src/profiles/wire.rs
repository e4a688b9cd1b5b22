//! The request and response types of profiles, game lists and leaderboards.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::games::wire::{ComputerView, OpeningView, PlayersView};
use crate::games::Status;
use crate::ratings::RatingView;

/// A player's finished games counted by result.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Counts {
    /// Finished games (aborted games are not counted).
    pub games: i64,
    /// Won.
    pub wins: i64,
    /// Drawn.
    pub draws: i64,
    /// Lost.
    pub losses: i64,
}

/// A player's public profile.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Profile {
    /// The username as written at sign-up.
    pub username: String,
    /// Unix ms of the sign-up.
    pub created_at: i64,
    /// The account has been closed (its games keep its name).
    pub closed: bool,
    /// The account's title: `BOT` for a bot account; absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The rating in every category (`bullet`, `blitz`, `rapid`, `standard`,
    /// `correspondence`, `chess960`).
    pub ratings: BTreeMap<String, RatingView>,
    /// Finished games by result.
    pub count: Counts,
    /// Games being played now (or adjourned), newest first.
    pub playing: Vec<String>,
}

/// The query of a player's game list.
#[derive(Debug, Clone, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct GamesQuery {
    /// Page number, from 1 (20 games a page).
    pub page: Option<String>,
    /// Only games of this rating category (`bullet` … `chess960`).
    pub speed: Option<String>,
    /// Only games the player `win`s, `draw`s or `loss`es (lost).
    pub result: Option<String>,
}

/// The query of a PGN export.
#[derive(Debug, Clone, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ExportQuery {
    /// Only games of this rating category.
    pub speed: Option<String>,
}

/// One game in a player's list.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct GameListItem {
    /// Game id (its page is `/game/{id}`).
    pub id: String,
    /// Unix ms of the creation.
    pub created_at: i64,
    /// Time control as written.
    pub time_control: String,
    /// `standard` or `chess960`.
    pub variant: String,
    /// Rating category; null for an untimed game.
    pub speed: Option<String>,
    /// A rated game.
    pub rated: bool,
    /// `playing`, `adjourned` or `finished`.
    pub status: Status,
    /// `1-0`, `0-1`, `1/2-1/2` once finished.
    pub result: Option<String>,
    /// How it ended.
    pub termination: Option<String>,
    /// The players with their ratings and rating changes.
    pub players: PlayersView,
    /// The seat the server played, if any.
    pub computer: Option<ComputerView>,
    /// The opening of a finished game (ECO code and name); null when none is named, in
    /// Chess960, or while the game goes on.
    #[serde(default)]
    pub opening: Option<OpeningView>,
}

/// A page of a player's games, newest first.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct GamesPage {
    /// This page's number (from 1).
    pub page: i64,
    /// Games per page.
    pub per_page: i64,
    /// Games matching the filters, on all pages.
    pub total: i64,
    /// The games of this page.
    pub games: Vec<GameListItem>,
}

/// A place on a leaderboard.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct LeaderboardEntry {
    /// The username.
    pub username: String,
    /// The rating, rounded.
    pub rating: i64,
    /// The rating deviation now, rounded.
    pub rd: i64,
    /// Rated games in the category.
    pub games: i64,
}
