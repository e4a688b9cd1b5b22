//! Challenges: a player invites a named player to a game (lichess's
//! `POST /api/challenge/{username}`); the invited player accepts or declines, the challenger
//! may cancel. Challenges are stored; the game an accepted challenge starts has **the
//! challenge's id** (lichess-bot relies on it). Each change is told live to both players'
//! event streams ([`ChallengeChange`]).

use std::sync::Arc;

use serde::Deserialize;
use serde_json::{json, Value};
use sqlx::{AnyPool, Row};
use tokio::sync::broadcast;

use super::body::{flag, number};
use super::wire::{perf_name, variant_json, Clock};
use crate::accounts::queries as accounts;
use crate::auth::Account;
use crate::db::now_unix_ms;
use crate::error::{ApiResult, AppError};
use crate::games::api::parse_time_control;
use crate::games::wire::{ColorChoice, Seat, Variant};
use crate::games::{Hub, NewGame};
use crate::ratings;
use crate::token;

/// The body of `POST /api/challenge/{username}` (form or JSON).
#[derive(Debug, Default, Deserialize)]
pub struct ChallengeForm {
    /// Rated (default casual).
    #[serde(default, deserialize_with = "flag")]
    pub rated: Option<bool>,
    /// Initial time, seconds.
    #[serde(default, rename = "clock.limit", deserialize_with = "number")]
    pub limit: Option<f64>,
    /// Increment, seconds.
    #[serde(default, rename = "clock.increment", deserialize_with = "number")]
    pub increment: Option<f64>,
    /// Correspondence: days per move.
    #[serde(default, deserialize_with = "number")]
    pub days: Option<f64>,
    /// The challenger's colour: `white`, `black`, `random`.
    #[serde(default)]
    pub color: Option<String>,
    /// `standard`, `chess960` or `fromPosition`.
    #[serde(default)]
    pub variant: Option<String>,
    /// The start position (`fromPosition`; also accepted with `standard`).
    #[serde(default)]
    pub fen: Option<String>,
    /// Stream the challenge until it is answered (lichess's `keepAliveStream`).
    #[serde(default, rename = "keepAliveStream", deserialize_with = "flag")]
    pub keep_alive_stream: Option<bool>,
    /// lichess's extra rules (`noAbort`, …): read, not applied (Arbiter's rules are the Laws').
    #[serde(default)]
    pub rules: Option<String>,
    /// berserk's and others' extra fields are ignored, as lichess ignores them.
    #[serde(flatten)]
    pub other: std::collections::HashMap<String, serde_json::Value>,
}

/// What a challenge asks for, in Arbiter's terms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Terms {
    /// Native time control (`5+3`, `45s+0`, `2d/move`, `untimed`).
    pub time_control: String,
    /// Variant.
    pub variant: Variant,
    /// Rated.
    pub rated: bool,
    /// The challenger's choice of colour.
    pub color: ColorChoice,
    /// A start position.
    pub fen: Option<String>,
}

fn whole(v: f64, what: &str) -> ApiResult<u64> {
    if v.is_finite() && v >= 0.0 && v.fract() == 0.0 && v <= 1e9 {
        Ok(v as u64)
    } else {
        Err(AppError::bad_request(
            "bad_time_control",
            format!("{what} must be a whole number of seconds or days, not {v}"),
        ))
    }
}

impl ChallengeForm {
    /// The terms the form asks for.
    ///
    /// # Errors
    /// 400 for a clock given with days, a negative or fractional time, an unknown colour or
    /// variant, `fromPosition` without a FEN.
    pub fn terms(&self) -> ApiResult<Terms> {
        let time_control = match (self.limit, self.increment, self.days) {
            (Some(_), _, Some(_)) | (_, Some(_), Some(_)) => {
                return Err(AppError::bad_request(
                    "bad_time_control",
                    "give either clock.limit and clock.increment, or days, not both",
                ))
            }
            (None, None, Some(d)) => {
                let d = whole(d, "days")?;
                if d == 0 {
                    return Err(AppError::bad_request(
                        "bad_time_control",
                        "days per move must be at least 1",
                    ));
                }
                format!("{d}d/move")
            }
            (None, None, None) => "untimed".to_owned(),
            (limit, inc, None) => {
                let limit = whole(limit.unwrap_or(0.0), "clock.limit")?;
                let inc = whole(inc.unwrap_or(0.0), "clock.increment")?;
                if limit % 60 == 0 && limit > 0 {
                    format!("{}+{inc}", limit / 60)
                } else {
                    format!("{limit}s+{inc}")
                }
            }
        };
        let color = match self.color.as_deref().unwrap_or("random") {
            "white" => ColorChoice::White,
            "black" => ColorChoice::Black,
            "random" => ColorChoice::Random,
            other => {
                return Err(AppError::bad_request(
                    "bad_color",
                    format!("color is white, black or random, not {other:?}"),
                ))
            }
        };
        let fen = self.fen.clone().filter(|f| !f.trim().is_empty());
        let variant = match self.variant.as_deref().unwrap_or("standard") {
            "standard" => Variant::Standard,
            "chess960" => Variant::Chess960,
            "fromPosition" => {
                if fen.is_none() {
                    return Err(AppError::bad_request(
                        "missing_fen",
                        "the variant fromPosition needs a fen",
                    ));
                }
                Variant::Standard
            }
            other => {
                return Err(AppError::bad_request(
                    "bad_variant",
                    format!(
                        "this site plays standard chess, Chess960 and games from a position \
                         (fromPosition), not {other:?}"
                    ),
                ))
            }
        };
        Ok(Terms {
            time_control,
            variant,
            rated: self.rated.unwrap_or(false),
            color,
            fen,
        })
    }
}

impl Terms {
    /// The game these terms make.
    ///
    /// # Errors
    /// 400 `bad_time_control`.
    pub fn new_game(&self) -> ApiResult<NewGame> {
        let mut game = NewGame::new(parse_time_control(&self.time_control)?);
        game.variant = self.variant;
        game.fen = self.fen.clone();
        game.rated = self.rated;
        Ok(game)
    }
}

/// A challenge as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Challenge {
    /// Id (and the id of its game once accepted).
    pub id: String,
    /// Who challenges.
    pub challenger: Account,
    /// Who is challenged.
    pub dest: Account,
    /// `created`, `accepted`, `declined`, `canceled`.
    pub status: String,
    /// The terms.
    pub terms: Terms,
    /// The challenger's colour in the game.
    pub final_color: Seat,
    /// lichess's reason key, when declined.
    pub decline_reason: Option<String>,
    /// Unix ms.
    pub created_at: i64,
}

/// A challenge's change, told to both players' event streams.
#[derive(Debug, Clone)]
pub struct ChallengeChange {
    /// The challenge after the change.
    pub challenge: Challenge,
}

/// lichess's reasons for declining, with their text.
const DECLINE_REASONS: [(&str, &str); 11] = [
    ("generic", "I'm not accepting challenges at the moment."),
    (
        "later",
        "This is not the right time for me, please ask again later.",
    ),
    (
        "toofast",
        "This time control is too fast for me, please challenge again with a slower game.",
    ),
    (
        "tooslow",
        "This time control is too slow for me, please challenge again with a faster game.",
    ),
    (
        "timecontrol",
        "I'm not accepting challenges with this time control.",
    ),
    ("rated", "Please send me a rated challenge instead."),
    ("casual", "Please send me a casual challenge instead."),
    (
        "standard",
        "I'm not accepting variant challenges right now.",
    ),
    ("variant", "I'm not willing to play this variant right now."),
    ("nobot", "I'm not accepting challenges from bots."),
    ("onlybot", "I'm only accepting challenges from bots."),
];

/// The challenges of every player.
#[derive(Debug)]
pub struct Challenges {
    pool: AnyPool,
    changes: broadcast::Sender<Arc<ChallengeChange>>,
}

impl Challenges {
    /// Over the database `pool`.
    pub fn new(pool: AnyPool) -> Self {
        Self {
            pool,
            changes: broadcast::channel(1024).0,
        }
    }

    /// Every challenge's changes from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<ChallengeChange>> {
        self.changes.subscribe()
    }

    fn tell(&self, c: &Challenge) {
        let _ = self.changes.send(Arc::new(ChallengeChange {
            challenge: c.clone(),
        }));
    }

    /// `challenger` challenges the player named `username`.
    ///
    /// # Errors
    /// 404 no such player; 400 oneself, a closed account, bad terms (time control, variant,
    /// FEN, a rated game without a clock); 500 database.
    pub async fn create(
        &self,
        challenger: &Account,
        username: &str,
        form: &ChallengeForm,
    ) -> ApiResult<Challenge> {
        let terms = form.terms()?;
        let dest = accounts::by_name(&self.pool, username)
            .await?
            .ok_or_else(|| AppError::NotFound(format!("no player named {username:?}")))?;
        if dest.closed_at.is_some() {
            return Err(AppError::bad_request(
                "account_closed",
                format!("{}'s account is closed", dest.username),
            ));
        }
        if dest.id == challenger.id {
            return Err(AppError::bad_request(
                "own_challenge",
                "you cannot challenge yourself",
            ));
        }
        let dest = Account {
            id: dest.id,
            username: dest.username,
            title: dest.title,
        };
        // The terms are checked as the game would be created.
        Hub::paired_row(&terms.new_game()?, challenger, &dest)?;
        let final_color = terms.color.seat(token::random_u64());
        let now = now_unix_ms();
        let c = Challenge {
            id: token::game_id(),
            challenger: challenger.clone(),
            dest,
            status: "created".into(),
            terms,
            final_color,
            decline_reason: None,
            created_at: now,
        };
        let color = c.terms.color.as_str();
        sqlx::query(
            "INSERT INTO challenges (id, challenger, dest, status, time_control, variant, rated, \
             color, final_color, fen, created_at, updated_at) \
             VALUES ($1, $2, $3, 'created', $4, $5, $6, $7, $8, $9, $10, $10)",
        )
        .bind(&c.id)
        .bind(&c.challenger.id)
        .bind(&c.dest.id)
        .bind(&c.terms.time_control)
        .bind(c.terms.variant.as_str())
        .bind(i64::from(c.terms.rated))
        .bind(color)
        .bind(final_color.as_str())
        .bind(&c.terms.fen)
        .bind(now)
        .execute(&self.pool)
        .await?;
        self.tell(&c);
        Ok(c)
    }

    /// The challenge `id`.
    ///
    /// # Errors
    /// Database errors.
    pub async fn get(&self, id: &str) -> ApiResult<Option<Challenge>> {
        let rows = self.query("c.id = $1", id).await?;
        Ok(rows.into_iter().next())
    }

    /// The pending challenges to and by `account` (`in`, `out`), oldest first.
    ///
    /// # Errors
    /// Database errors.
    pub async fn pending(&self, account: &str) -> ApiResult<(Vec<Challenge>, Vec<Challenge>)> {
        let incoming = self
            .query("c.dest = $1 AND c.status = 'created'", account)
            .await?;
        let outgoing = self
            .query("c.challenger = $1 AND c.status = 'created'", account)
            .await?;
        Ok((incoming, outgoing))
    }

    async fn query(&self, filter: &str, arg: &str) -> ApiResult<Vec<Challenge>> {
        let sql = format!(
            "SELECT c.id, c.status, c.time_control, c.variant, c.rated, c.color, c.final_color, \
             c.fen, c.decline_reason, c.created_at, \
             a.id AS a_id, a.username AS a_name, a.title AS a_title, \
             b.id AS b_id, b.username AS b_name, b.title AS b_title \
             FROM challenges c JOIN accounts a ON a.id = c.challenger \
             JOIN accounts b ON b.id = c.dest WHERE {filter} ORDER BY c.created_at LIMIT 100"
        );
        let rows = sqlx::query(&sql).bind(arg).fetch_all(&self.pool).await?;
        rows.iter()
            .map(|r| -> Result<Challenge, sqlx::Error> {
                let color: String = r.try_get("color")?;
                let final_color: String = r.try_get("final_color")?;
                let variant: String = r.try_get("variant")?;
                Ok(Challenge {
                    id: r.try_get("id")?,
                    challenger: Account {
                        id: r.try_get("a_id")?,
                        username: r.try_get("a_name")?,
                        title: r.try_get("a_title")?,
                    },
                    dest: Account {
                        id: r.try_get("b_id")?,
                        username: r.try_get("b_name")?,
                        title: r.try_get("b_title")?,
                    },
                    status: r.try_get("status")?,
                    terms: Terms {
                        time_control: r.try_get("time_control")?,
                        variant: if variant == "chess960" {
                            Variant::Chess960
                        } else {
                            Variant::Standard
                        },
                        rated: r.try_get::<i64, _>("rated")? != 0,
                        color: match color.as_str() {
                            "white" => ColorChoice::White,
                            "black" => ColorChoice::Black,
                            _ => ColorChoice::Random,
                        },
                        fen: r.try_get("fen")?,
                    },
                    final_color: if final_color == "black" {
                        Seat::Black
                    } else {
                        Seat::White
                    },
                    decline_reason: r.try_get("decline_reason")?,
                    created_at: r.try_get("created_at")?,
                })
            })
            .collect::<Result<Vec<_>, _>>()
            .map_err(AppError::from)
    }

    /// Move a pending challenge to `status` if `who` may (the challenged player accepts and
    /// declines, the challenger cancels): one statement, so that of two answers at once only
    /// one counts.
    async fn settle(
        &self,
        id: &str,
        who: &Account,
        status: &str,
        reason: Option<&str>,
    ) -> ApiResult<Challenge> {
        let c = self
            .get(id)
            .await?
            .ok_or_else(|| AppError::NotFound(format!("no challenge with id {id:?}")))?;
        let allowed = match status {
            "canceled" => c.challenger.id == who.id,
            _ => c.dest.id == who.id,
        };
        if !allowed {
            return Err(AppError::NotFound(format!(
                "no challenge with id {id:?} for you to {}",
                match status {
                    "accepted" => "accept",
                    "declined" => "decline",
                    _ => "cancel",
                }
            )));
        }
        let done = sqlx::query(
            "UPDATE challenges SET status = $1, decline_reason = $2, updated_at = $3 \
             WHERE id = $4 AND status = 'created'",
        )
        .bind(status)
        .bind(reason)
        .bind(now_unix_ms())
        .bind(id)
        .execute(&self.pool)
        .await?;
        if done.rows_affected() != 1 {
            return Err(AppError::bad_request(
                "challenge_answered",
                format!("the challenge is {} already", c.status),
            ));
        }
        Ok(Challenge {
            status: status.to_owned(),
            decline_reason: reason.map(str::to_owned),
            ..c
        })
    }

    /// The challenged player accepts: the game (with the challenge's id) starts.
    ///
    /// # Errors
    /// 404 not a challenge to `who`; 400 answered already; the game's errors (nothing stays
    /// accepted then).
    pub async fn accept(&self, hub: &Arc<Hub>, id: &str, who: &Account) -> ApiResult<Challenge> {
        let c = self.settle(id, who, "accepted", None).await?;
        let (white, black) = match c.final_color {
            Seat::White => (&c.challenger, &c.dest),
            Seat::Black => (&c.dest, &c.challenger),
        };
        let created = match c.terms.new_game() {
            Ok(game) => {
                hub.create_paired_as(c.id.clone(), &game, white, black)
                    .await
            }
            Err(e) => Err(e),
        };
        if let Err(e) = created {
            // Not started: the challenge stands again.
            let _ = sqlx::query("UPDATE challenges SET status = 'created' WHERE id = $1")
                .bind(id)
                .execute(&self.pool)
                .await;
            return Err(e);
        }
        self.tell(&c);
        Ok(c)
    }

    /// The challenged player declines, with lichess's reason key (`generic` by default).
    ///
    /// # Errors
    /// 404 not a challenge to `who`; 400 an unknown reason, answered already.
    pub async fn decline(&self, id: &str, who: &Account, reason: Option<&str>) -> ApiResult<()> {
        let reason = reason.filter(|r| !r.is_empty()).unwrap_or("generic");
        let key = reason.to_lowercase();
        if !DECLINE_REASONS.iter().any(|(k, _)| *k == key) {
            return Err(AppError::bad_request(
                "bad_reason",
                format!("unknown reason {reason:?}"),
            ));
        }
        let c = self.settle(id, who, "declined", Some(&key)).await?;
        self.tell(&c);
        Ok(())
    }

    /// The challenger withdraws a challenge not yet answered.
    ///
    /// # Errors
    /// 404 not a challenge of `who`; 400 answered already.
    pub async fn cancel(&self, id: &str, who: &Account) -> ApiResult<()> {
        let c = self.settle(id, who, "canceled", None).await?;
        self.tell(&c);
        Ok(())
    }

    /// lichess's challenge JSON, from the point of view of `viewer` (its `direction`).
    ///
    /// # Errors
    /// Database errors (the players' ratings).
    pub async fn json(&self, c: &Challenge, viewer: &str, origin: &str) -> ApiResult<Value> {
        let clock = Clock::of(&c.terms.time_control);
        let speed = clock.speed();
        let category = c.terms.new_game().ok().and_then(|g| g.category());
        let now = now_unix_ms();
        let mut users = Vec::new();
        for a in [&c.challenger, &c.dest] {
            let mut u = json!({"id": a.username.to_lowercase(), "name": a.username});
            if let Some(t) = &a.title {
                u["title"] = json!(t);
            }
            if let Some(cat) = category {
                let r = ratings::rating_of(&self.pool, &a.id, cat, now).await?;
                u["rating"] = json!(r.rating);
                if r.provisional {
                    u["provisional"] = json!(true);
                }
            }
            users.push(u);
        }
        let initial_fen = c
            .terms
            .fen
            .clone()
            .unwrap_or_else(|| super::wire::STANDARD_FEN.to_owned());
        let mut v = json!({
            "id": c.id,
            "url": format!("{origin}/{}", c.id),
            "status": c.status,
            "challenger": users[0],
            "destUser": users[1],
            "variant": variant_json(c.terms.variant, &initial_fen),
            "rated": c.terms.rated,
            "speed": speed,
            "timeControl": clock.time_control_json(),
            "color": c.terms.color.as_str(),
            "finalColor": c.final_color.as_str(),
            "perf": {"icon": "", "name": perf_name(speed, c.terms.variant)},
            "direction": if c.challenger.id == viewer { "out" } else { "in" },
        });
        if let Some(f) = &c.terms.fen {
            v["initialFen"] = json!(f);
        }
        if let Some(r) = &c.decline_reason {
            let text = DECLINE_REASONS
                .iter()
                .find(|(k, _)| k == r)
                .map_or("", |(_, t)| t);
            v["declineReason"] = json!(text);
            v["declineReasonKey"] = json!(r);
        }
        Ok(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(body: &str) -> ChallengeForm {
        super::super::body::parse(body.as_bytes(), false).unwrap()
    }

    #[test]
    fn a_clock_in_seconds_becomes_the_native_time_control() {
        let t = form("clock.limit=300&clock.increment=3&rated=true&color=white")
            .terms()
            .unwrap();
        assert_eq!(t.time_control, "5+3");
        assert!(t.rated);
        assert_eq!(t.color, ColorChoice::White);
        let t = form("clock.limit=45&clock.increment=0").terms().unwrap();
        assert_eq!(t.time_control, "45s+0");
        let t = form("days=3").terms().unwrap();
        assert_eq!(t.time_control, "3d/move");
        assert_eq!(form("").terms().unwrap().time_control, "untimed");
    }

    #[test]
    fn bad_terms_are_refused_with_a_400() {
        for body in [
            "clock.limit=300&days=2",
            "clock.limit=-60",
            "clock.limit=12.5",
            "color=green",
            "variant=atomic",
            "variant=fromPosition",
            "days=0",
        ] {
            let e = form(body).terms().unwrap_err();
            assert_eq!(e.status(), 400, "{body}");
        }
    }
}
