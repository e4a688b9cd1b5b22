//! New games: one a person creates (against a person or the computer), one whose seats two
//! accounts take at once (a seek, a pool, a challenge, a tournament's board); the lobby's
//! listing of open and running games.

use std::collections::HashMap;
use std::sync::Arc;

use super::super::api::{NewGame, Status};
use super::super::computer::{ComputerKind, ComputerSeat};
use super::super::referee::{Referee, Spec};
use super::super::replay;
use super::super::wire::{GameSummary, Lobby, Seat, SeatGrant, Variant};
use super::Hub;
use crate::accounts::queries as account_queries;
use crate::auth::Account;
use crate::db::{self, GameRow, PlayersRow, Write};
use crate::error::{ApiResult, AppError};
use crate::token;

impl Hub {
    /// Create a game and take the creator's seat. With a computer opponent, the other seat is
    /// the computer's and the game has started when this returns.
    ///
    /// # Errors
    /// A 4xx naming what is wrong with the request (FEN, position number, computer level,
    /// rated-ness); nothing is stored then.
    pub async fn create(
        self: &Arc<Self>,
        req: NewGame,
        creator: Option<&Account>,
    ) -> ApiResult<SeatGrant> {
        let spec = Spec::new(&req, token::random_u64())?;
        let category = spec.category();
        if req.rated {
            if creator.is_none() {
                return Err(AppError::Unauthorized(
                    "log in to create a rated game".into(),
                ));
            }
            if req.computer.is_some() {
                return Err(AppError::bad_request(
                    "cannot_be_rated",
                    "a game against the computer is never rated",
                ));
            }
            if category.is_none() {
                return Err(AppError::bad_request(
                    "cannot_be_rated",
                    "an untimed game cannot be rated",
                ));
            }
        }
        // Validate everything by building the game once.
        Referee::new(&spec)?;
        let computer = req
            .computer
            .as_ref()
            .map(|c| ComputerKind::from_request(c, &self.ctx.engines))
            .transpose()?;
        if let Some(ComputerKind::External { name, .. }) = &computer {
            if spec.variant == Variant::Chess960
                && !self.ctx.engines.external(name).is_some_and(|e| e.chess960)
            {
                return Err(AppError::bad_request(
                    "engine_cannot_play_chess960",
                    format!("the engine '{name}' does not play Chess960 (no UCI_Chess960 option)"),
                ));
            }
        }
        let seat = req.color.seat(token::random_u64());
        let tok = token::generate();
        let now = db::now_unix_ms();
        let id = token::game_id();
        let hash = Some(token::hash(&tok));
        let computer = computer.map(|player| ComputerSeat {
            seat: seat.other(),
            player,
        });
        // The computer's seat is taken like a person's, with a token nobody holds.
        let machine = computer.as_ref().map(|_| token::hash(&token::generate()));
        let row = GameRow {
            id: id.clone(),
            created_at: now,
            updated_at: now,
            spec: serde_json::to_string(&spec).map_err(|e| AppError::Internal(e.to_string()))?,
            time_control: spec.time_control.clone(),
            variant: spec.variant.as_str().to_owned(),
            white_hash: if seat == Seat::White {
                hash.clone()
            } else {
                machine.clone()
            },
            black_hash: if seat == Seat::Black { hash } else { machine },
            status: Status::Waiting.as_str().to_owned(),
            result: None,
            termination: None,
            last_seq: 0,
            computer: computer
                .as_ref()
                .map(serde_json::to_string)
                .transpose()
                .map_err(|e| AppError::Internal(e.to_string()))?,
            players: PlayersRow {
                white_account: creator
                    .filter(|_| seat == Seat::White)
                    .map(|a| a.id.clone()),
                black_account: creator
                    .filter(|_| seat == Seat::Black)
                    .map(|a| a.id.clone()),
                rated: req.rated,
                category: category.map(|c| c.name().to_owned()),
                ..PlayersRow::default()
            },
        };
        self.ctx
            .store
            .write_fenced(Write::Create(row), self.fence()?)
            .await
            .map_err(AppError::from)?;
        if computer.is_some() {
            // Both seats are taken: loading the game starts it (Art. 6.6), and the computer
            // thinks at once if it has White.
            let view = self.view(&id).await?;
            if view.status != Status::Playing {
                return Err(AppError::Unavailable(
                    "the game against the computer could not start; retry".into(),
                ));
            }
        }
        Ok(SeatGrant {
            id,
            seat,
            token: tok,
        })
    }

    /// Create a game whose seats two accounts take at once (a seek accepted, a pool's
    /// pairing), and start it.
    ///
    /// # Errors
    /// 400 for a bad variant or start position, or a rated untimed game (nothing is stored
    /// then); 5xx database.
    pub async fn create_paired(
        self: &Arc<Self>,
        req: &NewGame,
        white: &Account,
        black: &Account,
    ) -> ApiResult<String> {
        self.create_paired_as(token::game_id(), req, white, black)
            .await
    }

    /// As [`Hub::create_paired`], with the game's id given (an accepted challenge's game has
    /// the challenge's id, as on lichess).
    ///
    /// # Errors
    /// As [`Hub::create_paired`]; a 409 `game_exists` when the id is taken.
    pub async fn create_paired_as(
        self: &Arc<Self>,
        id: String,
        req: &NewGame,
        white: &Account,
        black: &Account,
    ) -> ApiResult<String> {
        if self.ctx.store.game(&id).await?.is_some() {
            return Err(AppError::conflict(
                "game_exists",
                format!("a game with id {id:?} exists already"),
            ));
        }
        let mut row = Self::paired_row(req, white, black)?;
        row.id = id;
        let id = row.id.clone();
        self.ctx
            .store
            .write_fenced(Write::Create(row), self.fence()?)
            .await?;
        // Loading the game starts it (Art. 6.6).
        self.view(&id).await?;
        Ok(id)
    }

    /// The row of a game whose seats two accounts hold, stored as `playing` (it starts when it
    /// is loaded, Art. 6.6), for a caller that stores it with other writes (a tournament round).
    ///
    /// # Errors
    /// 400 for a bad variant or start position, or a rated untimed game.
    pub fn paired_row(req: &NewGame, white: &Account, black: &Account) -> ApiResult<GameRow> {
        let spec = Spec::new(req, token::random_u64())?;
        Referee::new(&spec)?;
        let category = spec.category();
        if req.rated && category.is_none() {
            return Err(AppError::bad_request(
                "cannot_be_rated",
                "an untimed game cannot be rated",
            ));
        }
        let now = db::now_unix_ms();
        Ok(GameRow {
            id: token::game_id(),
            created_at: now,
            updated_at: now,
            spec: serde_json::to_string(&spec).map_err(|e| AppError::Internal(e.to_string()))?,
            time_control: spec.time_control.clone(),
            variant: spec.variant.as_str().to_owned(),
            // Both seats are taken: a restart restores it like a running game.
            status: Status::Playing.as_str().to_owned(),
            players: PlayersRow {
                white_account: Some(white.id.clone()),
                black_account: Some(black.id.clone()),
                rated: req.rated,
                category: category.map(|c| c.name().to_owned()),
                ..PlayersRow::default()
            },
            ..GameRow::default()
        })
    }

    /// Open and running games.
    ///
    /// # Errors
    /// Database errors (500).
    pub async fn lobby(&self) -> ApiResult<Lobby> {
        let summary = |r: GameRow, names: &HashMap<String, account_queries::PlayerName>| {
            let taken = |hash: &Option<String>, account: &Option<String>| {
                hash.is_some() || account.is_some()
            };
            let status = replay::status(&r);
            let white = taken(&r.white_hash, &r.players.white_account);
            let black = taken(&r.black_hash, &r.players.black_account);
            let creator = [&r.players.white_account, &r.players.black_account]
                .into_iter()
                .flatten()
                .find_map(|a| names.get(a).map(|n| n.username.clone()));
            GameSummary {
                open_seat: match (white, black) {
                    (false, true) => Some(Seat::White),
                    (true, false) => Some(Seat::Black),
                    _ => None,
                },
                computer: r
                    .computer
                    .as_deref()
                    .and_then(|c| serde_json::from_str::<ComputerSeat>(c).ok())
                    .map(|c| c.view()),
                id: r.id,
                status,
                time_control: r.time_control,
                variant: r.variant,
                created_at: r.created_at,
                rated: r.players.rated,
                creator,
            }
        };
        let open = self
            .ctx
            .store
            .games_with_status(Status::Waiting.as_str(), 100)
            .await
            .map_err(AppError::from)?;
        let playing = self
            .ctx
            .store
            .games_with_status(Status::Playing.as_str(), 100)
            .await
            .map_err(AppError::from)?;
        let accounts: Vec<&str> = open
            .iter()
            .flat_map(|r| [&r.players.white_account, &r.players.black_account])
            .flatten()
            .map(String::as_str)
            .collect();
        let names = account_queries::names(self.ctx.store.pool(), &accounts).await?;
        Ok(Lobby {
            open: open.into_iter().map(|r| summary(r, &names)).collect(),
            playing: playing.into_iter().map(|r| summary(r, &names)).collect(),
        })
    }
}
