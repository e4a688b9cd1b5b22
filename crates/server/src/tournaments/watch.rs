//! Watching a tournament game until it ends, to enter its result in the tournament.

use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use tokio::sync::{broadcast, mpsc, watch};

use super::actor::Cmd;
use crate::error::AppError;
use crate::games::Hub;

/// Follow game `id`'s events; when it has ended, tell the tournament's actor.
pub async fn watch_game(
    hub: Arc<Hub>,
    id: String,
    actor: mpsc::WeakSender<Cmd>,
    mut closing: watch::Receiver<bool>,
) {
    let ended = |v: &Value| {
        (v["status"] == "finished").then(|| {
            (
                v["result"].as_str().map(str::to_owned),
                v["termination"].as_str().map(str::to_owned),
            )
        })
    };
    let outcome = 'outer: loop {
        if *closing.borrow() {
            return;
        }
        let mut sub = match hub.subscribe(&id, None).await {
            Ok(s) => s,
            Err(AppError::NotFound(_)) => return,
            Err(e) => {
                tracing::warn!(game = %id, error = %e, "cannot watch a tournament game; retrying");
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
        };
        if let Some(done) = sub.state.as_ref().and_then(ended) {
            break done;
        }
        loop {
            tokio::select! {
                msg = sub.rx.recv() => match msg {
                    Ok(ev) => {
                        let v: Value = serde_json::from_str(ev.json.as_str()).unwrap_or(Value::Null);
                        if v["type"] == "event" {
                            if let Some(done) = ended(&v) {
                                break 'outer done;
                            }
                        }
                    }
                    // Fell behind or the game was unloaded: look again.
                    Err(broadcast::error::RecvError::Lagged(_) | broadcast::error::RecvError::Closed) => break,
                },
                _ = closing.changed() => return,
            }
        }
    };
    if let Some(tx) = actor.upgrade() {
        let _ = tx
            .send(Cmd::GameEnded {
                game: id,
                result: outcome.0,
                termination: outcome.1,
            })
            .await;
    }
}
