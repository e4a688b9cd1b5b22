//! `GET /api/stream/event`: a player's events — `gameStart` and `gameFinish` of their games,
//! `challenge`, `challengeCanceled` and `challengeDeclined` — as NDJSON; and
//! `GET /api/account/playing`. On connecting, the games being played and the challenges
//! pending are sent first (as lichess does); then the live feeds, and a look at the database
//! when the stream fell behind them or, in a cluster, every few seconds (games owned by other
//! nodes).

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};
use sqlx::Row;
use tokio::sync::broadcast::error::RecvError;

use super::error::LichessResult;
use super::ndjson::{self, Gone, Lines};
use super::service::{origin, require_any_scope, Lichess};
use super::wire::{game_info, seat_of, Source};
use crate::auth::{Account, LoggedIn};
use crate::error::ApiResult;
use crate::games::feed::Lifecycle;
use crate::games::wire::GameView;

/// How often the stream looks at the database for what the live feeds did not bring, in a
/// cluster.
const RESYNC: Duration = Duration::from_secs(5);

/// The ids of the games `account` is playing (or has adjourned), newest first.
async fn playing_ids(l: &Lichess, account: &str) -> ApiResult<Vec<String>> {
    let rows = sqlx::query(
        "SELECT id FROM games WHERE status IN ('playing', 'adjourned') \
         AND (white_account = $1 OR black_account = $1) ORDER BY created_at DESC LIMIT 100",
    )
    .bind(account)
    .fetch_all(l.hub.store().pool())
    .await?;
    Ok(rows
        .iter()
        .filter_map(|r| r.try_get::<String, _>("id").ok())
        .collect())
}

/// How the game came about: a challenge (its id is the game's), the computer, or the lobby.
async fn source(l: &Lichess, view: &GameView) -> Source {
    if view.computer.is_some() {
        Source::Ai
    } else if matches!(l.challenges.get(&view.id).await, Ok(Some(_))) {
        Source::Friend
    } else {
        Source::Lobby
    }
}

async fn info(l: &Lichess, id: &str, account: &Account) -> Option<Value> {
    let view = l.hub.view(id).await.ok()?;
    let seat = seat_of(&view, &account.username)?;
    Some(game_info(&view, seat, source(l, &view).await))
}

/// `GET /api/account/playing`: `{"nowPlaying": [...]}`.
pub async fn playing(State(l): State<Arc<Lichess>>, who: LoggedIn) -> LichessResult<Json<Value>> {
    let mut now = Vec::new();
    for id in playing_ids(&l, &who.account.id).await? {
        if let Some(v) = info(&l, &id, &who.account).await {
            now.push(v);
        }
    }
    Ok(Json(json!({"nowPlaying": now})))
}

/// `GET /game/export/{id}`: the game's PGN (lichess-bot saves it at the end).
pub async fn export_pgn(
    State(l): State<Arc<Lichess>>,
    Path(id): Path<String>,
) -> LichessResult<Response> {
    let id = id.trim_end_matches(".pgn").to_owned();
    let pgn = l.hub.pgn(&id).await?;
    Ok((
        [(
            axum::http::header::CONTENT_TYPE,
            "application/x-chess-pgn; charset=utf-8",
        )],
        pgn,
    )
        .into_response())
}

/// `GET /api/stream/event`.
pub async fn stream(
    State(l): State<Arc<Lichess>>,
    who: LoggedIn,
    headers: HeaderMap,
) -> LichessResult<Response> {
    require_any_scope(&who, &["challenge:read", "bot:play", "board:play"])?;
    let origin = origin(&headers);
    let feed = l.hub.feed().subscribe();
    let challenges = l.challenges.subscribe();
    let presence = l.presence.connect(&who.account.id);
    let closing = l.hub.closing();
    Ok(ndjson::stream(closing, move |lines| async move {
        let _online = presence;
        let mut s = EventStream {
            l,
            me: who.account,
            origin,
            games: HashSet::new(),
            challenges: HashSet::new(),
            lines,
        };
        let _ = s.run(feed, challenges).await;
    }))
}

struct EventStream {
    l: Arc<Lichess>,
    me: Account,
    origin: String,
    /// Games told as started and not yet as finished.
    games: HashSet<String>,
    /// Challenges told as pending.
    challenges: HashSet<String>,
    lines: Lines,
}

impl EventStream {
    async fn run(
        &mut self,
        mut feed: tokio::sync::broadcast::Receiver<Arc<crate::games::feed::GameChange>>,
        mut changes: tokio::sync::broadcast::Receiver<Arc<super::challenge::ChallengeChange>>,
    ) -> Result<(), Gone> {
        self.resync().await?;
        // On one node the live feeds bring everything (a stream that falls behind looks at
        // the database); in a cluster, games owned by other nodes and challenges answered
        // there are found by looking every few seconds.
        let clustered = self.l.hub.cluster().is_some();
        let mut tick = tokio::time::interval(if clustered {
            RESYNC
        } else {
            Duration::from_secs(24 * 3600)
        });
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        tick.tick().await;
        loop {
            tokio::select! {
                c = feed.recv() => match c {
                    Ok(c) => {
                        if c.seat_of(&self.me.id).is_none() {
                            continue;
                        }
                        match &c.what {
                            Lifecycle::Started => self.started(&c.game).await?,
                            Lifecycle::Ended(_) => self.finished(&c.game).await?,
                        }
                    }
                    Err(RecvError::Lagged(_)) => self.resync().await?,
                    Err(RecvError::Closed) => return Ok(()),
                },
                c = changes.recv() => match c {
                    Ok(c) => self.challenge(&c.challenge).await?,
                    Err(RecvError::Lagged(_)) => self.resync().await?,
                    Err(RecvError::Closed) => return Ok(()),
                },
                _ = tick.tick() => self.resync().await?,
            }
        }
    }

    async fn started(&mut self, id: &str) -> Result<(), Gone> {
        if self.games.contains(id) {
            return Ok(());
        }
        if let Some(game) = info(&self.l, id, &self.me).await {
            self.games.insert(id.to_owned());
            self.lines
                .send(&json!({"type": "gameStart", "game": game}))
                .await?;
        }
        Ok(())
    }

    async fn finished(&mut self, id: &str) -> Result<(), Gone> {
        if let Some(game) = info(&self.l, id, &self.me).await {
            self.games.remove(id);
            self.lines
                .send(&json!({"type": "gameFinish", "game": game}))
                .await?;
        }
        Ok(())
    }

    async fn challenge(&mut self, c: &super::challenge::Challenge) -> Result<(), Gone> {
        if c.challenger.id != self.me.id && c.dest.id != self.me.id {
            return Ok(());
        }
        // A pending challenge is told once; an answered one is forgotten.
        let kind = match c.status.as_str() {
            "created" if self.challenges.insert(c.id.clone()) => "challenge",
            "created" => return Ok(()),
            answered => {
                self.challenges.remove(&c.id);
                match answered {
                    "canceled" => "challengeCanceled",
                    "declined" => "challengeDeclined",
                    // Accepted: the game's start follows through the feed.
                    _ => return Ok(()),
                }
            }
        };
        let Ok(json) = self.l.challenges.json(c, &self.me.id, &self.origin).await else {
            return Ok(());
        };
        self.lines
            .send(&json!({"type": kind, "challenge": json}))
            .await
    }

    /// What the database says: games started or finished and challenges pending that this
    /// stream has not told.
    async fn resync(&mut self) -> Result<(), Gone> {
        let Ok(playing) = playing_ids(&self.l, &self.me.id).await else {
            return Ok(());
        };
        let ended: Vec<String> = self
            .games
            .iter()
            .filter(|g| !playing.contains(g))
            .cloned()
            .collect();
        for id in ended {
            self.finished(&id).await?;
            self.games.remove(&id);
        }
        for id in playing.iter().rev() {
            self.started(id).await?;
        }
        if let Ok((incoming, outgoing)) = self.l.challenges.pending(&self.me.id).await {
            let pending: HashSet<String> = incoming
                .iter()
                .chain(&outgoing)
                .map(|c| c.id.clone())
                .collect();
            // Answered meanwhile (seen by another node): forget them.
            self.challenges.retain(|id| pending.contains(id));
            for c in incoming.iter().chain(&outgoing) {
                self.challenge(c).await?;
            }
        }
        Ok(())
    }
}
