//! The accounts side of lichess's API: tokens' scopes and `POST /api/token/test`, account
//! management only by the browser session, lichess's user JSON (`GET /api/account`,
//! `/api/user/{name}`, `/api/users/status`), bot accounts (the upgrade, the title everywhere,
//! no lobby) and the bots online.

mod common;

use common::{Browser, Db, T};
use reqwest::header::CONTENT_TYPE;
use reqwest::StatusCode;
use serde_json::{json, Value};

/// Make a token with `scopes` (`None`: the field left out) in `b`'s session.
async fn token(b: &mut Browser, scopes: Option<&[&str]>) -> Value {
    let mut body = json!({"description": "lichess client"});
    if let Some(s) = scopes {
        body["scopes"] = json!(s);
    }
    let (s, tok) = b.post("/api/account/tokens", body).await;
    assert_eq!(s, StatusCode::CREATED, "{tok}");
    tok
}

async fn secret(b: &mut Browser, scopes: &[&str]) -> String {
    token(b, Some(scopes)).await["token"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// A request with a bearer token (as a program sends it: no cookie, no `Origin`).
async fn bearer(
    t: &T,
    method: reqwest::Method,
    path: &str,
    token: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let mut req = t.http.request(method, t.url(path)).bearer_auth(token);
    if let Some(b) = body {
        req = req.json(&b);
    }
    let resp = req.send().await.unwrap();
    let status = resp.status();
    (status, resp.json().await.unwrap_or(Value::Null))
}

async fn get_with(t: &T, path: &str, token: &str) -> (StatusCode, Value) {
    bearer(t, reqwest::Method::GET, path, token, None).await
}

async fn post_with(t: &T, path: &str, token: &str, body: Value) -> (StatusCode, Value) {
    bearer(t, reqwest::Method::POST, path, token, Some(body)).await
}

/// `POST /api/token/test` with `body` sent raw, as lichess-bot sends it (`data=token`).
async fn token_test(t: &T, body: &str, content_type: Option<&str>) -> Value {
    let mut req = t.http.post(t.url("/api/token/test")).body(body.to_owned());
    if let Some(ct) = content_type {
        req = req.header(CONTENT_TYPE, ct);
    }
    let resp = req.send().await.unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    resp.json().await.unwrap()
}

/// A game between two accounts through the native API: `a` creates it as White, `b` joins.
async fn native_game(a: &mut Browser, b: &mut Browser) -> String {
    let (s, created) = a
        .post(
            "/api/games",
            json!({"time_control": "5+3", "color": "white"}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap().to_owned();
    let (s, joined) = b.post(&format!("/api/games/{id}/join"), json!({})).await;
    assert_eq!(s, StatusCode::OK, "{joined}");
    id
}

async fn token_test_answers_the_user_and_scopes_of_a_good_token_and_null_for_a_bad_one(db: Db) {
    let Some(t) = T::new(db).await else { return };
    let mut a = Browser::new(&t);
    let name = a.sign_up("Tok").await;
    let tok = token(&mut a, Some(&["bot:play", "board:play"])).await;
    let good = tok["token"].as_str().unwrap();
    // The bare token, no content type (lichess-bot's `data=token`).
    let one = token_test(&t, good, None).await;
    assert_eq!(
        one[good],
        json!({"scopes": "board:play,bot:play", "userId": name.to_lowercase(), "expires": null}),
        "{one}"
    );
    // Several, with a form content type (berserk's `data=`), unknown ones null.
    let both = token_test(
        &t,
        &format!("{good},arb_nonsense,lip_x"),
        Some("application/x-www-form-urlencoded"),
    )
    .await;
    assert_eq!(both[good]["userId"], name.to_lowercase().as_str());
    assert_eq!(both["arb_nonsense"], Value::Null);
    assert_eq!(both["lip_x"], Value::Null);
    assert_eq!(both.as_object().unwrap().len(), 3, "{both}");
    // Revoked: null.
    let (s, _) = a
        .delete(&format!(
            "/api/account/tokens/{}",
            tok["id"].as_str().unwrap()
        ))
        .await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    assert_eq!(token_test(&t, good, None).await[good], Value::Null);
}

async fn tokens_record_their_scopes_and_an_unknown_scope_is_refused(db: Db) {
    let Some(t) = T::new(db).await else { return };
    let mut a = Browser::new(&t);
    a.sign_up("Scp").await;
    let tok = token(
        &mut a,
        Some(&["challenge:write", "board:play", "board:play"]),
    )
    .await;
    // Deduplicated, in lichess's order.
    assert_eq!(tok["scopes"], json!(["challenge:write", "board:play"]));
    let none = token(&mut a, Some(&[])).await;
    assert_eq!(none["scopes"], json!([]));
    // Left out: the play scopes (the web page makes its tokens so, and they play).
    let default = token(&mut a, None).await;
    let scopes: Vec<&str> = default["scopes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    for s in [
        "board:play",
        "bot:play",
        "challenge:read",
        "challenge:write",
    ] {
        assert!(scopes.contains(&s), "{s} in {scopes:?}");
    }
    let (s, e) = a
        .post(
            "/api/account/tokens",
            json!({"description": "x", "scopes": ["board:play", "root:all"]}),
        )
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{e}");
    assert_eq!(e["error"], "unknown_scope");
    // The list shows each token's scopes.
    let (s, list) = a.get("/api/account/tokens").await;
    assert_eq!(s, StatusCode::OK);
    let list = list.as_array().unwrap();
    assert_eq!(list.len(), 3, "the refused token was not made: {list:?}");
    let scoped = list.iter().find(|x| x["id"] == tok["id"]).unwrap();
    assert_eq!(scoped["scopes"], json!(["challenge:write", "board:play"]));
}

async fn a_request_beyond_its_tokens_scopes_is_refused_403_missing_scope(db: Db) {
    let Some(t) = T::new(db).await else { return };
    let mut a = Browser::new(&t);
    a.sign_up("Bey").await;
    let board = secret(&mut a, &["board:play"]).await;
    let (s, e) = post_with(&t, "/api/bot/account/upgrade", &board, json!({})).await;
    assert_eq!(s, StatusCode::FORBIDDEN, "{e}");
    assert_eq!(e["error"], "Missing scope: bot:play");
    assert_eq!(e["code"], "missing_scope");
    // Nothing changed.
    let (_, me) = a.get("/api/account").await;
    assert!(me.get("title").is_none(), "{me}");
    // A token without scopes still reads its account (lichess: any token).
    let bare = secret(&mut a, &[]).await;
    assert_eq!(get_with(&t, "/api/account", &bare).await.0, StatusCode::OK);
}

async fn a_token_cannot_manage_the_account_but_the_session_can(db: Db) {
    let Some(t) = T::new(db).await else { return };
    let mut a = Browser::new(&t);
    a.sign_up("Mgr").await;
    let tok = token(
        &mut a,
        Some(&["board:play", "bot:play", "preference:write", "web:mod"]),
    )
    .await;
    let secret = tok["token"].as_str().unwrap().to_owned();
    let id = tok["id"].as_str().unwrap().to_owned();
    let refused = [
        (
            reqwest::Method::POST,
            "/api/account/tokens".to_owned(),
            Some(json!({"description": "more", "scopes": ["bot:play"]})),
        ),
        (reqwest::Method::GET, "/api/account/tokens".to_owned(), None),
        (
            reqwest::Method::DELETE,
            format!("/api/account/tokens/{id}"),
            None,
        ),
        (
            reqwest::Method::POST,
            "/api/account/password".to_owned(),
            Some(json!({"current": "correct horse", "new": "battery staple"})),
        ),
        (
            reqwest::Method::POST,
            "/api/account/close".to_owned(),
            Some(json!({"password": "correct horse"})),
        ),
        (reqwest::Method::DELETE, "/api/sessions".to_owned(), None),
    ];
    for (method, path, body) in refused {
        let (s, e) = bearer(&t, method.clone(), &path, &secret, body).await;
        assert_eq!(s, StatusCode::FORBIDDEN, "{method} {path}: {e}");
        assert_eq!(e["error"], "session_required", "{method} {path}: {e}");
    }
    // Nothing happened: the token lives, the session lives, one token only.
    assert_eq!(
        get_with(&t, "/api/account", &secret).await.0,
        StatusCode::OK
    );
    let (s, list) = a.get("/api/account/tokens").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(list.as_array().unwrap().len(), 1, "{list}");
    // The session can.
    let (s, _) = a
        .post(
            "/api/account/password",
            json!({"current": "correct horse", "new": "battery staple"}),
        )
        .await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    token(&mut a, Some(&["board:play"])).await;
    let (s, _) = a.delete(&format!("/api/account/tokens/{id}")).await;
    assert_eq!(s, StatusCode::NO_CONTENT);
}

async fn the_account_json_has_lichess_fields_beside_the_native_ones(db: Db) {
    let Some(t) = T::new(db).await else { return };
    let mut a = Browser::new(&t);
    let name = a.sign_up("Acc").await;
    let secret = secret(&mut a, &["board:play"]).await;
    let (s, me) = get_with(&t, "/api/account", &secret).await;
    assert_eq!(s, StatusCode::OK, "{me}");
    // The native fields, unchanged (the web page reads them).
    assert_eq!(me["username"], name.as_str());
    assert!(me["created_at"].as_i64().unwrap() > 0);
    assert_eq!(me["ratings"]["standard"]["rating"], 1500);
    // lichess's.
    assert_eq!(me["id"], name.to_lowercase().as_str());
    assert_eq!(me["createdAt"], me["created_at"]);
    assert!(me["seenAt"].as_i64().unwrap() >= me["createdAt"].as_i64().unwrap());
    assert!(me.get("title").is_none(), "no title: {me}");
    assert!(
        me["url"].as_str().unwrap().ends_with(&format!("/@/{name}")),
        "{me}"
    );
    for perf in [
        "bullet",
        "blitz",
        "rapid",
        "classical",
        "correspondence",
        "chess960",
    ] {
        let p = &me["perfs"][perf];
        assert_eq!(p["rating"], 1500, "{perf}: {me}");
        assert_eq!(p["games"], 0);
        assert_eq!(p["prov"], true);
        assert!(p["rd"].as_i64().is_some() && p["prog"].as_i64().is_some());
    }
    assert!(me["perfs"].get("standard").is_none(), "{me}");
    assert_eq!(
        me["count"],
        json!({"all": 0, "rated": 0, "win": 0, "loss": 0, "draw": 0, "playing": 0})
    );
}

async fn user_and_status_show_public_users_online_and_playing(db: Db) {
    let Some(t) = T::new(db).await else { return };
    let (mut a, mut b, mut c) = (Browser::new(&t), Browser::new(&t), Browser::new(&t));
    let (na, nb, nc) = (
        a.sign_up("Usa").await,
        b.sign_up("Usb").await,
        c.sign_up("Usc").await,
    );
    // Any case names the user.
    let (s, u) = t.get(&format!("/api/user/{}", na.to_uppercase())).await;
    assert_eq!(s, StatusCode::OK, "{u}");
    assert_eq!(u["id"], na.to_lowercase().as_str());
    assert_eq!(u["username"], na.as_str());
    assert_eq!(u["perfs"]["blitz"]["rating"], 1500);
    assert!(u["createdAt"].as_i64().unwrap() > 0 && u["seenAt"].as_i64().is_some());
    assert!(u.get("playing").is_none(), "{u}");
    let (s, e) = t.get("/api/user/nobody_here_at_all").await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    assert_eq!(e["error"], "Not found");
    // A game between a and b: both playing; c not.
    let id = native_game(&mut a, &mut b).await;
    let (_, u) = t.get(&format!("/api/user/{na}")).await;
    assert!(u["playing"].as_str().unwrap().ends_with(&id), "{u}");
    assert_eq!(u["count"]["playing"], 1);
    let (s, status) = t
        .get(&format!(
            "/api/users/status?ids={},{},unknown_one,{}&withGameIds=true",
            na.to_lowercase(),
            nb,
            nc
        ))
        .await;
    assert_eq!(s, StatusCode::OK, "{status}");
    let status = status.as_array().unwrap();
    assert_eq!(status.len(), 3, "unknown ids are left out: {status:?}");
    assert_eq!(status[0]["id"], na.to_lowercase().as_str());
    assert_eq!(status[0]["name"], na.as_str());
    assert_eq!(status[0]["playing"], true);
    assert_eq!(status[0]["playingId"], id.as_str());
    assert_eq!(status[1]["playing"], true);
    assert_eq!(status[2]["name"], nc.as_str());
    // Flags only when true, as lichess writes them; nobody has an event stream open.
    assert!(status[2].get("playing").is_none(), "{:?}", status[2]);
    assert!(status.iter().all(|u| u.get("online").is_none()));
    assert!(status.iter().all(|u| u.get("title").is_none()));
}

async fn the_upgrade_is_refused_after_a_game_and_makes_a_fresh_account_a_bot(db: Db) {
    let Some(t) = T::new(db).await else { return };
    let (mut a, mut b, mut bot) = (Browser::new(&t), Browser::new(&t), Browser::new(&t));
    let na = a.sign_up("Upa").await;
    b.sign_up("Upb").await;
    let name = bot.sign_up("Bot").await;
    native_game(&mut a, &mut b).await;
    let played = secret(&mut a, &["bot:play"]).await;
    let (s, e) = post_with(&t, "/api/bot/account/upgrade", &played, json!({})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{e}");
    assert!(e["error"].as_str().unwrap().contains("played"), "{e}");
    let (_, me) = a.get("/api/account").await;
    assert!(me.get("title").is_none(), "{me}");
    // A fresh account becomes a bot, for good.
    let token = secret(&mut bot, &["bot:play"]).await;
    let (s, ok) = post_with(&t, "/api/bot/account/upgrade", &token, json!({})).await;
    assert_eq!((s, ok), (StatusCode::OK, json!({"ok": true})));
    let (s, e) = post_with(&t, "/api/bot/account/upgrade", &token, json!({})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(e["error"].as_str().unwrap().contains("already"), "{e}");
    // BOT everywhere: the account (by token and by its session at once), the user, the
    // status, the native profile.
    assert_eq!(get_with(&t, "/api/account", &token).await.1["title"], "BOT");
    assert_eq!(bot.get("/api/account").await.1["title"], "BOT");
    assert_eq!(t.get(&format!("/api/user/{name}")).await.1["title"], "BOT");
    let (_, status) = t.get(&format!("/api/users/status?ids={name}")).await;
    assert_eq!(status[0]["title"], "BOT", "{status}");
    let (_, profile) = t.get(&format!("/api/users/{name}")).await;
    assert_eq!(profile["title"], "BOT", "{profile}");
    // Not the others.
    let (_, player) = t.get(&format!("/api/users/{na}")).await;
    assert_eq!(player["username"], na.as_str());
    assert!(player.get("title").is_none(), "{player}");
}

async fn a_bots_game_shows_its_title_in_the_players_and_the_pgn(db: Db) {
    let Some(t) = T::new(db).await else { return };
    let (mut human, mut bot) = (Browser::new(&t), Browser::new(&t));
    human.sign_up("Hum").await;
    let name = bot.sign_up("Tbot").await;
    let token = secret(&mut bot, &["bot:play"]).await;
    let (s, _) = post_with(&t, "/api/bot/account/upgrade", &token, json!({})).await;
    assert_eq!(s, StatusCode::OK);
    // The bot's game (made through the native API here; on lichess by a challenge).
    let (s, created) = post_with(
        &t,
        "/api/games",
        &token,
        json!({"time_control": "5+3", "color": "white"}),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap().to_owned();
    let (s, _) = human
        .post(&format!("/api/games/{id}/join"), json!({}))
        .await;
    assert_eq!(s, StatusCode::OK);
    let view = t.state(&id).await;
    assert_eq!(view["players"]["white"]["name"], name.as_str());
    assert_eq!(view["players"]["white"]["title"], "BOT", "{view}");
    assert!(view["players"]["black"].get("title").is_none(), "{view}");
    let pgn = t
        .http
        .get(t.url(&format!("/api/games/{id}/pgn")))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(pgn.contains("[WhiteTitle \"BOT\"]"), "{pgn}");
    assert!(!pgn.contains("BlackTitle"), "{pgn}");
}

async fn a_bot_cannot_seek_accept_a_seek_or_join_a_pool(db: Db) {
    let Some(t) = T::new(db).await else { return };
    let (mut human, mut bot) = (Browser::new(&t), Browser::new(&t));
    human.sign_up("Sek").await;
    bot.sign_up("Sbot").await;
    let token = secret(&mut bot, &["bot:play"]).await;
    let (s, _) = post_with(&t, "/api/bot/account/upgrade", &token, json!({})).await;
    assert_eq!(s, StatusCode::OK);
    let (s, e) = post_with(
        &t,
        "/api/seeks",
        &token,
        json!({"time_control": "3+2", "rated": false}),
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{e}");
    assert_eq!(e["error"], "bot_account");
    // In its browser too.
    let (s, e) = bot
        .post("/api/seeks", json!({"time_control": "3+2", "rated": false}))
        .await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::BAD_REQUEST, Some("bot_account"))
    );
    let (s, seek) = human
        .post("/api/seeks", json!({"time_control": "3+2", "rated": false}))
        .await;
    assert_eq!(s, StatusCode::CREATED, "{seek}");
    let seek_id = seek["id"].as_str().unwrap();
    let (s, e) = post_with(
        &t,
        &format!("/api/seeks/{seek_id}/accept"),
        &token,
        json!({}),
    )
    .await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::BAD_REQUEST, Some("bot_account"))
    );
    let (s, e) = post_with(&t, "/api/pools/3+2/join", &token, json!({})).await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::BAD_REQUEST, Some("bot_account"))
    );
    // The human's seek is still there for a human.
    let (_, lobby) = human.get("/api/lobby").await;
    assert!(lobby["seeks"].to_string().contains(seek_id), "{lobby}");
}

async fn bots_online_lists_the_bots_whose_event_stream_is_open(db: Db) {
    let Some(t) = T::new(db).await else { return };
    let (mut human, mut bot, mut idle) = (Browser::new(&t), Browser::new(&t), Browser::new(&t));
    human.sign_up("Onh").await;
    let name = bot.sign_up("Onbot").await;
    let idle_name = idle.sign_up("Idlebot").await;
    let human_token = secret(&mut human, &["board:play"]).await;
    let token = secret(&mut bot, &["bot:play"]).await;
    let idle_token = secret(&mut idle, &["bot:play"]).await;
    for tok in [&token, &idle_token] {
        let (s, _) = post_with(&t, "/api/bot/account/upgrade", tok, json!({})).await;
        assert_eq!(s, StatusCode::OK);
    }
    let online = |t: &T| {
        let req = t.http.get(t.url("/api/bot/online?nb=10"));
        async move {
            let resp = req.send().await.unwrap();
            assert_eq!(resp.status(), StatusCode::OK);
            assert_eq!(resp.headers()[CONTENT_TYPE], "application/x-ndjson");
            let text = resp.text().await.unwrap();
            text.lines()
                .filter(|l| !l.trim().is_empty())
                .map(|l| serde_json::from_str::<Value>(l).unwrap())
                .collect::<Vec<_>>()
        }
    };
    assert!(online(&t).await.is_empty());
    // The bot and the human open their event streams; the other bot does not.
    let mut streams = Vec::new();
    for tok in [&token, &human_token] {
        let resp = t
            .http
            .get(t.url("/api/stream/event"))
            .bearer_auth(tok)
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), StatusCode::OK);
        streams.push(resp);
    }
    let bots = online(&t).await;
    assert_eq!(bots.len(), 1, "{bots:?}");
    assert_eq!(bots[0]["username"], name.as_str());
    assert_eq!(bots[0]["title"], "BOT");
    assert_eq!(bots[0]["id"], name.to_lowercase().as_str());
    let (_, status) = t
        .get(&format!("/api/users/status?ids={name},{idle_name}"))
        .await;
    assert_eq!(status[0]["online"], true, "{status}");
    assert!(status[1].get("online").is_none(), "{status}");
    drop(streams);
}

both_backends!(
    token_test_answers_the_user_and_scopes_of_a_good_token_and_null_for_a_bad_one,
    tokens_record_their_scopes_and_an_unknown_scope_is_refused,
    a_request_beyond_its_tokens_scopes_is_refused_403_missing_scope,
    a_token_cannot_manage_the_account_but_the_session_can,
    the_account_json_has_lichess_fields_beside_the_native_ones,
    user_and_status_show_public_users_online_and_playing,
    the_upgrade_is_refused_after_a_game_and_makes_a_fresh_account_a_bot,
    a_bots_game_shows_its_title_in_the_players_and_the_pgn,
    a_bot_cannot_seek_accept_a_seek_or_join_a_pool,
    bots_online_lists_the_bots_whose_event_stream_is_open,
);
