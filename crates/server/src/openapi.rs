//! The OpenAPI document of the whole API: each domain's description merged into one.

use axum::response::{IntoResponse, Response};
use axum::Json;
use utoipa::OpenApi;

/// The document's title and the security schemes shared by every domain.
#[derive(OpenApi)]
#[openapi(
    info(title = "Arbiter", description = "Online chess under the FIDE Laws (2018)."),
    modifiers(&BearerAuth)
)]
struct Base;

struct BearerAuth;

impl utoipa::Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).build()),
        );
    }
}

/// The whole document.
pub fn document() -> utoipa::openapi::OpenApi {
    let mut doc = Base::openapi();
    doc.merge(crate::accounts::AccountsApi::openapi());
    doc.merge(crate::games::GamesApi::openapi());
    doc.merge(crate::lichess::chat_api::ChatApi::openapi());
    doc.merge(crate::analysis::AnalysisApi::openapi());
    doc.merge(crate::imports::ImportsApi::openapi());
    doc.merge(crate::lobby::LobbyApi::openapi());
    doc.merge(crate::profiles::ProfilesApi::openapi());
    doc.merge(crate::tournaments::TournamentsApi::openapi());
    doc.merge(crate::operations::OperationsApi::openapi());
    doc
}

/// `GET /api/openapi.json`.
pub async fn serve() -> Response {
    Json(document()).into_response()
}
