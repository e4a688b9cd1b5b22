//! Players over HTTP: accounts and sessions, rated games and their rating changes (stored in
//! the transaction of the game's last event, exactly once, even across `kill -9`), the PGN's
//! player tags, seats owned by accounts, the cross-site check, the login limit, rematch and
//! withdrawing a waiting game. On SQLite, and on PostgreSQL when `ARBITER_TEST_POSTGRES_URL`
//! is set.

mod common;

use common::{name, Browser, Child, Db, T};
use reqwest::header::{COOKIE, ORIGIN, RETRY_AFTER, SET_COOKIE};
use reqwest::StatusCode;
use serde_json::{json, Value};

/// Two logged-in players and a rated 5+3 game between them, `a` White.
async fn rated_game(t: &T) -> (Browser, Browser, String, String, String) {
    let (mut a, mut b) = (Browser::new(t), Browser::new(t));
    let (na, nb) = (a.sign_up("ann").await, b.sign_up("ben").await);
    let (s, created) = a
        .post(
            "/api/games",
            json!({"time_control": "5+3", "rated": true, "color": "white"}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap().to_owned();
    let (s, joined) = b.post(&format!("/api/games/{id}/join"), json!({})).await;
    assert_eq!(s, StatusCode::OK, "{joined}");
    (a, b, id, na, nb)
}

async fn accounts_sign_up_log_in_log_out_and_close(db: Db) {
    let Some(t) = T::new(db).await else { return };
    let mut a = Browser::new(&t);
    let username = name("Kim");
    let resp = reqwest::Client::new()
        .post(t.url("/api/account"))
        .json(&json!({"username": username, "password": "correct horse"}))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::CREATED);
    let set = resp.headers()[SET_COOKIE].to_str().unwrap().to_owned();
    for attr in [
        "arbiter_session=",
        "HttpOnly",
        "SameSite=Lax",
        "Path=/",
        "Max-Age=",
    ] {
        assert!(set.contains(attr), "{attr} missing in {set}");
    }
    assert!(!set.contains("Secure"), "not behind TLS: {set}");
    // The same name in other letter case is taken.
    let (s, e) = a
        .post(
            "/api/account",
            json!({"username": username.to_uppercase(), "password": "another pass"}),
        )
        .await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::CONFLICT, Some("username_taken"))
    );
    // Malformed names and weak or huge passwords.
    for (body, code) in [
        (
            json!({"username": "x", "password": "long enough"}),
            "bad_username",
        ),
        (
            json!({"username": "bad name", "password": "long enough"}),
            "bad_username",
        ),
        (
            json!({"username": "Admin", "password": "long enough"}),
            "bad_username",
        ),
        (
            json!({"username": name("w"), "password": "short"}),
            "weak_password",
        ),
        (
            json!({"username": name("h"), "password": "x".repeat(300)}),
            "password_too_long",
        ),
    ] {
        let (s, e) = a.post("/api/account", body.clone()).await;
        assert_eq!(
            (s, e["error"].as_str()),
            (StatusCode::BAD_REQUEST, Some(code)),
            "{body}"
        );
    }
    // Wrong password and unknown account: the same answer.
    let (s1, e1) = a
        .post(
            "/api/session",
            json!({"username": username, "password": "wrong password"}),
        )
        .await;
    let (s2, e2) = a
        .post(
            "/api/session",
            json!({"username": name("nobody"), "password": "wrong password"}),
        )
        .await;
    assert_eq!(
        (s1, s2),
        (StatusCode::UNAUTHORIZED, StatusCode::UNAUTHORIZED)
    );
    assert_eq!(e1, e2);
    assert_eq!(e1["error"], "bad_credentials");
    // Log in twice (two browsers), log out of one: the other stays logged in.
    let mut b = Browser::new(&t);
    for br in [&mut a, &mut b] {
        let (s, me) = br
            .post(
                "/api/session",
                json!({"username": username.to_lowercase(), "password": "correct horse"}),
            )
            .await;
        assert_eq!(s, StatusCode::OK, "{me}");
        assert_eq!(
            me["username"],
            username.as_str(),
            "the name as written at sign-up"
        );
        assert_eq!(me["ratings"]["blitz"]["rating"], 1500);
        assert_eq!(me["ratings"]["blitz"]["provisional"], true);
    }
    let stale = a.cookie.clone();
    let (s, _) = a.delete("/api/session").await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    a.cookie = stale;
    let (s, _) = a.get("/api/account").await;
    assert_eq!(s, StatusCode::UNAUTHORIZED, "a logged-out session is dead");
    let (s, _) = b.get("/api/account").await;
    assert_eq!(s, StatusCode::OK);
    // A password change ends the other sessions, not this one.
    let mut c = Browser::new(&t);
    c.post(
        "/api/session",
        json!({"username": username, "password": "correct horse"}),
    )
    .await;
    let (s, _) = b
        .post(
            "/api/account/password",
            json!({"current": "correct horse", "new": "battery staple"}),
        )
        .await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    assert_eq!(b.get("/api/account").await.0, StatusCode::OK);
    assert_eq!(c.get("/api/account").await.0, StatusCode::UNAUTHORIZED);
    // Personal API tokens: shown once, work as Bearer, revocable.
    let (s, tok) = b
        .post("/api/account/tokens", json!({"description": "my bot"}))
        .await;
    assert_eq!(s, StatusCode::CREATED, "{tok}");
    let secret = tok["token"].as_str().unwrap().to_owned();
    assert!(secret.starts_with("arb_"));
    let bot = reqwest::Client::new();
    let me = bot
        .get(t.url("/api/account"))
        .bearer_auth(&secret)
        .send()
        .await
        .unwrap();
    assert_eq!(me.status(), StatusCode::OK);
    let (_, list) = b.get("/api/account/tokens").await;
    assert!(
        !list.to_string().contains(&secret),
        "the secret is never listed"
    );
    let (s, _) = b
        .delete(&format!(
            "/api/account/tokens/{}",
            tok["id"].as_str().unwrap()
        ))
        .await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    let me = bot
        .get(t.url("/api/account"))
        .bearer_auth(&secret)
        .send()
        .await
        .unwrap();
    assert_eq!(me.status(), StatusCode::UNAUTHORIZED);
    // Log out everywhere.
    let mut d = Browser::new(&t);
    d.post(
        "/api/session",
        json!({"username": username, "password": "battery staple"}),
    )
    .await;
    assert_eq!(b.delete("/api/sessions").await.0, StatusCode::NO_CONTENT);
    assert_eq!(d.get("/api/account").await.0, StatusCode::UNAUTHORIZED);
    // Closing: the password confirms it; the account cannot log in again.
    d.post(
        "/api/session",
        json!({"username": username, "password": "battery staple"}),
    )
    .await;
    let (s, _) = d
        .post("/api/account/close", json!({"password": "wrong one!"}))
        .await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
    let (s, _) = d
        .post("/api/account/close", json!({"password": "battery staple"}))
        .await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    let (s, _) = d
        .post(
            "/api/session",
            json!({"username": username, "password": "battery staple"}),
        )
        .await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
}

async fn rated_game_to_mate_changes_both_ratings_and_the_pgn(db: Db) {
    let Some(t) = T::new(db).await else { return };
    let (mut a, mut b, id, na, nb) = rated_game(&t).await;
    let (_, view) = a.get(&format!("/api/games/{id}")).await;
    assert_eq!(view["rated"], true);
    assert_eq!(view["speed"], "blitz");
    assert_eq!(view["players"]["white"]["name"], na.as_str());
    assert_eq!(view["players"]["black"]["name"], nb.as_str());
    assert_eq!(view["players"]["white"]["rating"], 1500);
    assert_eq!(view["players"]["white"]["provisional"], true);
    // The seats belong to the accounts: the cookies act, no seat token needed.
    a.mv(&id, "f3").await;
    b.mv(&id, "e5").await;
    a.mv(&id, "g4").await;
    let ack = b.mv(&id, "Qh4#").await;
    let game = &ack["game"];
    assert_eq!(game["result"], "0-1");
    let (white_diff, black_diff) = (
        game["players"]["white"]["rating_diff"].as_i64().unwrap(),
        game["players"]["black"]["rating_diff"].as_i64().unwrap(),
    );
    assert!(
        white_diff < 0 && black_diff > 0,
        "{white_diff} {black_diff}"
    );
    // Equal ratings and RDs: the changes are equal and opposite.
    assert_eq!(white_diff, -black_diff);
    for (br, diff, wins) in [(&mut a, white_diff, 0), (&mut b, black_diff, 1)] {
        let (_, me) = br.get("/api/account").await;
        let blitz = &me["ratings"]["blitz"];
        assert_eq!(blitz["games"], 1);
        assert_eq!(blitz["rating"].as_i64().unwrap(), 1500 + diff);
        assert!(
            blitz["rd"].as_i64().unwrap() < 500,
            "RD shrinks after a game: {blitz}"
        );
        let _ = wins;
    }
    // Other categories are untouched.
    let (_, me) = a.get("/api/account").await;
    assert_eq!(me["ratings"]["rapid"]["games"], 0);
    let pgn = reqwest::get(t.url(&format!("/api/games/{id}/pgn")))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    for tag in [
        format!("[White \"{na}\"]"),
        format!("[Black \"{nb}\"]"),
        "[WhiteElo \"1500\"]".to_owned(),
        "[BlackElo \"1500\"]".to_owned(),
        format!("[WhiteRatingDiff \"{white_diff:+}\"]"),
        format!("[BlackRatingDiff \"{black_diff:+}\"]"),
    ] {
        assert!(pgn.contains(&tag), "{tag} missing:\n{pgn}");
    }
    // A spectator's WebSocket, from the start, sees the changes on the last event.
    let mut ws = t.ws(&id, "?since=0").await;
    let last = ws.until_kind("move").await;
    let mut last = last;
    while last["status"] != "finished" {
        last = ws.next().await;
    }
    assert_eq!(last["rating_diff"]["white"], white_diff);
    assert_eq!(last["rating_diff"]["black"], black_diff);
}

async fn rated_games_need_accounts_a_clock_and_a_person(db: Db) {
    let Some(t) = T::new(db).await else { return };
    let mut anon = Browser::new(&t);
    let (s, _) = anon
        .post("/api/games", json!({"time_control": "5+3", "rated": true}))
        .await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
    let mut a = Browser::new(&t);
    a.sign_up("rio").await;
    for body in [
        json!({"time_control": "untimed", "rated": true}),
        json!({"time_control": "5+3", "rated": true, "computer": {"level": 1}}),
    ] {
        let (s, e) = a.post("/api/games", body.clone()).await;
        assert_eq!(
            (s, e["error"].as_str()),
            (StatusCode::BAD_REQUEST, Some("cannot_be_rated")),
            "{body}"
        );
    }
    let (_, created) = a
        .post("/api/games", json!({"time_control": "3+2", "rated": true}))
        .await;
    let id = created["id"].as_str().unwrap();
    // An anonymous player cannot take the seat of a rated game; the creator cannot either.
    let (s, _) = anon.post(&format!("/api/games/{id}/join"), json!({})).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
    let (s, e) = a.post(&format!("/api/games/{id}/join"), json!({})).await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::CONFLICT, Some("own_game"))
    );
    // A casual game between accounts changes no rating.
    let mut b = Browser::new(&t);
    b.sign_up("sol").await;
    let (_, casual) = a
        .post(
            "/api/games",
            json!({"time_control": "3+2", "color": "white"}),
        )
        .await;
    let cid = casual["id"].as_str().unwrap();
    b.post(&format!("/api/games/{cid}/join"), json!({})).await;
    a.mv(cid, "f3").await;
    b.mv(cid, "e5").await;
    a.mv(cid, "g4").await;
    b.mv(cid, "Qh4#").await;
    let (_, view) = a.get(&format!("/api/games/{cid}")).await;
    assert_eq!(view["rated"], false);
    assert_eq!(view["players"]["white"]["rating_diff"], Value::Null);
    let (_, me) = a.get("/api/account").await;
    assert_eq!(me["ratings"]["blitz"]["games"], 0);
}

async fn a_cookie_of_player_a_cannot_act_in_player_bs_game(db: Db) {
    let Some(t) = T::new(db).await else { return };
    let (_a, _b, id, _, _) = rated_game(&t).await;
    let mut c = Browser::new(&t);
    c.sign_up("eve").await;
    let (s, e) = c
        .post(&format!("/api/games/{id}/move"), json!({"move": "e4"}))
        .await;
    assert_eq!(s, StatusCode::UNAUTHORIZED, "{e}");
    let (s, _) = c.post(&format!("/api/games/{id}/resign"), json!({})).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
    let (_, view) = c.get(&format!("/api/games/{id}")).await;
    assert_eq!(
        view["moves"].as_array().unwrap().len(),
        0,
        "nothing changed"
    );
}

async fn a_cross_site_post_without_a_matching_origin_is_refused(db: Db) {
    let Some(t) = T::new(db).await else { return };
    let mut a = Browser::new(&t);
    let username = a.sign_up("ida").await;
    let cookie = a.cookie.clone().unwrap();
    let forged = reqwest::Client::new()
        .post(t.url("/api/games"))
        .header(COOKIE, &cookie)
        .header(ORIGIN, "http://evil.example")
        .json(&json!({"time_control": "5+3", "rated": true}))
        .send()
        .await
        .unwrap();
    assert_eq!(forged.status(), StatusCode::FORBIDDEN);
    let body: Value = forged.json().await.unwrap();
    assert_eq!(body["error"], "cross_site_request");
    let (_, lobby) = a.get("/api/games").await;
    assert!(
        !lobby.to_string().contains(&username),
        "nothing was created: {lobby}"
    );
    // The site's own page (same Origin) may.
    let (s, _) = a
        .post("/api/games", json!({"time_control": "5+3", "rated": true}))
        .await;
    assert_eq!(s, StatusCode::CREATED);
}

async fn logins_are_rate_limited_per_account_with_retry_after(db: Db) {
    let Some(t) = T::new(db).await else { return };
    let mut a = Browser::new(&t);
    let username = a.sign_up("lim").await;
    let mut limited = None;
    for _ in 0..12 {
        let resp = reqwest::Client::new()
            .post(t.url("/api/session"))
            .json(&json!({"username": username, "password": "wrong password"}))
            .send()
            .await
            .unwrap();
        if resp.status() == StatusCode::TOO_MANY_REQUESTS {
            limited = Some(resp);
            break;
        }
        assert_eq!(resp.status(), StatusCode::UNAUTHORIZED);
    }
    let resp = limited.expect("a 429 within 12 attempts");
    let wait: u64 = resp.headers()[RETRY_AFTER]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&wait), "Retry-After {wait}");
    let body: Value = resp.json().await.unwrap();
    assert_eq!(body["error"], "too_many_attempts");
    // Even the right password waits.
    let (s, _) = Browser::new(&t)
        .post(
            "/api/session",
            json!({"username": username, "password": "correct horse"}),
        )
        .await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS);
}

async fn kill_9_after_the_final_move_of_a_rated_game_rates_it_exactly_once(db: Db) {
    let Some(mut t) = T::new(db).await else {
        return;
    };
    let child = Child::start(&t.db);
    let in_process = std::mem::replace(&mut t.base, child.base.clone());
    let (mut a, mut b, id, _, _) = rated_game(&t).await;
    a.mv(&id, "f3").await;
    b.mv(&id, "e5").await;
    a.mv(&id, "g4").await;
    let ack = b.mv(&id, "Qh4#").await;
    let diff = ack["game"]["players"]["black"]["rating_diff"]
        .as_i64()
        .unwrap();
    child.kill9();
    for _ in 0..2 {
        let child = Child::start(&t.db);
        for br in [&mut a, &mut b] {
            br.base = child.base.clone();
        }
        let (_, view) = a.get(&format!("/api/games/{id}")).await;
        assert_eq!(view["status"], "finished");
        assert_eq!(view["players"]["black"]["rating_diff"], diff);
        let (_, me) = b.get("/api/account").await;
        assert_eq!(me["ratings"]["blitz"]["games"], 1, "rated once: {me}");
        assert_eq!(
            me["ratings"]["blitz"]["rating"].as_i64().unwrap(),
            1500 + diff
        );
        child.kill9();
    }
    t.base = in_process;
}

async fn rematch_swaps_colours_and_takes_both_players_there(db: Db) {
    let Some(t) = T::new(db).await else { return };
    let (mut a, mut b, id, na, _) = rated_game(&t).await;
    let (s, e) = a.post(&format!("/api/games/{id}/rematch"), json!({})).await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::CONFLICT, Some("not_finished"))
    );
    a.post(&format!("/api/games/{id}/resign"), json!({})).await;
    let mut ws = t.ws(&id, "?since=100").await;
    let (s, r) = a.post(&format!("/api/games/{id}/rematch"), json!({})).await;
    assert_eq!((s, r["status"].as_str()), (StatusCode::OK, Some("offered")));
    let notice = ws.next().await;
    assert_eq!(notice, json!({"type": "rematch", "offer": "white"}));
    let (s, r) = b.post(&format!("/api/games/{id}/rematch"), json!({})).await;
    assert_eq!(
        (s, r["status"].as_str()),
        (StatusCode::OK, Some("started")),
        "{r}"
    );
    let new_id = r["game"].as_str().unwrap().to_owned();
    assert_eq!(ws.next().await, json!({"type": "rematch", "game": new_id}));
    let (_, view) = a.get(&format!("/api/games/{new_id}")).await;
    assert_eq!(view["status"], "playing", "the rematch has started");
    assert_eq!(
        view["players"]["black"]["name"],
        na.as_str(),
        "colours swapped"
    );
    assert_eq!(view["rated"], true);
    // Ben has White now and moves with his cookie.
    b.mv(&new_id, "e4").await;
    // Asking again names the same game.
    let (_, again) = a.post(&format!("/api/games/{id}/rematch"), json!({})).await;
    assert_eq!(again["game"], new_id.as_str());
    // Anonymous players keep their seat tokens in the rematch.
    let (gid, w, bl) = t.game(json!({"time_control": "5+3"})).await;
    t.post(&format!("/api/games/{gid}/resign"), Some(&w), json!({}))
        .await;
    let (s, r) = t
        .post(&format!("/api/games/{gid}/rematch"), Some(&bl), json!({}))
        .await;
    assert_eq!((s, r["status"].as_str()), (StatusCode::OK, Some("offered")));
    let (s, r) = t
        .post(&format!("/api/games/{gid}/rematch"), Some(&w), json!({}))
        .await;
    assert_eq!((s, r["status"].as_str()), (StatusCode::OK, Some("started")));
    let next = r["game"].as_str().unwrap();
    let ack = t.play(next, [&bl, &w], &["d4", "d5"]).await;
    assert_eq!(ack["game"]["moves"].as_array().unwrap().len(), 2);
}

async fn a_waiting_game_can_be_withdrawn_by_its_creator(db: Db) {
    let Some(t) = T::new(db).await else { return };
    let (s, created) = t
        .post("/api/games", None, json!({"time_control": "5+3"}))
        .await;
    assert_eq!(s, StatusCode::CREATED);
    let id = created["id"].as_str().unwrap();
    let token = created["token"].as_str().unwrap();
    let resp = reqwest::Client::new()
        .delete(t.url(&format!("/api/games/{id}")))
        .bearer_auth("not-the-token")
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::UNAUTHORIZED);
    let resp = reqwest::Client::new()
        .delete(t.url(&format!("/api/games/{id}")))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::NO_CONTENT);
    assert_eq!(t.state(id).await["status"], "withdrawn");
    let (s, e) = t
        .post(&format!("/api/games/{id}/join"), None, json!({}))
        .await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::CONFLICT, Some("withdrawn"))
    );
    let (_, lobby) = t.get("/api/games").await;
    assert!(!lobby.to_string().contains(id), "not listed: {lobby}");
    // A started game cannot be withdrawn.
    let (gid, w, _) = t.game(json!({"time_control": "5+3"})).await;
    let resp = reqwest::Client::new()
        .delete(t.url(&format!("/api/games/{gid}")))
        .bearer_auth(&w)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::CONFLICT);
}

both_backends!(
    accounts_sign_up_log_in_log_out_and_close,
    rated_game_to_mate_changes_both_ratings_and_the_pgn,
    rated_games_need_accounts_a_clock_and_a_person,
    a_cookie_of_player_a_cannot_act_in_player_bs_game,
    a_cross_site_post_without_a_matching_origin_is_refused,
    logins_are_rate_limited_per_account_with_retry_after,
    kill_9_after_the_final_move_of_a_rated_game_rates_it_exactly_once,
    rematch_swaps_colours_and_takes_both_players_there,
    a_waiting_game_can_be_withdrawn_by_its_creator,
);

/// Sign-ups are limited per client address; behind a proxy the operator trusts, the client is
/// the address the proxy forwarded for, not the proxy (SQLite: the limit lives in memory).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_ups_are_limited_per_client_address_behind_a_trusted_proxy() {
    let dir = tempfile::tempdir().unwrap();
    let config = arbiter_server::Config {
        addr: "127.0.0.1:0".parse().unwrap(),
        db: dir.path().join("a.db").to_str().unwrap().to_owned(),
        sign_ups_per_address: Some(arbiter_server::accounts::limits::RateLimit {
            burst: 2,
            every: std::time::Duration::from_secs(600),
        }),
        trusted_proxies: vec!["127.0.0.1".parse().unwrap()],
        ..arbiter_server::Config::default()
    };
    let server = arbiter_server::start(config).await.unwrap();
    let http = reqwest::Client::new();
    let sign_up = |client: &'static str| {
        let http = http.clone();
        let url = format!("http://{}/api/account", server.addr());
        async move {
            http.post(url)
                .header("x-forwarded-for", client)
                .json(&json!({"username": name("su"), "password": "correct horse"}))
                .send()
                .await
                .unwrap()
        }
    };
    for _ in 0..2 {
        assert_eq!(sign_up("198.51.100.1").await.status(), StatusCode::CREATED);
    }
    let refused = sign_up("198.51.100.1").await;
    assert_eq!(refused.status(), StatusCode::TOO_MANY_REQUESTS);
    let wait: u64 = refused.headers()[RETRY_AFTER]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=600).contains(&wait), "{wait}");
    let body: Value = refused.json().await.unwrap();
    assert_eq!(body["error"], "too_many_attempts");
    // Another client through the same proxy is not affected; a forged entry left of the
    // proxy's does not move the limit either.
    assert_eq!(sign_up("198.51.100.2").await.status(), StatusCode::CREATED);
    assert_eq!(
        sign_up("203.0.113.5, 198.51.100.1").await.status(),
        StatusCode::TOO_MANY_REQUESTS
    );
    server.shutdown().await;
}
