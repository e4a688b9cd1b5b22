//! Accounts: sign-up, log-in and sessions, password changes, closing, personal API tokens.
//! Who a request comes from is resolved below, in [`crate::auth`].

pub mod handlers;
pub mod lichess;
pub mod limits;
pub mod password;
pub mod queries;
pub mod wire;

use std::sync::Arc;

use axum::extract::FromRef;
use axum::routing::{delete, post};
use axum::Router;
use utoipa::OpenApi;

pub use handlers::Accounts;

use crate::auth::Auth;
use crate::error::ErrorBody;
use crate::ratings::RatingView;
use handlers::*;
use wire::*;

/// The routes of accounts.
pub fn routes<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Arc<Accounts>: FromRef<S>,
    Arc<Auth>: FromRef<S>,
{
    Router::new()
        .route("/api/account", post(sign_up).get(get_me))
        .route("/api/session", post(log_in).delete(log_out))
        .route("/api/sessions", delete(log_out_everywhere))
        .route("/api/account/password", post(change_password))
        .route("/api/account/close", post(close_account))
        .route("/api/account/tokens", post(create_token).get(list_tokens))
        .route("/api/account/tokens/{id}", delete(revoke_token))
}

/// The OpenAPI description of the accounts' routes.
#[derive(OpenApi)]
#[openapi(
    paths(
        sign_up,
        log_in,
        log_out,
        log_out_everywhere,
        get_me,
        change_password,
        close_account,
        create_token,
        list_tokens,
        revoke_token
    ),
    components(schemas(
        ErrorBody,
        Credentials,
        Me,
        ChangePassword,
        CloseAccount,
        NewToken,
        TokenView,
        CreatedToken,
        RatingView,
        LichessProfile,
        LichessPerf,
        LichessCount
    ))
)]
pub struct AccountsApi;
