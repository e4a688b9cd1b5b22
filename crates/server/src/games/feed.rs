//! The players' feed: a game's start and end, told once to whoever follows a player (the
//! lichess event stream's `gameStart` and `gameFinish`, a tournament waiting for its boards).
//! One broadcast channel for every game of this node: a follower keeps what concerns it.
//!
//! In a cluster, a node sees the starts and ends of the games it owns; followers on other
//! nodes read the database (the event stream looks again every few seconds).

use std::sync::Arc;

use tokio::sync::broadcast;

use super::api::GameEnded;
use super::wire::Seat;

/// What happened to a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lifecycle {
    /// Both seats were taken and the clock of the side to move started (Art. 6.6).
    Started,
    /// The game ended (result and termination as in the game view).
    Ended(GameEnded),
}

/// A game's start or end, with the accounts that hold its seats.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameChange {
    /// The game's id.
    pub game: String,
    /// White's account id, if an account holds the seat.
    pub white: Option<String>,
    /// Black's account id.
    pub black: Option<String>,
    /// What happened.
    pub what: Lifecycle,
}

impl GameChange {
    /// The seat `account` holds in the game, if any.
    pub fn seat_of(&self, account: &str) -> Option<Seat> {
        if self.white.as_deref() == Some(account) {
            Some(Seat::White)
        } else if self.black.as_deref() == Some(account) {
            Some(Seat::Black)
        } else {
            None
        }
    }
}

/// The feed of this node's games.
#[derive(Debug)]
pub struct Feed {
    tx: broadcast::Sender<Arc<GameChange>>,
}

impl Default for Feed {
    fn default() -> Self {
        Self {
            tx: broadcast::channel(1024).0,
        }
    }
}

impl Feed {
    /// Tell the followers (nobody listening is fine).
    pub fn publish(&self, change: GameChange) {
        let _ = self.tx.send(Arc::new(change));
    }

    /// Follow every game's start and end from now on. A follower that falls behind gets
    /// `Lagged` and must look at the database.
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<GameChange>> {
        self.tx.subscribe()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_follower_gets_the_change_with_the_seat_of_its_account() {
        let feed = Feed::default();
        let mut rx = feed.subscribe();
        feed.publish(GameChange {
            game: "g1".into(),
            white: Some("a".into()),
            black: Some("b".into()),
            what: Lifecycle::Started,
        });
        let c = rx.recv().await.unwrap();
        assert_eq!(c.game, "g1");
        assert_eq!(c.seat_of("b"), Some(Seat::Black));
        assert_eq!(c.seat_of("a"), Some(Seat::White));
        assert_eq!(c.seat_of("c"), None);
    }
}
