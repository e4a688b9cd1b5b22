//! The queue's worker: takes the next job, analyses its positions one by one on the engine
//! threads, and commits each position before going on.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use arbiter_engine::external::UciPlayer;
use arbiter_engine::review::{self, Eval, PositionReview};
use arbiter_engine::{Engine, Limits};
use arbiter_rules::Position;

use super::queries::{self, JobRow};
use super::report::{job_game, store_form, JobGame};
use super::wire::StoredLimit;
use super::Analyses;
use crate::computer::ExternalEngine;

/// How often an idle worker looks for jobs queued by other nodes (its own wake it at once).
const POLL: Duration = Duration::from_secs(2);

/// The worker loop: runs until the hub closes. In a cluster only the coordinator works.
pub async fn run(analyses: Arc<Analyses>) {
    let mut closing = analyses.hub.closing();
    loop {
        if *closing.borrow() {
            return;
        }
        let working = analyses.hub.cluster().is_none_or(|c| c.is_coordinator());
        let next = if working {
            match queries::claim_next(analyses.hub.store().pool()).await {
                Ok(job) => job,
                Err(e) => {
                    tracing::warn!(error = %e, "analysis queue: cannot read the next job");
                    None
                }
            }
        } else {
            None
        };
        match next {
            Some(job) => run_job(&analyses, job).await,
            None => {
                tokio::select! {
                    () = analyses.wake.notified() => {}
                    () = tokio::time::sleep(POLL) => {}
                    _ = closing.wait_for(|c| *c) => return,
                }
            }
        }
    }
}

/// What analyses the positions of a job.
enum Analyser {
    Builtin(Box<Engine>),
    External {
        engine: Arc<ExternalEngine>,
        player: Box<Option<UciPlayer>>,
    },
}

impl Analyser {
    /// One position (a blocking call: run it on an engine thread).
    fn analyse(
        &mut self,
        game: &JobGame,
        ply: usize,
        limit: StoredLimit,
        stop: &AtomicBool,
    ) -> Result<PositionReview, String> {
        let limits = Limits {
            depth: limit.depth,
            nodes: limit.nodes,
            ..Limits::default()
        };
        match self {
            Analyser::Builtin(engine) => Ok(review::analyse_position(
                engine,
                &game.start,
                &game.moves[..ply],
                &limits,
                stop,
            )),
            Analyser::External { engine, player } => {
                let r = external_position(engine, player, game, ply, limit, stop);
                if r.is_err() {
                    // Started afresh for the next position.
                    **player = None;
                }
                r
            }
        }
    }
}

/// One position analysed by an external UCI engine: `go depth N` / `go nodes N`, its best move
/// and its last exact score (the PV is the best move and the expected reply).
fn external_position(
    config: &ExternalEngine,
    player: &mut Option<UciPlayer>,
    game: &JobGame,
    ply: usize,
    limit: StoredLimit,
    stop: &AtomicBool,
) -> Result<PositionReview, String> {
    let mut pos = game.start;
    let mut cmd = format!("position fen {}", game.start.fen());
    if ply > 0 {
        cmd.push_str(" moves");
    }
    for &m in &game.moves[..ply] {
        cmd.push(' ');
        cmd.push_str(&pos.uci(m));
        pos.play_unchecked(m);
    }
    if !pos.has_legal_move() {
        return Ok(PositionReview::game_over(&pos, ply));
    }
    if player.is_none() {
        let p = UciPlayer::start(&config.config.path, &config.config.options)
            .map_err(|e| e.to_string())?;
        *player = Some(p);
    }
    let engine = player.as_mut().expect("started").engine();
    if game.start.mode() == arbiter_rules::CastlingMode::Chess960 {
        engine
            .set_option("UCI_Chess960", "true")
            .map_err(|e| e.to_string())?;
    }
    engine.send(&cmd).map_err(|e| e.to_string())?;
    let mut go = "go".to_owned();
    if let Some(d) = limit.depth {
        go.push_str(&format!(" depth {d}"));
    }
    if let Some(n) = limit.nodes {
        go.push_str(&format!(" nodes {n}"));
    }
    let answer = engine
        .go(&go, None, Duration::from_secs(300), stop)
        .map_err(|e| e.to_string())?;
    let best = pos
        .parse_uci(&answer.text)
        .map_err(|e| format!("engine's best move {:?}: {e}", answer.text))?;
    let mut pv = vec![best];
    let after = pos.play(best).map_err(|e| e.to_string())?;
    if let Some(reply) = answer
        .ponder
        .as_deref()
        .and_then(|p| after.parse_uci(p).ok())
    {
        pv.push(reply);
    }
    let score = answer
        .score
        .ok_or_else(|| "the engine gave no score".to_owned())?;
    Ok(PositionReview {
        ply,
        turn: pos.turn(),
        eval: Eval::from_score(score, pos.turn()),
        best: Some(best),
        pv,
        depth: limit.depth.unwrap_or(0),
        nodes: limit.nodes.unwrap_or(0),
    })
}

/// Runs one job from its first position not yet stored to the end.
async fn run_job(analyses: &Arc<Analyses>, job: JobRow) {
    let store = analyses.hub.store().clone();
    let game = match job_game(&job) {
        Ok(g) => Arc::new(g),
        Err(e) => {
            tracing::warn!(game = %job.game_id, error = %e, "analysis failed");
            let _ = queries::finish(store.pool(), &job.game_id, Some(&e)).await;
            return;
        }
    };
    let limit: StoredLimit = serde_json::from_str(&job.search_limit).unwrap_or(StoredLimit {
        depth: None,
        nodes: Some(super::DEFAULT_NODES),
    });
    let analyser = if job.engine_key.is_empty() {
        Analyser::Builtin(Box::new(review::analysis_engine()))
    } else {
        match analyses.hub.engines().external(&job.engine_key) {
            Some(e) => Analyser::External {
                engine: e.clone(),
                player: Box::new(None),
            },
            None => {
                let e = format!("engine '{}' is no longer configured", job.engine_key);
                let _ = queries::finish(store.pool(), &job.game_id, Some(&e)).await;
                return;
            }
        }
    };
    let mut analyser = Some(analyser);
    let mut closing = analyses.hub.closing();
    let first = usize::try_from(job.done).unwrap_or(0);
    tracing::info!(game = %job.game_id, from = first, total = job.total, "analysis running");
    for ply in first..=game.moves.len() {
        let engines = analyses.hub.engines().clone();
        let permit = tokio::select! {
            p = engines.acquire() => match p {
                Some(p) => p,
                None => return,
            },
            _ = closing.wait_for(|c| *c) => return,
        };
        let stop = Arc::new(AtomicBool::new(false));
        let mut a = analyser
            .take()
            .expect("the analyser is back after each position");
        let (g, s) = (game.clone(), stop.clone());
        let search = tokio::task::spawn_blocking(move || {
            // The permit lives as long as the search: analyses and computer players share
            // the engine threads.
            let _permit = permit;
            let r = a.analyse(&g, ply, limit, &s);
            (a, r)
        });
        tokio::pin!(search);
        let joined = tokio::select! {
            j = &mut search => j,
            _ = closing.wait_for(|c| *c) => {
                // Shutting down: stop the search; the job stays `running` and resumes here.
                stop.store(true, Ordering::SeqCst);
                return;
            }
        };
        let (a, result) = match joined {
            Ok(x) => x,
            Err(e) => {
                let msg = format!("the engine failed: {e}");
                let _ = queries::finish(store.pool(), &job.game_id, Some(&msg)).await;
                return;
            }
        };
        analyser = Some(a);
        let review = match result {
            Ok(r) => r,
            Err(e) => {
                tracing::warn!(game = %job.game_id, ply, error = %e, "analysis failed");
                let msg = format!("position {ply}: {e}");
                let _ = queries::finish(store.pool(), &job.game_id, Some(&msg)).await;
                return;
            }
        };
        let pos = position_at(&game, ply);
        let data = serde_json::to_string(&store_form(&pos, &review)).expect("plain JSON");
        if let Err(e) = queries::store_position(store.pool(), &job.game_id, ply as i64, &data).await
        {
            // Left `running`: the worker resumes it from the last stored position.
            tracing::warn!(game = %job.game_id, ply, error = %e, "analysis: cannot store a position");
            return;
        }
    }
    match queries::finish(store.pool(), &job.game_id, None).await {
        Ok(()) => tracing::info!(game = %job.game_id, "analysis done"),
        Err(e) => tracing::warn!(game = %job.game_id, error = %e, "analysis: cannot finish"),
    }
}

fn position_at(game: &JobGame, ply: usize) -> Position {
    let mut pos = game.start;
    for &m in &game.moves[..ply] {
        pos.play_unchecked(m);
    }
    pos
}
