//! The lobby: open seeks and the quick-pairing pools, in memory, published live to every
//! lobby WebSocket. One task (the wave) pairs each pool every half second, publishes the
//! pools' counts when they changed (at most twice a second, however many join: with N
//! sockets, a message per join would cost N² sends), and drops the seeks and pool places of
//! players whose lobby sockets have all been closed for a while. Games are created outside the
//! lobby's lock, through the games' [`Hub`].
//!
//! Public messages go through one broadcast channel: a socket that falls behind is sent the
//! whole lobby again. `game_started` goes to the two players' own sockets through their
//! private, unbounded channels, so that it can never be lost that way.
//!
//! Seeks and pool places are intentions, not records: they are not stored, and a restart
//! forgets them (as lichess forgets its hooks). A game that starts from them is stored like
//! any other before anyone is told.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::ws::Utf8Bytes;
use serde_json::json;
use tokio::sync::{broadcast, mpsc};

use super::matching::{self, Waiting};
use super::wire::{LobbyView, Pool, Seek, SeekRequest};
use crate::auth::Account;
use crate::db::now_unix_ms;
use crate::error::{ApiResult, AppError};
use crate::games::api::parse_time_control;
use crate::games::wire::{ColorChoice, Seat, Variant};
use crate::games::{Hub, NewGame};
use crate::ratings::{self, Category};
use crate::token;

/// The pools' time controls (rated, standard chess).
pub const POOLS: [&str; 9] = [
    "1+0", "3+0", "3+2", "5+0", "5+3", "10+0", "10+5", "15+10", "30+0",
];

/// Seeks one account may have open at once.
pub const MAX_SEEKS: usize = 3;

/// How long a player's seeks and pool place outlive their last lobby socket (or, for a
/// program that never opened one, their creation), ms.
pub const ABSENCE_GRACE_MS: i64 = 30_000;

/// A lobby socket's subscription: the lobby now, the public messages after it, and the
/// messages for its player alone.
pub struct Subscription {
    /// The seeks and pools when the socket opened.
    pub view: LobbyView,
    /// Everyone's messages (JSON text).
    pub public: broadcast::Receiver<Utf8Bytes>,
    /// This player's own messages (`game_started`); never lags.
    pub private: mpsc::UnboundedReceiver<Utf8Bytes>,
    /// The socket's number, to unsubscribe.
    pub id: u64,
}

/// What a seek came to (see [`Lobby::seek_or_pair`]).
#[derive(Debug, Clone)]
pub enum SeekOutcome {
    /// Posted: waiting for an opponent.
    Waiting(Seek),
    /// Paired with a compatible seek at once: the game's id.
    Paired(String),
}

struct OpenSeek {
    seek: Seek,
    account: Account,
}

struct Member {
    pool: &'static str,
    account: Account,
    rating: i64,
    joined_ms: i64,
}

#[derive(Default)]
struct State {
    seeks: Vec<OpenSeek>,
    members: HashMap<String, Member>,
    /// Open lobby sockets per account.
    sockets: HashMap<String, usize>,
    /// Since when an account with seeks or a pool place has had no socket (unix ms).
    absent_since: HashMap<String, i64>,
    /// Each account's open sockets: their private channels by socket number.
    private: HashMap<String, HashMap<u64, mpsc::UnboundedSender<Utf8Bytes>>>,
    /// The last socket number given.
    last_socket: u64,
    /// The pools' counts changed since the last wave published them.
    pools_dirty: bool,
}

impl State {
    fn pools(&self) -> Vec<Pool> {
        POOLS
            .iter()
            .map(|&tc| Pool {
                id: tc.to_owned(),
                time_control: tc.to_owned(),
                speed: pool_category(tc).map_or("", Category::name).to_owned(),
                waiting: self.members.values().filter(|m| m.pool == tc).count(),
            })
            .collect()
    }

    fn view(&self) -> LobbyView {
        LobbyView {
            seeks: self.seeks.iter().rev().map(|s| s.seek.clone()).collect(),
            pools: self.pools(),
        }
    }

    /// Remove every seek and the pool place of `account`; returns the removed seeks' ids and
    /// whether a pool place went.
    fn remove_player(&mut self, account: &str) -> (Vec<String>, bool) {
        let mut gone = Vec::new();
        self.seeks.retain(|s| {
            let mine = s.account.id == account;
            if mine {
                gone.push(s.seek.id.clone());
            }
            !mine
        });
        let left = self.members.remove(account).is_some();
        self.absent_since.remove(account);
        (gone, left)
    }

    /// Note that `account` has something in the lobby; if no socket of theirs is open, the
    /// grace period runs from now.
    fn present_or_waiting(&mut self, account: &str, now: i64) {
        if self.sockets.get(account).copied().unwrap_or(0) == 0 {
            self.absent_since.entry(account.to_owned()).or_insert(now);
        }
    }
}

fn pool_category(tc: &str) -> Option<Category> {
    new_game(tc, Variant::Standard, true)
        .ok()
        .and_then(|g| g.category())
}

/// The game a seek or a pool starts: standard rules, both seats taken at once.
fn new_game(time_control: &str, variant: Variant, rated: bool) -> ApiResult<NewGame> {
    let mut game = NewGame::new(parse_time_control(time_control)?);
    game.variant = variant;
    game.rated = rated;
    Ok(game)
}

/// The lobby.
pub struct Lobby {
    hub: Arc<Hub>,
    state: Mutex<State>,
    events: broadcast::Sender<Utf8Bytes>,
}

impl std::fmt::Debug for Lobby {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Lobby").finish_non_exhaustive()
    }
}

impl Lobby {
    /// A lobby creating its games through `hub`; starts the wave task.
    pub fn start(hub: Arc<Hub>) -> Arc<Self> {
        let lobby = Arc::new(Lobby {
            hub,
            state: Mutex::new(State::default()),
            events: broadcast::channel(1024).0,
        });
        let weak = Arc::downgrade(&lobby);
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(Duration::from_millis(500));
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tick.tick().await;
                let Some(lobby) = weak.upgrade() else { break };
                lobby.wave().await;
            }
        });
        lobby
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().expect("lobby lock")
    }

    fn publish(&self, msg: serde_json::Value) {
        let _ = self.events.send(msg.to_string().into());
    }

    /// Publish the removal of `seeks`; note a change of the pools' counts for the next wave.
    fn publish_removed(&self, seeks: Vec<String>, pools_changed: bool) {
        for id in seeks {
            self.publish(json!({"type": "seek_removed", "id": id}));
        }
        if pools_changed {
            self.state().pools_dirty = true;
        }
    }

    /// The seeks and pools now.
    pub fn view(&self) -> LobbyView {
        self.state().view()
    }

    /// A lobby socket opens: the lobby now and the live messages after it.
    pub fn subscribe(&self, account: Option<&Account>) -> Subscription {
        let mut st = self.state();
        st.last_socket += 1;
        let id = st.last_socket;
        let (tx, private) = mpsc::unbounded_channel();
        if let Some(a) = account {
            *st.sockets.entry(a.id.clone()).or_default() += 1;
            st.absent_since.remove(&a.id);
            st.private.entry(a.id.clone()).or_default().insert(id, tx);
        }
        Subscription {
            view: st.view(),
            public: self.events.subscribe(),
            private,
            id,
        }
    }

    /// A lobby socket closed.
    pub fn unsubscribe(&self, account: Option<&Account>, socket: u64) {
        let Some(a) = account else { return };
        let mut st = self.state();
        if let Some(mine) = st.private.get_mut(&a.id) {
            mine.remove(&socket);
            if mine.is_empty() {
                st.private.remove(&a.id);
            }
        }
        let n = st.sockets.entry(a.id.clone()).or_default();
        *n = n.saturating_sub(1);
        if *n == 0 {
            st.sockets.remove(&a.id);
            let has_something =
                st.members.contains_key(&a.id) || st.seeks.iter().any(|s| s.account.id == a.id);
            if has_something {
                st.absent_since.insert(a.id.clone(), now_unix_ms());
            }
        }
    }

    /// Post a seek.
    ///
    /// # Errors
    /// 400 `bad_time_control`, `bad_variant`, `cannot_be_rated`, `bad_rating_range`; 409
    /// `too_many_seeks`.
    pub async fn add_seek(&self, account: &Account, req: SeekRequest) -> ApiResult<Seek> {
        account.lobby_allowed()?;
        let game = new_game(&req.time_control, req.variant, req.rated)?;
        let category = game.category();
        if req.rated && category.is_none() {
            return Err(AppError::bad_request(
                "cannot_be_rated",
                "an untimed game cannot be rated",
            ));
        }
        for r in [req.rating_min, req.rating_max].into_iter().flatten() {
            if !(0..=4000).contains(&r) {
                return Err(AppError::bad_request(
                    "bad_rating_range",
                    format!("a rating bound is between 0 and 4000, not {r}"),
                ));
            }
        }
        if let (Some(lo), Some(hi)) = (req.rating_min, req.rating_max) {
            if lo > hi {
                return Err(AppError::bad_request(
                    "bad_rating_range",
                    format!("rating_min {lo} is above rating_max {hi}"),
                ));
            }
        }
        let now = now_unix_ms();
        let rating = match category {
            Some(c) => ratings::rating_of(self.hub.store().pool(), &account.id, c, now).await?,
            None => ratings::RatingView::of(&ratings::unrated(), now),
        };
        let seek = Seek {
            id: token::game_id(),
            username: account.username.clone(),
            rating: rating.rating,
            provisional: rating.provisional,
            time_control: game.time_control.to_string(),
            variant: game.variant,
            speed: category.map_or("untimed", Category::name).to_owned(),
            rated: req.rated,
            color: req.color,
            rating_min: req.rating_min,
            rating_max: req.rating_max,
            created_at: now,
        };
        {
            let mut st = self.state();
            if st
                .seeks
                .iter()
                .filter(|s| s.account.id == account.id)
                .count()
                >= MAX_SEEKS
            {
                return Err(AppError::conflict(
                    "too_many_seeks",
                    format!("at most {MAX_SEEKS} open seeks; withdraw one first"),
                ));
            }
            st.seeks.push(OpenSeek {
                seek: seek.clone(),
                account: account.clone(),
            });
            st.present_or_waiting(&account.id, now);
        }
        self.publish(json!({"type": "seek_added", "seek": seek}));
        Ok(seek)
    }

    /// Withdraw one's own seek.
    ///
    /// # Errors
    /// 404 no such seek of this account.
    pub fn remove_seek(&self, account: &Account, id: &str) -> ApiResult<()> {
        let removed = {
            let mut st = self.state();
            let before = st.seeks.len();
            st.seeks
                .retain(|s| !(s.seek.id == id && s.account.id == account.id));
            before != st.seeks.len()
        };
        if !removed {
            return Err(AppError::NotFound(format!(
                "no seek of yours with id {id:?}"
            )));
        }
        self.publish_removed(vec![id.to_owned()], false);
        Ok(())
    }

    /// Accept a seek: the game starts for both at once.
    ///
    /// # Errors
    /// 404 the seek is gone; 409 `own_seek`, `out_of_range`; 5xx database.
    pub async fn accept(&self, account: &Account, id: &str) -> ApiResult<String> {
        account.lobby_allowed()?;
        let (category, min, max, owner) = {
            let st = self.state();
            let s = st.seeks.iter().find(|s| s.seek.id == id).ok_or_else(|| {
                AppError::NotFound(format!("no seek with id {id:?} (taken or withdrawn)"))
            })?;
            (
                s.seek.speed.parse::<Category>().ok(),
                s.seek.rating_min,
                s.seek.rating_max,
                s.account.id.clone(),
            )
        };
        if owner == account.id {
            return Err(AppError::conflict("own_seek", "this is your own seek"));
        }
        if let Some(c) = category {
            let mine =
                ratings::rating_of(self.hub.store().pool(), &account.id, c, now_unix_ms()).await?;
            if !matching::in_range(mine.rating, min, max) {
                return Err(AppError::conflict(
                    "out_of_range",
                    format!("your rating {} is outside the seek's range", mine.rating),
                ));
            }
        }
        // Claim the seek: the first acceptor takes it.
        let (seek, seeker, removed) = {
            let mut st = self.state();
            let k = st
                .seeks
                .iter()
                .position(|s| s.seek.id == id)
                .ok_or_else(|| AppError::NotFound(format!("no seek with id {id:?} (taken)")))?;
            let open = st.seeks.remove(k);
            let (mut a, pa) = st.remove_player(&open.account.id);
            let (b, pb) = st.remove_player(&account.id);
            a.extend(b);
            a.push(open.seek.id.clone());
            (open.seek, open.account, (a, pa || pb))
        };
        self.publish_removed(removed.0, removed.1);
        let (white, black) = if seek.color.seat(token::random_u64()) == Seat::White {
            (&seeker, account)
        } else {
            (account, &seeker)
        };
        let req = new_game(&seek.time_control, seek.variant, seek.rated)?;
        let game = self.hub.create_paired(&req, white, black).await?;
        self.started(&game, white, black);
        Ok(game)
    }

    /// Seek as lichess's lobby does (the Board API's `POST /api/board/seek`): when an open
    /// seek of another player is compatible with this one — the same time control, variant
    /// and rated-ness, colours that fit, each player's rating within the other's range — the
    /// two pair each other and the game starts; otherwise this seek is posted and waits, as
    /// visible and acceptable in the lobby as any other.
    ///
    /// # Errors
    /// As [`Lobby::add_seek`] and [`Lobby::accept`].
    pub async fn seek_or_pair(
        &self,
        account: &Account,
        req: SeekRequest,
    ) -> ApiResult<SeekOutcome> {
        let game = new_game(&req.time_control, req.variant, req.rated)?;
        let time_control = game.time_control.to_string();
        let now = now_unix_ms();
        let mine = match game.category() {
            Some(c) => {
                Some(ratings::rating_of(self.hub.store().pool(), &account.id, c, now).await?)
            }
            None => None,
        };
        let candidates: Vec<String> = {
            let st = self.state();
            st.seeks
                .iter()
                .filter(|s| {
                    let colours_fit = !matches!(
                        (s.seek.color, req.color),
                        (ColorChoice::White, ColorChoice::White)
                            | (ColorChoice::Black, ColorChoice::Black)
                    );
                    let ranges_fit = match &mine {
                        None => true,
                        Some(m) => {
                            matching::in_range(m.rating, s.seek.rating_min, s.seek.rating_max)
                                && matching::in_range(s.seek.rating, req.rating_min, req.rating_max)
                        }
                    };
                    s.account.id != account.id
                        && s.seek.time_control == time_control
                        && s.seek.variant == req.variant
                        && s.seek.rated == req.rated
                        && colours_fit
                        && ranges_fit
                })
                .map(|s| s.seek.id.clone())
                .collect()
        };
        for id in candidates {
            match self.accept(account, &id).await {
                Ok(game) => return Ok(SeekOutcome::Paired(game)),
                // Taken meanwhile: the next one.
                Err(AppError::NotFound(_)) => continue,
                Err(e) => return Err(e),
            }
        }
        self.add_seek(account, req).await.map(SeekOutcome::Waiting)
    }

    /// Tell both players' open lobby sockets that their game has started.
    fn started(&self, game: &str, white: &Account, black: &Account) {
        let msg: Utf8Bytes = json!({"type": "game_started", "game": game})
            .to_string()
            .into();
        let st = self.state();
        for account in [&white.id, &black.id] {
            for tx in st.private.get(account).into_iter().flat_map(|m| m.values()) {
                let _ = tx.send(msg.clone());
            }
        }
    }

    /// Join a pool (again: nothing changes).
    ///
    /// # Errors
    /// 404 unknown pool; 409 `already_in_pool` (another pool).
    pub async fn join_pool(&self, account: &Account, pool: &str) -> ApiResult<()> {
        account.lobby_allowed()?;
        let Some(&tc) = POOLS.iter().find(|p| **p == pool) else {
            return Err(AppError::NotFound(format!(
                "no pool {pool:?}; the pools are {}",
                POOLS.join(", ")
            )));
        };
        let category =
            pool_category(tc).ok_or_else(|| AppError::Internal("pool category".into()))?;
        let now = now_unix_ms();
        let rating =
            ratings::rating_of(self.hub.store().pool(), &account.id, category, now).await?;
        {
            let mut st = self.state();
            if let Some(m) = st.members.get(&account.id) {
                if m.pool == tc {
                    return Ok(());
                }
                return Err(AppError::conflict(
                    "already_in_pool",
                    format!("you are waiting in the {} pool; leave it first", m.pool),
                ));
            }
            st.members.insert(
                account.id.clone(),
                Member {
                    pool: tc,
                    account: account.clone(),
                    rating: rating.rating,
                    joined_ms: now,
                },
            );
            st.present_or_waiting(&account.id, now);
        }
        self.publish_removed(Vec::new(), true);
        Ok(())
    }

    /// Leave the pool (if in one).
    pub fn leave_pool(&self, account: &Account) {
        let left = self.state().members.remove(&account.id).is_some();
        self.publish_removed(Vec::new(), left);
    }

    /// One wave: drop the absent, pair every pool, start the games (each on its own task, so
    /// that a wave of many pairings does not wait for one game's commit after another).
    async fn wave(self: &Arc<Self>) {
        let now = now_unix_ms();
        let mut games = Vec::new();
        let (removed, pools) = {
            let mut st = self.state();
            let absent: Vec<String> = st
                .absent_since
                .iter()
                .filter(|(_, since)| now - **since > ABSENCE_GRACE_MS)
                .map(|(a, _)| a.clone())
                .collect();
            let mut removed = Vec::new();
            let mut changed = false;
            for a in absent {
                let (seeks, left) = st.remove_player(&a);
                removed.extend(seeks);
                changed |= left;
            }
            for tc in POOLS {
                let waiting: Vec<(String, Waiting)> = st
                    .members
                    .iter()
                    .filter(|(_, m)| m.pool == tc)
                    .map(|(id, m)| {
                        (
                            id.clone(),
                            Waiting {
                                rating: m.rating,
                                joined_ms: m.joined_ms,
                            },
                        )
                    })
                    .collect();
                if waiting.len() < 2 {
                    continue;
                }
                let ratings: Vec<Waiting> = waiting.iter().map(|(_, w)| w.clone()).collect();
                for (i, j) in matching::pair(&ratings, now) {
                    let (Some(a), Some(b)) = (
                        st.members.remove(&waiting[i].0),
                        st.members.remove(&waiting[j].0),
                    ) else {
                        continue;
                    };
                    for m in [&a, &b] {
                        let (seeks, _) = st.remove_player(&m.account.id);
                        removed.extend(seeks);
                    }
                    changed = true;
                    games.push((tc, a.account, b.account));
                }
            }
            let pools = (changed || st.pools_dirty).then(|| st.pools());
            st.pools_dirty = false;
            (removed, pools)
        };
        self.publish_removed(removed, false);
        if let Some(pools) = pools {
            self.publish(json!({"type": "pools", "pools": pools}));
        }
        for (tc, a, b) in games {
            let lobby = self.clone();
            tokio::spawn(async move {
                let (white, black) = if token::random_u64() & 1 == 0 {
                    (a, b)
                } else {
                    (b, a)
                };
                let created = match new_game(tc, Variant::Standard, true) {
                    Ok(req) => lobby.hub.create_paired(&req, &white, &black).await,
                    Err(e) => Err(e),
                };
                match created {
                    Ok(game) => lobby.started(&game, &white, &black),
                    Err(e) => tracing::error!(error = %e, pool = tc, "cannot start a pool game"),
                }
            });
        }
    }
}
