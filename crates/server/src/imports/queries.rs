//! The imported games' table: stored in one transaction per import, read back by id.

use sqlx::{AnyPool, Row};

use super::reader::ParsedGame;
use crate::db::StoreError;

/// An imported game as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportRow {
    /// Its id.
    pub id: String,
    /// When it was imported, unix ms.
    pub created_at: i64,
    /// The importer's username (None: imported anonymously).
    pub importer: Option<String>,
    /// `standard` or `chess960`.
    pub variant: String,
    /// The start position.
    pub initial_fen: String,
    /// JSON `[{"uci","san"}]`.
    pub moves: String,
    /// JSON `[[name, value]]`.
    pub tags: String,
    /// The PGN's result.
    pub result: String,
    /// The ECO code and name of the main line.
    pub opening: Option<(String, String)>,
    /// The game's text as imported.
    pub pgn: String,
}

/// Store `games` (with their new `ids`) for `importer` in one transaction: all or none.
///
/// # Errors
/// Database errors (nothing is stored).
pub async fn insert(
    pool: &AnyPool,
    games: &[(String, &ParsedGame)],
    importer: Option<&str>,
    now: i64,
) -> Result<(), StoreError> {
    let mut tx = pool.begin().await?;
    for (id, g) in games {
        let moves: Vec<serde_json::Value> = g
            .moves
            .iter()
            .map(|(uci, san)| serde_json::json!({ "uci": uci, "san": san }))
            .collect();
        sqlx::query(
            "INSERT INTO imported_games (id, created_at, importer, variant, initial_fen, moves, \
             tags, result, termination, opening_eco, opening_name, pgn) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
        )
        .bind(id)
        .bind(now)
        .bind(importer)
        .bind(if g.chess960 { "chess960" } else { "standard" })
        .bind(&g.initial_fen)
        .bind(serde_json::Value::from(moves).to_string())
        .bind(serde_json::to_string(&g.tags).unwrap_or_else(|_| "[]".into()))
        .bind(&g.result)
        .bind(&g.termination)
        .bind(g.opening.map(|o| o.eco))
        .bind(g.opening.map(|o| o.name))
        .bind(&g.text)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(())
}

/// The imported game `id`, if there is one.
///
/// # Errors
/// Database errors.
pub async fn by_id(pool: &AnyPool, id: &str) -> Result<Option<ImportRow>, StoreError> {
    let row = sqlx::query(
        "SELECT i.id, i.created_at, a.username AS importer, i.variant, i.initial_fen, i.moves, \
         i.tags, i.result, i.opening_eco, i.opening_name, i.pgn \
         FROM imported_games i LEFT JOIN accounts a ON a.id = i.importer WHERE i.id = $1",
    )
    .bind(id)
    .fetch_optional(pool)
    .await?;
    let Some(r) = row else {
        return Ok(None);
    };
    let eco: Option<String> = r.try_get("opening_eco")?;
    let name: Option<String> = r.try_get("opening_name")?;
    Ok(Some(ImportRow {
        id: r.try_get("id")?,
        created_at: r.try_get("created_at")?,
        importer: r.try_get("importer")?,
        variant: r.try_get("variant")?,
        initial_fen: r.try_get("initial_fen")?,
        moves: r.try_get("moves")?,
        tags: r.try_get("tags")?,
        result: r.try_get("result")?,
        opening: eco.zip(name),
        pgn: r.try_get("pgn")?,
    }))
}
