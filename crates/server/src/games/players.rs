//! The players of a game: who holds each seat (an account, a seat token, or both), their
//! names and ratings as shown, which request acts for which seat, whether a finished game is
//! rated, and the PGN tags of the players (`White`, `WhiteElo`, `WhiteRatingDiff`, …).

use arbiter_game::{GameResult, Termination};

use crate::accounts::queries::PlayerName;
use crate::auth::{Account, Identity};
use crate::db::{PlayersRow, RatedEnd};
use crate::ratings;
use crate::token;

use super::api::GameEnded;
use super::wire::{PlayerView, PlayersView, Seat};

/// What a request proves about its sender: a seat token and/or an account.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct Credentials {
    /// A seat token.
    pub token: Option<String>,
    /// The account id.
    pub account: Option<String>,
}

impl From<&Identity> for Credentials {
    fn from(id: &Identity) -> Self {
        Credentials {
            token: id.seat_token.clone(),
            account: id.account.as_ref().map(|a| a.id.clone()),
        }
    }
}

impl Credentials {
    /// Only a seat token (the WebSocket's `?token=` or `auth` message).
    pub fn token(token: impl Into<String>) -> Self {
        Credentials {
            token: Some(token.into()),
            account: None,
        }
    }

    /// Nothing at all.
    pub fn is_empty(&self) -> bool {
        self.token.is_none() && self.account.is_none()
    }
}

/// The seats of a game: token hashes, accounts, names and ratings.
#[derive(Debug, Clone, Default)]
pub struct Seats {
    /// Hash of White's seat token.
    pub white_hash: Option<String>,
    /// Hash of Black's seat token.
    pub black_hash: Option<String>,
    /// Accounts, rated or not, ratings at the start and changes at the end.
    pub row: PlayersRow,
    /// White's username and whether the account is closed.
    pub white_name: Option<PlayerName>,
    /// Black's username.
    pub black_name: Option<PlayerName>,
}

impl Seats {
    /// The token hash of `seat`.
    pub fn hash(&self, seat: Seat) -> Option<&str> {
        match seat {
            Seat::White => self.white_hash.as_deref(),
            Seat::Black => self.black_hash.as_deref(),
        }
    }

    /// The account holding `seat`.
    pub fn account(&self, seat: Seat) -> Option<&str> {
        match seat {
            Seat::White => self.row.white_account.as_deref(),
            Seat::Black => self.row.black_account.as_deref(),
        }
    }

    /// Is `seat` taken (by a token or an account)?
    pub fn taken(&self, seat: Seat) -> bool {
        self.hash(seat).is_some() || self.account(seat).is_some()
    }

    /// Give `seat` to a token hash and/or an account.
    pub fn take(&mut self, seat: Seat, hash: Option<String>, account: Option<&Account>) {
        let name = account.map(|a| PlayerName {
            username: a.username.clone(),
            closed: false,
            title: a.title.clone(),
        });
        let id = account.map(|a| a.id.clone());
        match seat {
            Seat::White => {
                self.white_hash = hash;
                self.row.white_account = id;
                self.white_name = name;
            }
            Seat::Black => {
                self.black_hash = hash;
                self.row.black_account = id;
                self.black_name = name;
            }
        }
    }

    /// Free `seat` again (a start that could not be stored).
    pub fn free(&mut self, seat: Seat) {
        self.take(seat, None, None);
    }

    /// The seat these credentials act for: a matching seat token, or the account holding
    /// the seat.
    pub fn seat_of(&self, who: &Credentials) -> Option<Seat> {
        [Seat::White, Seat::Black].into_iter().find(|&seat| {
            let by_token = who
                .token
                .as_deref()
                .zip(self.hash(seat))
                .is_some_and(|(t, h)| token::verify(t, h));
            let by_account = who.account.is_some() && who.account.as_deref() == self.account(seat);
            by_token || by_account
        })
    }

    /// The username of `seat`'s player and whether the account is closed.
    pub fn name(&self, seat: Seat) -> Option<&PlayerName> {
        match seat {
            Seat::White => self.white_name.as_ref(),
            Seat::Black => self.black_name.as_ref(),
        }
    }

    fn player(&self, seat: Seat) -> Option<PlayerView> {
        let PlayerName {
            username: name,
            closed,
            title,
        } = self.name(seat)?.clone();
        let (rating, diff) = match seat {
            Seat::White => (self.row.white_rating, self.row.white_rating_diff),
            Seat::Black => (self.row.black_rating, self.row.black_rating_diff),
        };
        Some(PlayerView {
            name,
            rating: rating.map(|r| r.0),
            provisional: rating.is_some_and(|r| r.1),
            rating_diff: diff,
            closed,
            title,
        })
    }

    /// The players as shown.
    pub fn view(&self) -> PlayersView {
        PlayersView {
            white: self.player(Seat::White),
            black: self.player(Seat::Black),
        }
    }

    /// The ratings change when this game ends so: a rated game between two accounts that was
    /// played (not aborted) to a result of 1-0, ½-½ or 0-1.
    pub fn rated_end(&self, ended: &GameEnded) -> Option<RatedEnd> {
        if !self.row.rated || ended.termination == Some(Termination::Aborted) {
            return None;
        }
        let white_score = match ended.result {
            GameResult::WhiteWins => 1.0,
            GameResult::Draw => 0.5,
            GameResult::BlackWins => 0.0,
            _ => return None,
        };
        Some(RatedEnd {
            white: self.row.white_account.clone()?,
            black: self.row.black_account.clone()?,
            category: self.row.category.clone()?,
            white_score,
            rate: ratings::rate,
            unrated: ratings::unrated(),
        })
    }

    /// The PGN tags of the players: `White`/`Black` (a username, the computer's name passed
    /// in `computer`, else `?`), and for a rated game `WhiteElo`/`BlackElo` (the ratings at the
    /// start) and, once rated, `WhiteRatingDiff`/`BlackRatingDiff` (`+12`, `-8`).
    pub fn pgn_tags(&self, computer: Option<(Seat, String)>) -> Vec<(&'static str, String)> {
        let mut tags = Vec::new();
        for (seat, tag) in [(Seat::White, "White"), (Seat::Black, "Black")] {
            let name = match (&computer, self.name(seat)) {
                (Some((s, n)), _) if *s == seat => n.clone(),
                (_, Some(n)) => n.username.clone(),
                // Anonymous seats keep the names they had before accounts existed.
                _ => tag.to_owned(),
            };
            tags.push((tag, name));
        }
        for (seat, tag) in [(Seat::White, "WhiteTitle"), (Seat::Black, "BlackTitle")] {
            if let Some(title) = self.name(seat).and_then(|n| n.title.clone()) {
                tags.push((tag, title));
            }
        }
        if self.row.rated {
            for (rating, tag) in [
                (self.row.white_rating, "WhiteElo"),
                (self.row.black_rating, "BlackElo"),
            ] {
                if let Some((r, _)) = rating {
                    tags.push((tag, r.to_string()));
                }
            }
            for (diff, tag) in [
                (self.row.white_rating_diff, "WhiteRatingDiff"),
                (self.row.black_rating_diff, "BlackRatingDiff"),
            ] {
                if let Some(d) = diff {
                    tags.push((tag, format!("{d:+}")));
                }
            }
        }
        tags
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rated_seats() -> Seats {
        let mut s = Seats::default();
        s.take(
            Seat::White,
            Some(token::hash("w-token")),
            Some(&Account {
                id: "A".into(),
                username: "alice".into(),
                title: None,
            }),
        );
        s.take(
            Seat::Black,
            None,
            Some(&Account {
                id: "B".into(),
                username: "bob".into(),
                title: None,
            }),
        );
        s.row.rated = true;
        s.row.category = Some("blitz".into());
        s.row.white_rating = Some((1500, true));
        s.row.black_rating = Some((1620, false));
        s
    }

    #[test]
    fn a_seat_is_acted_for_by_its_token_or_its_account_only() {
        let s = rated_seats();
        assert_eq!(s.seat_of(&Credentials::token("w-token")), Some(Seat::White));
        let bob = Credentials {
            token: None,
            account: Some("B".into()),
        };
        assert_eq!(s.seat_of(&bob), Some(Seat::Black));
        // Player A's cookie cannot act in player B's seat, nor can a wrong token.
        let carol = Credentials {
            token: Some("other".into()),
            account: Some("C".into()),
        };
        assert_eq!(s.seat_of(&carol), None);
        assert_eq!(s.seat_of(&Credentials::default()), None);
    }

    #[test]
    fn art_10_only_played_results_of_rated_games_are_rated() {
        let end = |result, termination| GameEnded {
            result,
            termination: Some(termination),
        };
        let s = rated_seats();
        let score = |e| s.rated_end(&e).unwrap().white_score;
        assert_eq!(
            score(end(GameResult::WhiteWins, Termination::Checkmate)),
            1.0
        );
        assert_eq!(score(end(GameResult::Draw, Termination::Agreement)), 0.5);
        assert_eq!(score(end(GameResult::BlackWins, Termination::Timeout)), 0.0);
        let aborted = end(GameResult::Unfinished, Termination::Aborted);
        assert!(s.rated_end(&aborted).is_none());
        let forfeit = end(GameResult::WhiteWinsByForfeit, Termination::Forfeit);
        assert!(s.rated_end(&forfeit).is_none());
        let mut casual = rated_seats();
        casual.row.rated = false;
        assert!(casual
            .rated_end(&end(GameResult::WhiteWins, Termination::Checkmate))
            .is_none());
    }

    #[test]
    fn pgn_tags_name_the_players_and_their_rating_changes() {
        let mut s = rated_seats();
        s.row.white_rating_diff = Some(12);
        s.row.black_rating_diff = Some(-8);
        let tags = s.pgn_tags(None);
        let get = |k: &str| tags.iter().find(|(t, _)| *t == k).map(|(_, v)| v.as_str());
        assert_eq!(get("White"), Some("alice"));
        assert_eq!(get("Black"), Some("bob"));
        assert_eq!(get("WhiteElo"), Some("1500"));
        assert_eq!(get("BlackElo"), Some("1620"));
        assert_eq!(get("WhiteRatingDiff"), Some("+12"));
        assert_eq!(get("BlackRatingDiff"), Some("-8"));
        let view = s.view();
        assert_eq!(view.white.unwrap().rating_diff, Some(12));
        assert!(!view.black.unwrap().provisional);
    }
}
