//! An account as lichess's API shows it (the fields of its user JSON that Arbiter has): the
//! id, title, ratings under lichess's names, game counts and the page's address. Used by
//! `GET /api/account` and by the lichess-compatible user routes.

use std::collections::BTreeMap;

use sqlx::AnyPool;

use super::queries::{self, AccountRow};
use super::wire::{LichessPerf, LichessProfile};
use crate::db::now_unix_ms;
use crate::ratings::{self, RatingView};

/// lichess's user id of a username: the name in lower case.
pub fn user_id(username: &str) -> String {
    username.to_ascii_lowercase()
}

/// lichess's name of an Arbiter rating category (`standard` is lichess's `classical`).
pub fn perf_key(category: &str) -> &str {
    match category {
        "standard" => "classical",
        other => other,
    }
}

/// The ratings under lichess's names.
pub fn perfs(ratings: &BTreeMap<String, RatingView>) -> BTreeMap<String, LichessPerf> {
    ratings
        .iter()
        .map(|(category, r)| {
            (
                perf_key(category).to_owned(),
                LichessPerf {
                    games: r.games,
                    rating: r.rating,
                    rd: r.rd,
                    prog: 0,
                    prov: r.provisional,
                },
            )
        })
        .collect()
}

/// The lichess fields of `account`: its page under `origin` (`https://chess.example`), last
/// seen at `seen_at` (unix ms; `None`: as the database knows it).
///
/// # Errors
/// Database errors.
pub async fn profile(
    pool: &AnyPool,
    account: &AccountRow,
    origin: &str,
    seen_at: Option<i64>,
) -> Result<LichessProfile, sqlx::Error> {
    let ratings = ratings::ratings_of(pool, &account.id, now_unix_ms()).await?;
    let seen_at = match seen_at {
        Some(t) => t,
        None => queries::seen_at(pool, account).await?,
    };
    Ok(LichessProfile {
        id: user_id(&account.username),
        title: account.title.clone(),
        perfs: perfs(&ratings),
        created_at_ms: account.created_at,
        seen_at,
        url: format!("{origin}/@/{}", account.username),
        count: queries::game_counts(pool, &account.id).await?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_is_lichess_classical_and_ids_are_lower_case() {
        assert_eq!(perf_key("standard"), "classical");
        assert_eq!(perf_key("blitz"), "blitz");
        assert_eq!(user_id("Magnus_C"), "magnus_c");
    }
}
