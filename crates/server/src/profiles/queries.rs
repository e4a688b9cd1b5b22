//! The profile queries: a player's games (filtered, paged in SQL, newest first), counts, the
//! games in progress, and the best ratings of a category.

use std::collections::HashMap;

use sqlx::any::AnyRow;
use sqlx::{AnyPool, Row};

use crate::accounts::queries::PlayerName;
use crate::db::{game_row, GameRow, RatingRow, StoreError};

/// Which of a player's games.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Filter<'a> {
    /// Only this rating category.
    pub category: Option<&'a str>,
    /// Only this result from the player's side.
    pub outcome: Option<Outcome>,
}

/// A result from one player's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The player won.
    Win,
    /// A draw.
    Draw,
    /// The player lost.
    Loss,
}

/// The seat an account held: its games are read side by side, each side along its own index
/// (`games_white_list`, `games_black_list`: account, time, id and the filtered columns), so
/// that a page is an index walk, not a sort of every game. An account never holds both seats
/// of a game (`own_game`), so the two sides never overlap.
const SIDES: [(&str, &str, &str); 2] = [("white", "1-0", "0-1"), ("black", "0-1", "1-0")];

/// The SQL condition of `filter` on `games g` for the account bound as `$1` playing `side`
/// (won by `win`, lost by `loss`), the category bound as `$2` when filtered.
fn condition(side: (&str, &str, &str), statuses: &str, filter: Filter<'_>) -> String {
    let (colour, win, loss) = side;
    let mut sql = format!(
        "g.{colour}_account = $1 AND g.status IN ({statuses}) \
         AND COALESCE(g.termination, '') <> 'aborted'"
    );
    if filter.category.is_some() {
        sql.push_str(" AND g.category = $2");
    }
    match filter.outcome {
        None => {}
        Some(Outcome::Win) => sql.push_str(&format!(" AND g.result = '{win}'")),
        Some(Outcome::Draw) => sql.push_str(" AND g.result = '1/2-1/2'"),
        Some(Outcome::Loss) => sql.push_str(&format!(" AND g.result = '{loss}'")),
    }
    sql
}

/// The ids of the games matching `filter` from both sides, newest first, `extra` added to each
/// side's condition, at most `limit` (an SQL expression) of each side.
fn ids_newest_first(statuses: &str, filter: Filter<'_>, extra: &str, limit: &str) -> String {
    let side = |s| {
        format!(
            "SELECT * FROM (SELECT g.id, g.created_at FROM games g WHERE {}{extra} \
             ORDER BY g.created_at DESC, g.id DESC LIMIT {limit}) AS {}",
            condition(s, statuses, filter),
            s.0
        )
    };
    format!("{} UNION ALL {}", side(SIDES[0]), side(SIDES[1]))
}

/// Statuses of the games a list shows: played or being played (not waiting or withdrawn).
const LISTED: &str = "'playing', 'adjourned', 'finished'";

/// A game with its players' names (usernames and whether closed, by account id).
pub struct NamedGame {
    /// The game's row.
    pub row: GameRow,
    /// The names of its accounts.
    pub names: HashMap<String, PlayerName>,
    /// The stored opening of a finished game (ECO, name; both empty: looked up, no name);
    /// `None` until looked up.
    pub opening: Option<(String, String)>,
}

const NAMED_GAME: &str = "SELECT g.*, wa.username AS white_username, \
     wa.closed_at AS white_closed_at, wa.title AS white_title, ba.username AS black_username, \
     ba.closed_at AS black_closed_at, ba.title AS black_title FROM games g \
     LEFT JOIN accounts wa ON wa.id = g.white_account \
     LEFT JOIN accounts ba ON ba.id = g.black_account";

fn named_game(r: &AnyRow) -> Result<NamedGame, StoreError> {
    let row = game_row(r)?;
    let mut names = HashMap::new();
    for (account, name, closed, title) in [
        (
            &row.players.white_account,
            "white_username",
            "white_closed_at",
            "white_title",
        ),
        (
            &row.players.black_account,
            "black_username",
            "black_closed_at",
            "black_title",
        ),
    ] {
        if let Some(id) = account {
            let name: Option<String> = r.try_get(name)?;
            let closed: Option<i64> = r.try_get(closed)?;
            let title: Option<String> = r.try_get(title)?;
            if let Some(username) = name {
                names.insert(
                    id.clone(),
                    PlayerName {
                        username,
                        closed: closed.is_some(),
                        title,
                    },
                );
            }
        }
    }
    let eco: Option<String> = r.try_get("opening_eco")?;
    let name: Option<String> = r.try_get("opening_name")?;
    Ok(NamedGame {
        row,
        names,
        opening: eco.zip(name),
    })
}

/// Store the opening of finished game `id` (`("", "")`: no name), looked up once so that
/// lists read it from the row. Not part of the game's record: a lost write is looked up again.
///
/// # Errors
/// Database errors.
pub async fn store_opening(
    pool: &AnyPool,
    id: &str,
    (eco, name): (&str, &str),
) -> Result<(), StoreError> {
    sqlx::query(
        "UPDATE games SET opening_eco = $1, opening_name = $2 \
         WHERE id = $3 AND status = 'finished'",
    )
    .bind(eco)
    .bind(name)
    .bind(id)
    .execute(pool)
    .await?;
    Ok(())
}

/// One page of `account`'s games (newest first) and the number of games matching `filter`.
///
/// # Errors
/// Database errors.
pub async fn games_page(
    pool: &AnyPool,
    account: &str,
    filter: Filter<'_>,
    limit: i64,
    offset: i64,
) -> Result<(Vec<NamedGame>, i64), StoreError> {
    let counts = SIDES.map(|side| {
        format!(
            "(SELECT COUNT(*) FROM games g WHERE {})",
            condition(side, LISTED, filter)
        )
    });
    let count_sql = format!("SELECT {} + {} AS n", counts[0], counts[1]);
    let mut count = sqlx::query(&count_sql).bind(account);
    if let Some(c) = filter.category {
        count = count.bind(c);
    }
    let total: i64 = count.fetch_one(pool).await?.try_get("n")?;
    let (l, o) = if filter.category.is_some() {
        ("$3", "$4")
    } else {
        ("$2", "$3")
    };
    // Each side's newest `offset + limit`, merged; then the whole rows of the page only.
    let ids = ids_newest_first(LISTED, filter, "", &format!("{l} + {o}"));
    let page_sql = format!(
        "{NAMED_GAME} WHERE g.id IN (SELECT id FROM ({ids}) AS both_sides \
         ORDER BY created_at DESC, id DESC LIMIT {l} OFFSET {o}) \
         ORDER BY g.created_at DESC, g.id DESC"
    );
    let mut page = sqlx::query(&page_sql).bind(account);
    if let Some(c) = filter.category {
        page = page.bind(c);
    }
    let rows = page.bind(limit).bind(offset).fetch_all(pool).await?;
    let games = rows.iter().map(named_game).collect::<Result<_, _>>()?;
    Ok((games, total))
}

/// Where a PGN export has got to: the creation time and id of the last game sent.
pub type Cursor = (i64, String);

/// The next `limit` finished games of `account` after `cursor` (newest first; from the
/// newest when `None`). Keyset paging: each batch costs the same however deep the export.
///
/// # Errors
/// Database errors.
pub async fn finished_after(
    pool: &AnyPool,
    account: &str,
    category: Option<&str>,
    cursor: Option<&Cursor>,
    limit: i64,
) -> Result<Vec<NamedGame>, StoreError> {
    let filter = Filter {
        category,
        outcome: None,
    };
    let mut next = if category.is_some() { 3 } else { 2 };
    let mut after = String::new();
    if cursor.is_some() {
        after = format!(
            " AND (g.created_at < ${a} OR (g.created_at = ${a} AND g.id < ${b}))",
            a = next,
            b = next + 1
        );
        next += 2;
    }
    let ids = ids_newest_first("'finished'", filter, &after, &format!("${next}"));
    let sql = format!(
        "{NAMED_GAME} WHERE g.id IN (SELECT id FROM ({ids}) AS both_sides \
         ORDER BY created_at DESC, id DESC LIMIT ${next}) \
         ORDER BY g.created_at DESC, g.id DESC"
    );
    let mut q = sqlx::query(&sql).bind(account);
    if let Some(c) = category {
        q = q.bind(c);
    }
    if let Some((at, id)) = cursor {
        q = q.bind(*at).bind(id.as_str());
    }
    let rows = q.bind(limit).fetch_all(pool).await?;
    rows.iter().map(named_game).collect()
}

/// `account`'s finished games counted by result (aborted games left out).
///
/// # Errors
/// Database errors.
pub async fn counts(pool: &AnyPool, account: &str) -> Result<[i64; 4], StoreError> {
    let side = |(colour, win, loss): (&str, &str, &str)| {
        format!(
            "SELECT COUNT(*) AS games, \
             COALESCE(SUM(CASE WHEN g.result = '{win}' THEN 1 ELSE 0 END), 0) AS wins, \
             COALESCE(SUM(CASE WHEN g.result = '1/2-1/2' THEN 1 ELSE 0 END), 0) AS draws, \
             COALESCE(SUM(CASE WHEN g.result = '{loss}' THEN 1 ELSE 0 END), 0) AS losses \
             FROM games g WHERE {}",
            condition((colour, win, loss), "'finished'", Filter::default())
        )
    };
    let sql = format!("{} UNION ALL {}", side(SIDES[0]), side(SIDES[1]));
    let mut out = [0; 4];
    for r in sqlx::query(&sql).bind(account).fetch_all(pool).await? {
        for (i, column) in ["games", "wins", "draws", "losses"].into_iter().enumerate() {
            out[i] += r.try_get::<i64, _>(column)?;
        }
    }
    Ok(out)
}

/// Ids of `account`'s games in progress (playing or adjourned), newest first.
///
/// # Errors
/// Database errors.
pub async fn playing(pool: &AnyPool, account: &str) -> Result<Vec<String>, StoreError> {
    let ids = ids_newest_first("'playing', 'adjourned'", Filter::default(), "", "50");
    let sql = format!("SELECT id FROM ({ids}) AS both_sides ORDER BY created_at DESC, id DESC");
    let rows = sqlx::query(&sql).bind(account).fetch_all(pool).await?;
    Ok(rows
        .iter()
        .map(|r| r.try_get("id"))
        .collect::<Result<_, _>>()?)
}

/// The id of a game `account` is playing now (not adjourned), if any.
///
/// # Errors
/// Database errors.
pub async fn playing_now(pool: &AnyPool, account: &str) -> Result<Option<String>, StoreError> {
    let ids = ids_newest_first("'playing'", Filter::default(), "", "1");
    let sql = format!("SELECT id FROM ({ids}) AS both_sides ORDER BY created_at DESC, id DESC");
    let row = sqlx::query(&sql).bind(account).fetch_optional(pool).await?;
    Ok(row.map(|r| r.try_get("id")).transpose()?)
}

/// The ratings of `category` with a stored RD of at most `max_rd`, of open accounts that
/// played a rated game since `since` (unix ms), best first: `(username, rating)`.
///
/// # Errors
/// Database errors.
pub async fn best_ratings(
    pool: &AnyPool,
    category: &str,
    max_rd: f64,
    since: i64,
    limit: i64,
) -> Result<Vec<(String, RatingRow)>, StoreError> {
    let rows = sqlx::query(
        "SELECT a.username, r.rating, r.rd, r.volatility, r.games, r.last_played \
         FROM ratings r JOIN accounts a ON a.id = r.account_id \
         WHERE r.category = $1 AND r.rd <= $2 AND r.last_played >= $3 \
         AND a.closed_at IS NULL ORDER BY r.rating DESC LIMIT $4",
    )
    .bind(category)
    .bind(max_rd)
    .bind(since)
    .bind(limit)
    .fetch_all(pool)
    .await?;
    let read = |r: &AnyRow| -> Result<(String, RatingRow), sqlx::Error> {
        Ok((
            r.try_get("username")?,
            RatingRow {
                rating: r.try_get("rating")?,
                rd: r.try_get("rd")?,
                volatility: r.try_get("volatility")?,
                games: r.try_get("games")?,
                last_played: r.try_get("last_played")?,
            },
        ))
    };
    Ok(rows.iter().map(read).collect::<Result<_, _>>()?)
}
