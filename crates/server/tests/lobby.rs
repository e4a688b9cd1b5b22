//! Finding an opponent: seeks (posted, seen live, accepted: the game starts for both and both
//! lobby sockets are told), quick-pairing pools (two players matched), and the lobby's bad
//! input. On SQLite, and on PostgreSQL when `ARBITER_TEST_POSTGRES_URL` is set.

mod common;

use std::time::Duration;

use common::{Browser, Db, T};
use futures_util::StreamExt;
use reqwest::header::COOKIE;
use reqwest::StatusCode;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// The lobby socket of a browser (its cookie, its origin).
async fn lobby_socket(b: &Browser) -> Socket {
    let url = format!("{}/api/lobby/ws", b.base.replacen("http", "ws", 1));
    let mut req = url.into_client_request().unwrap();
    if let Some(c) = &b.cookie {
        req.headers_mut().insert(COOKIE, c.parse().unwrap());
    }
    req.headers_mut().insert("origin", b.base.parse().unwrap());
    let (ws, _) = tokio_tungstenite::connect_async(req)
        .await
        .expect("lobby socket");
    ws
}

/// The next lobby message satisfying `pred`.
async fn until(ws: &mut Socket, pred: impl Fn(&Value) -> bool) -> Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .expect("a lobby message within 10 s")
            .expect("open")
            .expect("no error");
        if let Message::Text(t) = msg {
            let v: Value = serde_json::from_str(t.as_str()).unwrap();
            if pred(&v) {
                return v;
            }
        }
    }
}

async fn a_seek_accepted_starts_the_game_for_both(db: Db) {
    let Some(t) = T::new(db).await else { return };
    let (mut a, mut b) = (Browser::new(&t), Browser::new(&t));
    let (na, nb) = (a.sign_up("sam").await, b.sign_up("tia").await);
    let mut wa = lobby_socket(&a).await;
    let mut wb = lobby_socket(&b).await;
    let first = until(&mut wb, |v| v["type"] == "lobby").await;
    assert_eq!(first["pools"].as_array().unwrap().len(), 9);
    let (s, seek) = a
        .post(
            "/api/seeks",
            json!({"time_control": "3+2", "rated": true, "color": "white"}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{seek}");
    assert_eq!(seek["username"], na.as_str());
    assert_eq!(seek["rating"], 1500);
    assert_eq!(seek["speed"], "blitz");
    let id = seek["id"].as_str().unwrap().to_owned();
    // B sees it live, and in the lobby.
    let added = until(&mut wb, |v| v["type"] == "seek_added").await;
    assert_eq!(added["seek"]["id"], id.as_str());
    let (_, lobby) = b.get("/api/lobby").await;
    assert!(lobby["seeks"].to_string().contains(&id));
    // A cannot accept their own seek.
    let (s, e) = a.post(&format!("/api/seeks/{id}/accept"), json!({})).await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::CONFLICT, Some("own_seek"))
    );
    let mut wc = lobby_socket(&Browser::new(&t)).await;
    let (s, started) = b.post(&format!("/api/seeks/{id}/accept"), json!({})).await;
    assert_eq!(s, StatusCode::OK, "{started}");
    let game = started["game"].as_str().unwrap().to_owned();
    // Both pages are told, and the game has started with A as White.
    for ws in [&mut wa, &mut wb] {
        let v = until(ws, |v| v["type"] == "game_started").await;
        assert_eq!(v["game"], game.as_str());
    }
    let removed = until(&mut wc, |v| v["type"] == "seek_removed").await;
    assert_eq!(
        removed["id"],
        id.as_str(),
        "a spectator of the lobby sees it go"
    );
    // The seek is gone from the lobby (it was announced before the game).
    let (_, lobby) = a.get("/api/lobby").await;
    assert!(!lobby["seeks"].to_string().contains(&id), "{lobby}");
    let (_, view) = a.get(&format!("/api/games/{game}")).await;
    assert_eq!(view["status"], "playing");
    assert_eq!(view["rated"], true);
    assert_eq!(view["time_control"], "3+2");
    assert_eq!(view["players"]["white"]["name"], na.as_str());
    assert_eq!(view["players"]["black"]["name"], nb.as_str());
    a.mv(&game, "e4").await;
    b.mv(&game, "e5").await;
    // Taken: a second acceptance finds nothing.
    let (s, _) = b.post(&format!("/api/seeks/{id}/accept"), json!({})).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
}

async fn two_players_in_the_same_pool_are_matched(db: Db) {
    let Some(t) = T::new(db).await else { return };
    let (mut a, mut b) = (Browser::new(&t), Browser::new(&t));
    a.sign_up("uma").await;
    b.sign_up("vic").await;
    let mut wa = lobby_socket(&a).await;
    let mut wb = lobby_socket(&b).await;
    let (s, j) = a.post("/api/pools/5+3/join", json!({})).await;
    assert_eq!((s, j["pool"].as_str()), (StatusCode::OK, Some("5+3")));
    // One pool at a time.
    let (s, e) = a.post("/api/pools/1+0/join", json!({})).await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::CONFLICT, Some("already_in_pool"))
    );
    let counts = until(&mut wb, |v| {
        v["type"] == "pools"
            && v["pools"]
                .as_array()
                .unwrap()
                .iter()
                .any(|p| p["id"] == "5+3" && p["waiting"].as_u64().unwrap() >= 1)
    })
    .await;
    assert_eq!(counts["type"], "pools");
    b.post("/api/pools/5+3/join", json!({})).await;
    let ga = until(&mut wa, |v| v["type"] == "game_started").await;
    let gb = until(&mut wb, |v| v["type"] == "game_started").await;
    assert_eq!(ga["game"], gb["game"], "the same game for both");
    let game = ga["game"].as_str().unwrap();
    let (_, view) = a.get(&format!("/api/games/{game}")).await;
    assert_eq!(view["status"], "playing");
    assert_eq!(view["time_control"], "5+3");
    assert_eq!(view["rated"], true);
    // Both have left the pool.
    let (_, lobby) = a.get("/api/lobby").await;
    let pool = lobby["pools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == "5+3")
        .unwrap()
        .clone();
    assert_eq!(pool["waiting"], 0, "{lobby}");
}

async fn lobby_bad_input_is_a_4xx_and_changes_nothing(db: Db) {
    let Some(t) = T::new(db).await else { return };
    let mut anon = Browser::new(&t);
    let (s, _) = anon
        .post("/api/seeks", json!({"time_control": "5+3"}))
        .await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
    let (s, _) = anon.post("/api/pools/5+3/join", json!({})).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
    let mut a = Browser::new(&t);
    let na = a.sign_up("wes").await;
    for (body, code) in [
        (json!({"time_control": "5+"}), "bad_time_control"),
        (
            json!({"time_control": "untimed", "rated": true}),
            "cannot_be_rated",
        ),
        (
            json!({"time_control": "5+3", "rating_min": 1800, "rating_max": 1200}),
            "bad_rating_range",
        ),
        (
            json!({"time_control": "5+3", "rating_max": 9000}),
            "bad_rating_range",
        ),
    ] {
        let (s, e) = a.post("/api/seeks", body.clone()).await;
        assert_eq!(
            (s, e["error"].as_str()),
            (StatusCode::BAD_REQUEST, Some(code)),
            "{body}"
        );
    }
    let (s, _) = a.post("/api/pools/7+7/join", json!({})).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (_, lobby) = a.get("/api/lobby").await;
    assert!(
        !lobby.to_string().contains(&na),
        "nothing was added: {lobby}"
    );
    // At most three seeks; a range the acceptor is outside of.
    for _ in 0..3 {
        let (s, _) = a
            .post(
                "/api/seeks",
                json!({"time_control": "10+0", "rating_min": 1700}),
            )
            .await;
        assert_eq!(s, StatusCode::CREATED);
    }
    let (s, e) = a.post("/api/seeks", json!({"time_control": "10+0"})).await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::CONFLICT, Some("too_many_seeks"))
    );
    let (_, lobby) = a.get("/api/lobby").await;
    let seek = lobby["seeks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["username"] == na.as_str())
        .unwrap()
        .clone();
    let id = seek["id"].as_str().unwrap();
    let mut b = Browser::new(&t);
    b.sign_up("xan").await;
    let (s, e) = b.post(&format!("/api/seeks/{id}/accept"), json!({})).await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::CONFLICT, Some("out_of_range"))
    );
    // Withdrawing: only one's own.
    let (s, _) = b.delete(&format!("/api/seeks/{id}")).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (s, _) = a.delete(&format!("/api/seeks/{id}")).await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    let (_, lobby) = a.get("/api/lobby").await;
    assert!(!lobby.to_string().contains(id));
}

both_backends!(
    a_seek_accepted_starts_the_game_for_both,
    two_players_in_the_same_pool_are_matched,
    lobby_bad_input_is_a_4xx_and_changes_nothing,
);
