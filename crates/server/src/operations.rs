//! Operations: `GET /api/health` (the process answers), `GET /api/ready` (the database and,
//! in cluster mode, NATS are reachable: a load balancer's check), `GET /metrics` (Prometheus
//! text), and the `x-arbiter-node` header naming the node that answered.

use std::sync::Arc;

use axum::extract::State;
use axum::http::{header, HeaderName, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::Serialize;
use tower_http::set_header::SetResponseHeaderLayer;
use utoipa::ToSchema;

use crate::games::Hub;
use crate::metrics::{Gauges, METRICS};

/// The routes of this module.
pub fn routes<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Arc<Hub>: axum::extract::FromRef<S>,
{
    Router::new()
        .route("/api/health", get(health))
        .route("/api/ready", get(ready))
        .route("/metrics", get(metrics))
}

/// The header naming the node that answered (empty name: not added).
pub fn node_header(node: &str) -> SetResponseHeaderLayer<Option<HeaderValue>> {
    SetResponseHeaderLayer::overriding(
        HeaderName::from_static("x-arbiter-node"),
        (!node.is_empty())
            .then(|| HeaderValue::from_str(node).ok())
            .flatten(),
    )
}

/// Liveness.
#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    /// Always `ok`.
    pub status: &'static str,
    /// The node's id in a cluster.
    pub node: Option<String>,
}

/// Readiness: what the node depends on.
#[derive(Debug, Serialize, ToSchema)]
pub struct Ready {
    /// When not ready: `not_ready` (an error body like every other).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<&'static str>,
    /// When not ready: what is missing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Ready to serve: the database (and NATS in a cluster) reachable, a live lease held.
    pub ready: bool,
    /// The database answers.
    pub database: bool,
    /// NATS is connected (`None`: not a cluster).
    pub nats: Option<bool>,
    /// The lease epoch held (`None`: not a cluster; 0: none at the moment).
    pub epoch: Option<i64>,
    /// The node's id in a cluster.
    pub node: Option<String>,
}

/// `GET /api/health`: the process is alive.
#[utoipa::path(get, path = "/api/health", tag = "operations",
    responses((status = 200, description = "Alive", body = Health)))]
pub async fn health(State(hub): State<Arc<Hub>>) -> Json<Health> {
    Json(Health {
        status: "ok",
        node: hub.cluster().map(|c| c.node().to_owned()),
    })
}

/// `GET /api/ready`: 200 when the node can serve (database reachable; in a cluster also NATS
/// connected and a live lease), else 503 with the same body.
#[utoipa::path(get, path = "/api/ready", tag = "operations",
    responses((status = 200, description = "Ready", body = Ready),
              (status = 503, description = "Not ready", body = Ready)))]
pub async fn ready(State(hub): State<Arc<Hub>>) -> Response {
    let database = tokio::time::timeout(
        std::time::Duration::from_secs(2),
        sqlx::query("SELECT 1").execute(hub.store().pool()),
    )
    .await
    .is_ok_and(|r| r.is_ok());
    let (nats, epoch, node) = match hub.cluster() {
        Some(c) => (
            Some(c.nats_connected()),
            Some(c.epoch()),
            Some(c.node().to_owned()),
        ),
        None => (None, None, None),
    };
    let ready = database && nats != Some(false) && epoch != Some(0);
    let missing: Vec<&str> = [
        (!database).then_some("the database is unreachable"),
        (nats == Some(false)).then_some("NATS is unreachable"),
        (epoch == Some(0)).then_some("no cluster lease is held"),
    ]
    .into_iter()
    .flatten()
    .collect();
    let status = if ready {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    (
        status,
        Json(Ready {
            error: (!ready).then_some("not_ready"),
            message: (!ready).then(|| missing.join("; ")),
            ready,
            database,
            nats,
            epoch,
            node,
        }),
    )
        .into_response()
}

/// `GET /metrics`: the counters in Prometheus' text format.
pub async fn metrics(State(hub): State<Arc<Hub>>) -> Response {
    let text = METRICS.render(Gauges {
        games_owned: hub.loaded(),
        epoch: hub.cluster().map_or(0, |c| c.epoch()),
    });
    (
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        text,
    )
        .into_response()
}

/// The OpenAPI description of the operations' JSON routes.
#[derive(utoipa::OpenApi)]
#[openapi(paths(health, ready), components(schemas(Health, Ready)))]
pub struct OperationsApi;
