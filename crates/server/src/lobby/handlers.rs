//! The HTTP handlers of the lobby: seeks, pools.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;

use super::service::Lobby;
use super::wire::{Joined, LobbyView, Seek, SeekRequest, Started};
use crate::auth::LoggedIn;
use crate::error::{ApiResult, AppError, ErrorBody};
use crate::extract::JsonBody;

fn check_id(id: &str) -> ApiResult<()> {
    if id.is_empty() || id.len() > 32 {
        return Err(AppError::NotFound(format!("no such id {id:?}")));
    }
    Ok(())
}

#[utoipa::path(get, path = "/api/lobby", responses((status = 200, body = LobbyView)))]
/// The open seeks and the pools.
pub async fn get_lobby(State(lobby): State<Arc<Lobby>>) -> Json<LobbyView> {
    Json(lobby.view())
}

#[utoipa::path(post, path = "/api/seeks", request_body = SeekRequest,
    responses((status = 201, body = Seek), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 409, body = ErrorBody)))]
/// Post a seek (accounts only): others see it in the lobby and may accept it.
pub async fn post_seek(
    State(lobby): State<Arc<Lobby>>,
    who: LoggedIn,
    JsonBody(req): JsonBody<SeekRequest>,
) -> ApiResult<(StatusCode, Json<Seek>)> {
    Ok((
        StatusCode::CREATED,
        Json(lobby.add_seek(&who.account, req).await?),
    ))
}

#[utoipa::path(delete, path = "/api/seeks/{id}", params(("id" = String, Path)),
    responses((status = 204, description = "Withdrawn"), (status = 401, body = ErrorBody),
              (status = 404, body = ErrorBody)))]
/// Withdraw one's own seek.
pub async fn delete_seek(
    State(lobby): State<Arc<Lobby>>,
    who: LoggedIn,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    check_id(&id)?;
    lobby.remove_seek(&who.account, &id)?;
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(post, path = "/api/seeks/{id}/accept", params(("id" = String, Path)),
    responses((status = 200, body = Started), (status = 401, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
/// Accept a seek: the game starts for both players at once.
pub async fn accept_seek(
    State(lobby): State<Arc<Lobby>>,
    who: LoggedIn,
    Path(id): Path<String>,
) -> ApiResult<Json<Started>> {
    check_id(&id)?;
    Ok(Json(Started {
        game: lobby.accept(&who.account, &id).await?,
    }))
}

#[utoipa::path(post, path = "/api/pools/{id}/join", params(("id" = String, Path, example = "5+3")),
    responses((status = 200, body = Joined), (status = 401, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
/// Wait in a quick-pairing pool (one at a time).
pub async fn join_pool(
    State(lobby): State<Arc<Lobby>>,
    who: LoggedIn,
    Path(id): Path<String>,
) -> ApiResult<Json<Joined>> {
    check_id(&id)?;
    lobby.join_pool(&who.account, &id).await?;
    Ok(Json(Joined { pool: id }))
}

#[utoipa::path(delete, path = "/api/pools",
    responses((status = 204, description = "Left the pool"), (status = 401, body = ErrorBody)))]
/// Leave the pool.
pub async fn leave_pool(State(lobby): State<Arc<Lobby>>, who: LoggedIn) -> StatusCode {
    lobby.leave_pool(&who.account);
    StatusCode::NO_CONTENT
}
