//! The HTTP handlers of games: create, join, view, PGN, actions, the list of games.

use std::sync::Arc;

use axum::extract::rejection::QueryRejection;
use axum::extract::{FromRequestParts, Path, Query, State};
use axum::http::request::Parts;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Extension;
use axum::Json;

use super::api::NewGame;
use super::hub::Hub;
use super::referee::Action;
use super::wire::{
    Ack, AdjournRequest, CreateGame, DrawRequest, EnginesView, ExternalEngineView, GameView, Lobby,
    MoveRequest, RematchAnswer, SeatGrant,
};
use crate::auth::Identity;
use crate::error::{ApiResult, AppError, ErrorBody};
use crate::extract::JsonBody;

use super::players::Credentials;

/// The game id taken from the path.
#[derive(Debug, Clone)]
pub struct GameId(pub String);

impl<S: Send + Sync> FromRequestParts<S> for GameId {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, AppError> {
        let Path(id) = Path::<String>::from_request_parts(parts, state).await?;
        if id.is_empty() || id.len() > 64 || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(AppError::game_not_found(&id));
        }
        Ok(Self(id))
    }
}

#[utoipa::path(post, path = "/api/games", request_body = CreateGame,
    responses((status = 201, body = SeatGrant), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody, description = "A rated game needs a logged-in creator"),
              (status = 413, body = ErrorBody), (status = 422, body = ErrorBody)))]
/// Create a game and take a seat. With `computer`, the other seat is the server's engine and
/// the game starts at once.
pub async fn create_game(
    State(hub): State<Arc<Hub>>,
    who: Identity,
    JsonBody(req): JsonBody<CreateGame>,
) -> ApiResult<(StatusCode, Json<SeatGrant>)> {
    let grant = hub
        .create(NewGame::try_from(req)?, who.account.as_ref())
        .await?;
    Ok((StatusCode::CREATED, Json(grant)))
}

#[utoipa::path(get, path = "/api/engines", responses((status = 200, body = EnginesView)))]
/// The computer opponents offered: the built-in levels and the configured external engines.
pub async fn list_engines(State(hub): State<Arc<Hub>>) -> Json<EnginesView> {
    let engines = hub.engines();
    Json(EnginesView {
        levels: (1..=8).collect(),
        external: engines
            .externals()
            .map(|e| ExternalEngineView {
                name: e.config.name.clone(),
                id_name: e.id_name.clone(),
            })
            .collect(),
    })
}

#[utoipa::path(post, path = "/api/games/{id}/join", params(("id" = String, Path)),
    responses((status = 200, body = SeatGrant),
              (status = 401, body = ErrorBody, description = "A rated game needs an account"),
              (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
/// Take the free seat; the game and the clock of the side to move start (Art. 6.6).
pub async fn join_game(
    State(hub): State<Arc<Hub>>,
    GameId(id): GameId,
    who: Identity,
) -> ApiResult<Json<SeatGrant>> {
    Ok(Json(hub.join(&id, who.account.as_ref()).await?))
}

#[utoipa::path(get, path = "/api/games/{id}", params(("id" = String, Path)),
    responses((status = 200, body = GameView), (status = 404, body = ErrorBody)))]
/// The whole state of a game (a played game, or an imported one: `imported: true`).
pub async fn get_game(
    State(hub): State<Arc<Hub>>,
    GameId(id): GameId,
    archive: Option<Extension<Archive>>,
) -> ApiResult<Json<GameView>> {
    match hub.view(&id).await {
        Err(AppError::NotFound(m)) => match archive {
            Some(Extension(a)) => a.0.view(&id).await?.map(Json).ok_or(AppError::NotFound(m)),
            None => Err(AppError::NotFound(m)),
        },
        other => Ok(Json(other?)),
    }
}

/// Games kept apart from the played ones (imported games), which the game routes show too:
/// asked for an id the games table does not hold. The application installs it as a request
/// extension ([`Archive`]), so that games need not know the domains above them.
pub trait GameArchive: Send + Sync {
    /// The view of game `id`, if the archive holds it.
    fn view<'a>(
        &'a self,
        id: &'a str,
    ) -> futures_util::future::BoxFuture<'a, ApiResult<Option<GameView>>>;
    /// The PGN of game `id`, if the archive holds it.
    fn pgn<'a>(
        &'a self,
        id: &'a str,
    ) -> futures_util::future::BoxFuture<'a, ApiResult<Option<String>>>;
}

/// The installed [`GameArchive`] (an axum request extension).
#[derive(Clone)]
pub struct Archive(pub Arc<dyn GameArchive>);

/// Writes a domain's annotations into a game's PGN (`?evals=true`: the stored computer
/// analysis). The application installs it as a request extension ([`PgnAnnotations`]), so that
/// games need not know the domains above them.
pub trait PgnAnnotator: Send + Sync {
    /// The PGN of game `id` with the annotations written in (unchanged when there are none).
    fn annotate<'a>(
        &'a self,
        id: &'a str,
        pgn: String,
    ) -> futures_util::future::BoxFuture<'a, ApiResult<String>>;
}

/// The installed [`PgnAnnotator`] (an axum request extension).
#[derive(Clone)]
pub struct PgnAnnotations(pub Arc<dyn PgnAnnotator>);

/// The options of the PGN export.
#[derive(Debug, Clone, Default, serde::Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PgnQuery {
    /// Add the computer analysis, if there is one: `[%eval]` comments after each move, NAGs
    /// (`$6`, `$2`, `$4`) and a comment naming the better move for marked moves.
    pub evals: Option<bool>,
}

#[utoipa::path(get, path = "/api/games/{id}/pgn", params(("id" = String, Path), PgnQuery),
    responses((status = 200, body = String, content_type = "application/x-chess-pgn"),
              (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
/// The game in PGN.
pub async fn get_pgn(
    State(hub): State<Arc<Hub>>,
    GameId(id): GameId,
    query: Result<Query<PgnQuery>, QueryRejection>,
    annotations: Option<Extension<PgnAnnotations>>,
    archive: Option<Extension<Archive>>,
) -> ApiResult<Response> {
    let Query(query) = query?;
    let mut pgn = match (hub.pgn(&id).await, archive) {
        (Err(AppError::NotFound(m)), Some(Extension(a))) => {
            a.0.pgn(&id).await?.ok_or(AppError::NotFound(m))?
        }
        (other, _) => other?,
    };
    if query.evals == Some(true) {
        if let Some(Extension(a)) = annotations {
            pgn = a.0.annotate(&id, pgn).await?;
        }
    }
    Ok((
        [(
            header::CONTENT_TYPE,
            "application/x-chess-pgn; charset=utf-8",
        )],
        pgn,
    )
        .into_response())
}

#[utoipa::path(get, path = "/api/games", responses((status = 200, body = Lobby)))]
/// Open games waiting for an opponent and running games to watch.
pub async fn list_games(State(hub): State<Arc<Hub>>) -> ApiResult<Json<Lobby>> {
    Ok(Json(hub.lobby().await?))
}

async fn act(hub: &Arc<Hub>, id: &str, who: &Identity, action: Action) -> ApiResult<Json<Ack>> {
    Ok(Json(hub.act(id, &Credentials::from(who), action).await?))
}

#[utoipa::path(post, path = "/api/games/{id}/move", params(("id" = String, Path)),
    request_body = MoveRequest, security(("bearer" = [])),
    responses((status = 200, body = Ack), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
/// Play a move (acknowledged once committed).
pub async fn post_move(
    State(hub): State<Arc<Hub>>,
    GameId(id): GameId,
    who: Identity,
    JsonBody(req): JsonBody<MoveRequest>,
) -> ApiResult<Json<Ack>> {
    act(&hub, &id, &who, Action::Move(req)).await
}

#[utoipa::path(post, path = "/api/games/{id}/draw", params(("id" = String, Path)),
    request_body = DrawRequest, security(("bearer" = [])),
    responses((status = 200, body = Ack), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
/// Offer, accept, decline or claim a draw.
pub async fn post_draw(
    State(hub): State<Arc<Hub>>,
    GameId(id): GameId,
    who: Identity,
    JsonBody(req): JsonBody<DrawRequest>,
) -> ApiResult<Json<Ack>> {
    act(&hub, &id, &who, Action::Draw(req)).await
}

#[utoipa::path(post, path = "/api/games/{id}/resign", params(("id" = String, Path)),
    security(("bearer" = [])),
    responses((status = 200, body = Ack), (status = 401, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
/// Resign (Art. 5.1.2).
pub async fn post_resign(
    State(hub): State<Arc<Hub>>,
    GameId(id): GameId,
    who: Identity,
) -> ApiResult<Json<Ack>> {
    act(&hub, &id, &who, Action::Resign).await
}

#[utoipa::path(post, path = "/api/games/{id}/abort", params(("id" = String, Path)),
    security(("bearer" = [])),
    responses((status = 200, body = Ack), (status = 401, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
/// Abort a game before both players have moved (online convention).
pub async fn post_abort(
    State(hub): State<Arc<Hub>>,
    GameId(id): GameId,
    who: Identity,
) -> ApiResult<Json<Ack>> {
    act(&hub, &id, &who, Action::Abort).await
}

#[utoipa::path(post, path = "/api/games/{id}/adjourn", params(("id" = String, Path)),
    request_body = AdjournRequest, security(("bearer" = [])),
    responses((status = 200, body = Ack), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
/// Adjourn the game by sealing the next move (Guideline I); its clock stops.
pub async fn post_adjourn(
    State(hub): State<Arc<Hub>>,
    GameId(id): GameId,
    who: Identity,
    JsonBody(req): JsonBody<AdjournRequest>,
) -> ApiResult<Json<Ack>> {
    act(&hub, &id, &who, Action::Seal(req)).await
}

#[utoipa::path(post, path = "/api/games/{id}/resume", params(("id" = String, Path)),
    security(("bearer" = [])),
    responses((status = 200, body = Ack), (status = 401, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
/// Resume an adjourned game: the sealed move is played and the opponent's clock starts.
pub async fn post_resume(
    State(hub): State<Arc<Hub>>,
    GameId(id): GameId,
    who: Identity,
) -> ApiResult<Json<Ack>> {
    act(&hub, &id, &who, Action::Resume).await
}

#[utoipa::path(delete, path = "/api/games/{id}", params(("id" = String, Path)),
    security(("bearer" = [])),
    responses((status = 204, description = "Withdrawn"), (status = 401, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
/// Withdraw a game still waiting for an opponent (its creator, by seat token or account).
pub async fn withdraw_game(
    State(hub): State<Arc<Hub>>,
    GameId(id): GameId,
    who: Identity,
) -> ApiResult<StatusCode> {
    hub.withdraw(&id, Credentials::from(&who)).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(post, path = "/api/games/{id}/rematch", params(("id" = String, Path)),
    security(("bearer" = [])),
    responses((status = 200, body = RematchAnswer), (status = 401, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
/// Offer a rematch, or accept the opponent's: the new game (colours swapped) starts for both,
/// each seat held by the same token and account as before.
pub async fn offer_rematch(
    State(hub): State<Arc<Hub>>,
    GameId(id): GameId,
    who: Identity,
) -> ApiResult<Json<RematchAnswer>> {
    Ok(Json(hub.rematch(&id, Credentials::from(&who), true).await?))
}

#[utoipa::path(delete, path = "/api/games/{id}/rematch", params(("id" = String, Path)),
    security(("bearer" = [])),
    responses((status = 200, body = RematchAnswer), (status = 401, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
/// Decline the opponent's rematch offer, or withdraw one's own.
pub async fn decline_rematch(
    State(hub): State<Arc<Hub>>,
    GameId(id): GameId,
    who: Identity,
) -> ApiResult<Json<RematchAnswer>> {
    Ok(Json(
        hub.rematch(&id, Credentials::from(&who), false).await?,
    ))
}
