//! The registry of tournaments: creates them (validating the director's settings), finds or
//! loads a tournament's actor and passes it commands, restores the live ones at start-up.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use arbiter_game::TimeControl;
use arbiter_tournament::tiebreak::{Rules, TieBreak};
use tokio::sync::{broadcast, mpsc, oneshot, watch, OnceCell};

use super::actor::{Action, Broadcast, Cmd, Ctx, Outcome, Snapshot, TournamentActor};
use super::events::{Event, ScoringSettings, Settings, System};
use super::wire::CreateTournament;
use crate::auth::Account;
use crate::db::{self, TournamentEventRow, TournamentRow, TournamentWrite, Write};
use crate::error::{ApiResult, AppError};
use crate::games::Hub;
use crate::token;

/// The tournaments.
pub struct Tournaments {
    ctx: Arc<Ctx>,
    actors: Mutex<HashMap<String, Arc<OnceCell<mpsc::Sender<Cmd>>>>>,
}

impl std::fmt::Debug for Tournaments {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tournaments").finish()
    }
}

/// Validate the director's settings.
///
/// # Errors
/// 400 naming the fault.
pub fn settings(req: &CreateTournament, now: i64) -> ApiResult<Settings> {
    let bad = |code: &'static str, m: String| Err(AppError::bad_request(code, m));
    let name = req.name.trim();
    if name.is_empty() || name.chars().count() > 80 || name.chars().any(char::is_control) {
        return bad(
            "bad_name",
            "a tournament's name has 1 to 80 characters".into(),
        );
    }
    let tc: TimeControl =
        req.time_control
            .parse()
            .map_err(|e: arbiter_game::ParseTimeControlError| {
                AppError::bad_request("bad_time_control", e.to_string())
            })?;
    if req.rated && !tc.is_timed() {
        return bad("cannot_be_rated", "an untimed game cannot be rated".into());
    }
    let rounds = match req.system {
        System::Swiss => match req.rounds.unwrap_or(5) {
            r @ 1..=30 => Some(r),
            r => return bad("bad_rounds", format!("{r} rounds: a Swiss has 1 to 30")),
        },
        _ => None,
    };
    let tiebreaks = match &req.tiebreaks {
        None => TieBreak::all().iter().map(ToString::to_string).collect(),
        Some(list) if list.len() > 20 => {
            return bad("bad_tiebreak", "at most 20 tie-breaks".into())
        }
        Some(list) => {
            let mut out = Vec::new();
            for t in list {
                let tb: TieBreak = t
                    .parse()
                    .map_err(|e| AppError::bad_request("bad_tiebreak", format!("{e}")))?;
                out.push(tb.to_string());
            }
            out
        }
    };
    let tiebreak_rules = req.tiebreak_rules.clone().unwrap_or_else(|| "2026".into());
    if let Err(e) = tiebreak_rules.parse::<Rules>() {
        return bad("bad_tiebreak_rules", e);
    }
    // Art. 6.7.1: the competition's default time; online, the lesser of 5 minutes and the
    // base time unless the director says otherwise.
    let base_secs = tc.initial_ms().map_or(300, |ms| (ms / 1000) as i64);
    let default_time_secs = req.default_time_secs.unwrap_or(base_secs.clamp(0, 300));
    if !(0..=86_400).contains(&default_time_secs) {
        return bad(
            "bad_default_time",
            "the default time is 0 to 86400 seconds".into(),
        );
    }
    if req.pause_secs.is_some_and(|p| !(0..=86_400).contains(&p)) {
        return bad("bad_pause", "the pause is 0 to 86400 seconds".into());
    }
    let scoring = req.scoring.unwrap_or_default();
    for v in [scoring.win, scoring.draw, scoring.loss, scoring.bye] {
        if !v.is_finite() || !(0.0..=100.0).contains(&v) {
            return bad("bad_scoring", "points are 0 to 100".into());
        }
    }
    if let Some(at) = req.starts_at {
        if at < now - 60_000 || at > now + 366 * 86_400_000 {
            return bad(
                "bad_starts_at",
                "the start time is now or within a year".into(),
            );
        }
    }
    let late = if req.system == System::Swiss {
        req.late_entry_until_round
    } else {
        0
    };
    if late > 30 {
        return bad(
            "bad_late_entry",
            "late entry is until a round 0 to 30".into(),
        );
    }
    Ok(Settings {
        name: name.to_owned(),
        system: req.system,
        rounds,
        time_control: tc.to_string(),
        rated: req.rated,
        online: req.online,
        starts_at: req.starts_at,
        late_entry_until_round: late,
        tiebreaks,
        tiebreak_rules,
        default_time_secs,
        pause_secs: req.pause_secs,
        scoring: ScoringSettings {
            win: round2(scoring.win),
            draw: round2(scoring.draw),
            loss: round2(scoring.loss),
            bye: round2(scoring.bye),
        },
        players_chat: req.players_chat,
    })
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

impl Tournaments {
    /// Over the games' hub.
    pub fn new(hub: Arc<Hub>) -> Arc<Self> {
        let epochs = hub.cluster().map(|c| c.epochs());
        let t = Arc::new(Self {
            ctx: Arc::new(Ctx {
                hub,
                closing: watch::channel(false).0,
            }),
            actors: Mutex::new(HashMap::new()),
        });
        // Cluster mode: a lost lease drops every tournament loaded under it (their writes
        // would be refused); the coordinator loads them again.
        if let Some(mut epochs) = epochs {
            let weak = Arc::downgrade(&t);
            tokio::spawn(async move {
                while epochs.changed().await.is_ok() {
                    let Some(t) = weak.upgrade() else { return };
                    t.actors.lock().expect("tournaments lock").clear();
                }
            });
        }
        t
    }

    /// Stop every actor (shutdown).
    pub fn shutdown(&self) {
        let _ = self.ctx.closing.send(true);
    }

    /// A receiver told when sockets must close.
    pub fn closing(&self) -> watch::Receiver<bool> {
        self.ctx.closing.subscribe()
    }

    /// Load every upcoming and running tournament so that its timers run.
    ///
    /// # Errors
    /// Database errors.
    pub async fn restore(self: &Arc<Self>) -> ApiResult<usize> {
        let mut n = 0;
        for status in ["upcoming", "running"] {
            for row in self
                .ctx
                .hub
                .store()
                .tournaments_with_status(status, i64::MAX)
                .await?
            {
                match self.handle(&row.id).await {
                    Ok(_) => n += 1,
                    Err(e) => tracing::error!(tournament = %row.id, error = %e, "cannot restore"),
                }
            }
        }
        Ok(n)
    }

    /// Create a tournament directed by `director`.
    ///
    /// # Errors
    /// 400 for bad settings.
    pub async fn create(
        self: &Arc<Self>,
        req: &CreateTournament,
        director: &Account,
    ) -> ApiResult<Snapshot> {
        let now = db::now_unix_ms();
        let settings = settings(req, now)?;
        let id = format!("t{}", &token::game_id()[..10]);
        let ev = Event::Created {
            settings: settings.clone(),
            director: director.id.clone(),
            director_name: director.username.clone(),
            registration_open: req.registration_open,
        };
        let write = TournamentWrite {
            id: id.clone(),
            create: Some(TournamentRow {
                id: id.clone(),
                created_at: now,
                director: director.id.clone(),
                name: settings.name.clone(),
                status: "upcoming".into(),
                starts_at: settings.starts_at,
                last_seq: 0,
            }),
            events: vec![TournamentEventRow {
                seq: 1,
                kind: ev.kind().to_owned(),
                data: serde_json::to_string(&ev).map_err(|e| AppError::Internal(e.to_string()))?,
                created_at: now,
            }],
            ..TournamentWrite::default()
        };
        let fence = self.ctx.hub.cluster().and_then(|c| c.fence());
        self.ctx
            .hub
            .store()
            .write_fenced(Write::Tournament(Box::new(write)), fence)
            .await?;
        self.snapshot(&id).await
    }

    async fn handle(self: &Arc<Self>, id: &str) -> ApiResult<mpsc::Sender<Cmd>> {
        if id.is_empty() || id.len() > 32 {
            return Err(AppError::NotFound(format!("no tournament with id {id:?}")));
        }
        let cell = {
            let mut actors = self.actors.lock().expect("tournaments lock");
            actors.entry(id.to_owned()).or_default().clone()
        };
        let r = cell
            .get_or_try_init(|| TournamentActor::spawn(self.ctx.clone(), id))
            .await
            .cloned();
        if r.is_err() {
            let mut actors = self.actors.lock().expect("tournaments lock");
            if actors.get(id).is_some_and(|c| Arc::ptr_eq(c, &cell)) {
                actors.remove(id);
            }
        }
        r
    }

    async fn call<T>(
        self: &Arc<Self>,
        id: &str,
        make: impl FnOnce(oneshot::Sender<ApiResult<T>>) -> Cmd,
    ) -> ApiResult<T> {
        let h = self.handle(id).await?;
        let (tx, rx) = oneshot::channel();
        if let Err(mpsc::error::SendError(cmd)) = h.send(make(tx)).await {
            // An actor that has stopped (its state stale after an unconfirmed commit): load
            // the tournament again, once.
            self.forget(id, &h);
            self.handle(id).await?.send(cmd).await.map_err(|_| {
                AppError::Unavailable("the tournament is being reloaded; retry".into())
            })?;
        }
        rx.await
            .map_err(|_| AppError::Unavailable("the server is shutting down".into()))?
    }

    /// Drop the cached handle `h` of tournament `id` (its actor has stopped).
    fn forget(&self, id: &str, h: &mpsc::Sender<Cmd>) {
        let mut actors = self.actors.lock().expect("tournaments lock");
        if actors
            .get(id)
            .and_then(|c| c.get())
            .is_some_and(|cached| cached.same_channel(h))
        {
            actors.remove(id);
        }
    }

    /// The state now.
    ///
    /// # Errors
    /// 404 unknown tournament.
    pub async fn snapshot(self: &Arc<Self>, id: &str) -> ApiResult<Snapshot> {
        self.call(id, Cmd::Snapshot).await
    }

    /// An action by `who`.
    ///
    /// # Errors
    /// 4xx for a refusal (see the API document).
    pub async fn act(
        self: &Arc<Self>,
        id: &str,
        who: &Account,
        action: Action,
    ) -> ApiResult<(Snapshot, Outcome)> {
        let who = who.clone();
        self.call(id, |reply| Cmd::Act { who, action, reply }).await
    }

    /// Subscribe to the live messages.
    ///
    /// # Errors
    /// 404 unknown tournament.
    pub async fn subscribe(
        self: &Arc<Self>,
        id: &str,
    ) -> ApiResult<(Snapshot, broadcast::Receiver<Arc<Broadcast>>)> {
        self.call(id, Cmd::Subscribe).await
    }

    /// Tournaments with a status, newest first (up to 100).
    ///
    /// # Errors
    /// Database errors.
    pub async fn list(self: &Arc<Self>, status: &str) -> ApiResult<Vec<Snapshot>> {
        let rows = self
            .ctx
            .hub
            .store()
            .tournaments_with_status(status, 100)
            .await?;
        let mut out = Vec::with_capacity(rows.len());
        for row in rows {
            match self.snapshot(&row.id).await {
                Ok(s) => out.push(s),
                Err(e) => tracing::error!(tournament = %row.id, error = %e, "cannot load"),
            }
        }
        Ok(out)
    }

    /// The games' hub.
    pub fn hub(&self) -> &Arc<Hub> {
        &self.ctx.hub
    }
}
