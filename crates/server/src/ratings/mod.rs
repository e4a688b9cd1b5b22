//! Ratings: Glicko-2 ([`glicko`]) per category ([`category`]), lichess's defaults; how a rated
//! game changes both players' ratings (called by the database writer inside the transaction
//! that stores the game's last event); and the ratings as players see them.

pub mod category;
pub mod glicko;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use sqlx::{AnyPool, Row};
use utoipa::ToSchema;

pub use category::Category;

use crate::db::RatingRow;

const DAY_MS: f64 = 86_400_000.0;

fn idle_days(row: &RatingRow, now: i64) -> f64 {
    if row.games == 0 {
        0.0
    } else {
        (now - row.last_played).max(0) as f64 / DAY_MS
    }
}

fn glicko_of(row: &RatingRow) -> glicko::Rating {
    glicko::Rating {
        rating: row.rating,
        rd: row.rd,
        volatility: row.volatility,
    }
}

/// The rating of a player who has not played a category rated yet (lichess's defaults).
pub fn unrated() -> RatingRow {
    let d = glicko::Rating::default();
    RatingRow {
        rating: d.rating,
        rd: d.rd,
        volatility: d.volatility,
        games: 0,
        last_played: 0,
    }
}

/// A rated game's effect on both players ([`crate::db::RateFn`]): each RD first grows with
/// the player's idle time, then both are updated against each other (Glicko-2, τ = 0.75).
pub fn rate(
    white: RatingRow,
    black: RatingRow,
    white_score: f64,
    now: i64,
) -> (RatingRow, RatingRow) {
    let (w, b) = glicko::rate_game(
        &glicko_of(&white),
        &glicko_of(&black),
        white_score,
        idle_days(&white, now),
        idle_days(&black, now),
    );
    let row = |r: glicko::Rating, before: &RatingRow| RatingRow {
        rating: r.rating,
        rd: r.rd,
        volatility: r.volatility,
        games: before.games + 1,
        last_played: now,
    };
    (row(w, &white), row(b, &black))
}

/// A rating as shown: rounded, with its RD grown for the time since the last rated game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct RatingView {
    /// The rating, rounded.
    pub rating: i64,
    /// The rating deviation now (grown with idle time), rounded.
    pub rd: i64,
    /// Rated games played in the category.
    pub games: i64,
    /// Provisional while RD ≥ 110 (shown with "?").
    pub provisional: bool,
}

impl RatingView {
    /// The view of a stored rating at unix ms `now`.
    pub fn of(row: &RatingRow, now: i64) -> Self {
        let r = glicko::with_idle_time(&glicko_of(row), idle_days(row, now));
        RatingView {
            rating: r.rating.round() as i64,
            rd: r.rd.round() as i64,
            games: row.games,
            provisional: r.is_provisional(),
        }
    }
}

/// Every category's rating of an account (the default for categories not played yet).
///
/// # Errors
/// Database errors.
pub async fn ratings_of(
    pool: &AnyPool,
    account_id: &str,
    now: i64,
) -> Result<BTreeMap<String, RatingView>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT category, rating, rd, volatility, games, last_played FROM ratings \
         WHERE account_id = $1",
    )
    .bind(account_id)
    .fetch_all(pool)
    .await?;
    let mut out: BTreeMap<String, RatingView> = Category::ALL
        .iter()
        .map(|c| (c.name().to_owned(), RatingView::of(&unrated(), now)))
        .collect();
    for r in rows {
        let category: String = r.try_get("category")?;
        let row = RatingRow {
            rating: r.try_get("rating")?,
            rd: r.try_get("rd")?,
            volatility: r.try_get("volatility")?,
            games: r.try_get("games")?,
            last_played: r.try_get("last_played")?,
        };
        out.insert(category, RatingView::of(&row, now));
    }
    Ok(out)
}

/// One account's rating in one category as shown now.
///
/// # Errors
/// Database errors.
pub async fn rating_of(
    pool: &AnyPool,
    account_id: &str,
    category: Category,
    now: i64,
) -> Result<RatingView, sqlx::Error> {
    let row = crate::db::rating(pool, account_id, category.name())
        .await?
        .unwrap_or_else(unrated);
    Ok(RatingView::of(&row, now))
}
