//! Watching a tournament game until it ends, to enter its result in the tournament.

use std::sync::Arc;

use tokio::sync::{mpsc, watch};

use super::actor::Cmd;
use crate::games::Hub;

/// Wait for game `id` to end (wherever it is played, see [`Hub::ended`]); then tell the
/// tournament's actor. An unknown game is not watched.
pub async fn watch_game(
    hub: Arc<Hub>,
    id: String,
    actor: mpsc::WeakSender<Cmd>,
    mut closing: watch::Receiver<bool>,
) {
    if *closing.borrow() {
        return;
    }
    let ended = tokio::select! {
        r = hub.ended(&id) => match r {
            Ok(ended) => ended,
            Err(_) => return,
        },
        _ = closing.changed() => return,
    };
    if let Some(tx) = actor.upgrade() {
        let _ = tx.send(Cmd::GameEnded { game: id, ended }).await;
    }
}
