//! The embedded migrations: the SQL files under `crates/server/migrations`, one schema for
//! SQLite and PostgreSQL.

use std::borrow::Cow;

use sqlx::migrate::{Migration, MigrationSource, MigrationType};

/// The embedded migrations (the SQL files under `crates/server/migrations`).
#[derive(Debug)]
pub(super) struct Embedded;

const MIGRATIONS: &[(i64, &str, &str)] = &[
    (1, "games", include_str!("../../migrations/0001_games.sql")),
    (
        2,
        "computer",
        include_str!("../../migrations/0002_computer.sql"),
    ),
    (
        3,
        "players",
        include_str!("../../migrations/0003_players.sql"),
    ),
    (
        4,
        "game lists",
        include_str!("../../migrations/0004_game_lists.sql"),
    ),
    (
        5,
        "tournaments",
        include_str!("../../migrations/0005_tournaments.sql"),
    ),
    (
        6,
        "cluster",
        include_str!("../../migrations/0006_cluster.sql"),
    ),
    (
        7,
        "openings and imports",
        include_str!("../../migrations/0007_openings_imports.sql"),
    ),
    (
        8,
        "analysis",
        include_str!("../../migrations/0008_analysis.sql"),
    ),
    (
        9,
        "tokens' scopes and bot accounts",
        include_str!("../../migrations/0009_tokens_bots.sql"),
    ),
    (
        10,
        "challenges and chat",
        include_str!("../../migrations/0010_challenges_chat.sql"),
    ),
];

impl MigrationSource<'static> for Embedded {
    fn resolve(
        self,
    ) -> futures_util::future::BoxFuture<'static, Result<Vec<Migration>, sqlx::error::BoxDynError>>
    {
        Box::pin(async {
            Ok(MIGRATIONS
                .iter()
                .map(|(v, d, sql)| {
                    Migration::new(
                        *v,
                        Cow::Borrowed(*d),
                        MigrationType::Simple,
                        Cow::Borrowed(*sql),
                        false,
                    )
                })
                .collect())
        })
    }
}
