//! Whole games over HTTP and WebSocket against a server on an ephemeral port, with a
//! temporary SQLite database — and the same tests against PostgreSQL when
//! `ARBITER_TEST_POSTGRES_URL` is set (otherwise those are skipped with a message).

mod common;

use common::{Child, Db, T};
use reqwest::StatusCode;
use serde_json::{json, Value};

async fn art_5_1_1_checkmate_ends_the_game(db: Db) {
    let Some(t) = T::new(db).await else { return };
    let (id, w, b) = t.game(json!({"time_control": "5+3"})).await;
    let ack = t.play(&id, [&w, &b], &["f3", "e7e5", "g4", "Qh4#"]).await;
    assert_eq!(ack["game"]["status"], "finished");
    assert_eq!(ack["game"]["result"], "0-1");
    assert_eq!(ack["game"]["termination"], "checkmate");
    let s = t.state(&id).await;
    let sans: Vec<&str> = s["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["san"].as_str().unwrap())
        .collect();
    assert_eq!(sans, ["f3", "e5", "g4", "Qh4#"]);
    assert_eq!(s["moves"][3]["uci"], "d8h4");
    // Both clocks stay near 5 minutes (+3 s increments).
    assert!(s["moves"][0]["clock_ms"].as_i64().unwrap() > 300_000);
    // Acting on a finished game is refused and changes nothing.
    let (st, e) = t
        .post(
            &format!("/api/games/{id}/move"),
            Some(&w),
            json!({"move": "e4"}),
        )
        .await;
    assert_eq!(st, StatusCode::CONFLICT);
    assert_eq!(e["error"], "game_over");
    assert_eq!(t.state(&id).await["moves"].as_array().unwrap().len(), 4);
    let pgn = t
        .http
        .get(t.url(&format!("/api/games/{id}/pgn")))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(pgn.contains("[Result \"0-1\"]"), "{pgn}");
    assert!(pgn.contains("2. g4") && pgn.contains("Qh4#"), "{pgn}");
    assert!(pgn.contains("[%clk 0:05:0"), "{pgn}");
    assert!(pgn.contains("[TimeControl \"300+3\"]"), "{pgn}");
}

async fn art_5_1_2_resignation_ends_the_game(db: Db) {
    let Some(t) = T::new(db).await else { return };
    let (id, w, b) = t.game(json!({"time_control": "5+3"})).await;
    t.play(&id, [&w, &b], &["e4"]).await;
    let (s, ack) = t
        .post(&format!("/api/games/{id}/resign"), Some(&w), json!({}))
        .await;
    assert_eq!(s, StatusCode::OK, "{ack}");
    assert_eq!(ack["game"]["result"], "0-1");
    assert_eq!(ack["game"]["termination"], "resignation");
}

async fn art_9_1_draw_by_agreement(db: Db) {
    let Some(t) = T::new(db).await else { return };
    let (id, w, b) = t.game(json!({"time_control": "5+3"})).await;
    t.play(&id, [&w, &b], &["e4", "e5"]).await;
    let (s, ack) = t
        .post(
            &format!("/api/games/{id}/move"),
            Some(&w),
            json!({"move": "Nf3", "offer_draw": true}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{ack}");
    assert_eq!(ack["game"]["draw_offer"], "white");
    // The offerer cannot accept their own offer.
    let (s, e) = t
        .post(
            &format!("/api/games/{id}/draw"),
            Some(&w),
            json!({"action": "accept"}),
        )
        .await;
    assert_eq!(s, StatusCode::CONFLICT, "{e}");
    let (s, ack) = t
        .post(
            &format!("/api/games/{id}/draw"),
            Some(&b),
            json!({"action": "accept"}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{ack}");
    assert_eq!(ack["game"]["result"], "1/2-1/2");
    assert_eq!(ack["game"]["termination"], "agreement");
}

async fn art_9_2_threefold_claim_draws(db: Db) {
    let Some(t) = T::new(db).await else { return };
    let (id, w, b) = t.game(json!({"time_control": "5+3"})).await;
    let ack = t
        .play(
            &id,
            [&w, &b],
            &["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"],
        )
        .await;
    assert_eq!(ack["game"]["claimable"], json!(["threefold_repetition"]));
    // Black (not to move) cannot claim.
    let (s, e) = t
        .post(
            &format!("/api/games/{id}/draw"),
            Some(&b),
            json!({"action": "claim"}),
        )
        .await;
    assert_eq!(s, StatusCode::CONFLICT, "{e}");
    assert_eq!(e["error"], "not_your_turn");
    let (s, ack) = t
        .post(
            &format!("/api/games/{id}/draw"),
            Some(&w),
            json!({"action": "claim"}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{ack}");
    assert_eq!(ack["game"]["result"], "1/2-1/2");
    assert_eq!(ack["game"]["termination"], "threefold_repetition");
}

async fn art_6_9_flag_falls_without_a_move(db: Db) {
    let Some(t) = T::new(db).await else { return };
    let (id, w, _b) = t.game(json!({"time_control": "1s+0"})).await;
    let mut ws = t.ws(&id, "").await;
    assert_eq!(ws.next().await["type"], "state");
    t.post(
        &format!("/api/games/{id}/move"),
        Some(&w),
        json!({"move": "e4"}),
    )
    .await;
    // Black never moves: the server's own timer ends the game.
    let flag = ws.until_kind("flag").await;
    assert_eq!(flag["result"], "1-0");
    assert_eq!(flag["termination"], "timeout");
    assert_eq!(flag["clocks"]["black_ms"], 0);
    let s = t.state(&id).await;
    assert_eq!(s["status"], "finished");
    assert_eq!(s["result"], "1-0");
}

async fn art_6_9_flag_against_a_lone_king_is_a_draw(db: Db) {
    let Some(t) = T::new(db).await else { return };
    // Black has a lone king: White's flag falls, but Black cannot checkmate.
    let (id, _w, _b) = t
        .game(json!({"time_control": "1s+0", "fen": "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"}))
        .await;
    let mut ws = t.ws(&id, "?since=0").await;
    let flag = ws.until_kind("flag").await;
    assert_eq!(flag["result"], "1/2-1/2");
    assert_eq!(flag["termination"], "timeout_vs_insufficient_material");
}

async fn art_6_9_flag_where_only_the_search_proves_no_mate_is_a_draw(db: Db) {
    let Some(t) = T::new(db).await else { return };
    // Black's only legal move takes the queen and leaves White a bare king: White cannot
    // checkmate, which the material and reachability tests cannot see; the ruling's search
    // proves it (run off the async workers).
    let (id, _w, _b) = t
        .game(json!({"time_control": "1s+0", "fen": "7K/8/8/8/8/8/1Q6/k7 b - - 0 1"}))
        .await;
    let mut ws = t.ws(&id, "?since=0").await;
    let flag = ws.until_kind("flag").await;
    assert_eq!(flag["result"], "1/2-1/2", "{flag}");
    assert_eq!(flag["clocks"]["black_ms"], 0);
    let s = t.state(&id).await;
    assert_eq!(s["result"], "1/2-1/2");
}

async fn websocket_reconnect_replays_missed_events(db: Db) {
    let Some(t) = T::new(db).await else { return };
    let (id, w, b) = t.game(json!({"time_control": "5+3"})).await;
    let mut ws = t.ws(&id, "").await;
    let state = ws.next().await;
    assert_eq!(state["type"], "state");
    let seen = state["game"]["last_seq"].as_i64().unwrap();
    assert_eq!(seen, 1, "the start event");
    drop(ws);
    t.play(&id, [&w, &b], &["e4", "c5", "Nf3"]).await;
    let mut ws = t.ws(&id, &format!("?since={seen}")).await;
    let mut got = Vec::new();
    for _ in 0..3 {
        let ev = ws.next().await;
        got.push((
            ev["seq"].as_i64().unwrap(),
            ev["move"]["san"].as_str().unwrap().to_owned(),
        ));
    }
    assert_eq!(
        got,
        [
            (2, "e4".to_owned()),
            (3, "c5".to_owned()),
            (4, "Nf3".to_owned())
        ]
    );
    // Then live events continue the numbering, for spectators too.
    t.play(&id, [&b, &w], &["d6"]).await;
    let ev = ws.next().await;
    assert_eq!(
        (ev["seq"].as_i64(), ev["move"]["uci"].as_str()),
        (Some(5), Some("d7d6"))
    );
}

async fn websocket_moves_are_acknowledged_after_commit(db: Db) {
    let Some(t) = T::new(db).await else { return };
    let (id, w, b) = t.game(json!({"time_control": "5+3"})).await;
    let mut white = t.ws(&id, &format!("?since=1&token={w}")).await;
    let mut black = t.ws(&id, "?since=1").await;
    black.send(json!({"type": "auth", "token": b})).await;
    white
        .send(json!({"type": "move", "move": "e4", "id": 7}))
        .await;
    let mut ack = None;
    let mut event = None;
    while ack.is_none() || event.is_none() {
        let v = white.next().await;
        match v["type"].as_str() {
            Some("ack") => ack = Some(v),
            Some("event") => event = Some(v),
            _ => {}
        }
    }
    assert_eq!(ack.unwrap(), json!({"type": "ack", "id": 7, "seq": 2}));
    assert_eq!(event.unwrap()["move"]["san"], "e4");
    // Out of turn over WebSocket: an error, nothing changes.
    white
        .send(json!({"type": "move", "move": "d4", "id": 8}))
        .await;
    let e = loop {
        let v = white.next().await;
        if v["type"] == "error" {
            break v;
        }
    };
    assert_eq!(
        (e["id"].as_i64(), e["error"].as_str()),
        (Some(8), Some("not_your_turn"))
    );
    black
        .send(json!({"type": "move", "move": "e7e5", "ply": 1}))
        .await;
    let ev = loop {
        let ev = black.until_kind("move").await;
        if ev["move"]["uci"] == "e7e5" {
            break ev;
        }
    };
    assert_eq!(ev["seq"], 3);
    let s = t.state(&id).await;
    assert_eq!(s["moves"].as_array().unwrap().len(), 2);
    // Exactly once in the database.
    let rows = t
        .server
        .as_ref()
        .unwrap()
        .hub()
        .store()
        .events(&id, 0)
        .await
        .unwrap();
    let seqs: Vec<i64> = rows.iter().map(|r| r.seq).collect();
    assert_eq!(seqs, [1, 2, 3]);
}

async fn restart_mid_game_restores_moves_and_clocks(db: Db) {
    let Some(mut t) = T::new(db).await else {
        return;
    };
    let (id, w, b) = t.game(json!({"time_control": "5+0"})).await;
    t.play(&id, [&w, &b], &["d4", "d5"]).await;
    let before = t.state(&id).await;
    t.restart().await;
    let after = t.state(&id).await;
    assert_eq!(after["status"], "playing");
    assert_eq!(after["moves"], before["moves"]);
    assert_eq!(after["fen"], before["fen"]);
    // Black's clock is stopped and must be exactly as stored. White's (running) resumes from
    // its reading at the last acknowledged event: downtime is not counted.
    assert_eq!(after["clocks"]["black_ms"], before["clocks"]["black_ms"]);
    let at_last_event = before["moves"][0]["clock_ms"].as_i64().unwrap();
    let wa = after["clocks"]["white_ms"].as_i64().unwrap();
    assert!(
        wa <= at_last_event && wa > at_last_event - 2_000,
        "white {at_last_event} → {wa}"
    );
    // The same tokens still hold their seats, and the game continues.
    let ack = t.play(&id, [&w, &b], &["c4"]).await;
    assert_eq!(ack["game"]["moves"].as_array().unwrap().len(), 3);
    assert_eq!(ack["seq"], 4);
}

async fn bad_input_is_a_4xx_and_changes_nothing(db: Db) {
    let Some(t) = T::new(db).await else { return };
    let (id, w, b) = t
        .game(json!({"time_control": "5+3", "fen": "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1"}))
        .await;
    let mv = format!("/api/games/{id}/move");
    let check = |s: StatusCode, v: &Value, status: StatusCode, code: &str| {
        assert_eq!(s, status, "{v}");
        assert_eq!(v["error"], code, "{v}");
        assert!(v["message"].as_str().is_some_and(|m| !m.is_empty()), "{v}");
    };
    // Malformed JSON.
    let resp = t
        .http
        .post(t.url(&mv))
        .bearer_auth(&w)
        .header("content-type", "application/json")
        .body("{\"move\": ")
        .send()
        .await
        .unwrap();
    let s = resp.status();
    check(
        s,
        &resp.json().await.unwrap(),
        StatusCode::BAD_REQUEST,
        "malformed_json",
    );
    // Wrong field types.
    let (s, v) = t.post(&mv, Some(&w), json!({"move": 5})).await;
    check(s, &v, StatusCode::BAD_REQUEST, "invalid_request");
    // Unknown game.
    let (s, v) = t
        .post(
            "/api/games/nosuchgame/move",
            Some(&w),
            json!({"move": "e4"}),
        )
        .await;
    check(s, &v, StatusCode::NOT_FOUND, "not_found");
    let (s, v) = t.get("/api/games/nosuchgame").await;
    check(s, &v, StatusCode::NOT_FOUND, "not_found");
    // No token, wrong token, the other seat's token.
    let (s, v) = t.post(&mv, None, json!({"move": "Nc3"})).await;
    check(s, &v, StatusCode::UNAUTHORIZED, "unauthorized");
    let (s, v) = t.post(&mv, Some("0123"), json!({"move": "Nc3"})).await;
    check(s, &v, StatusCode::UNAUTHORIZED, "unauthorized");
    let (s, v) = t.post(&mv, Some(&b), json!({"move": "Kd7"})).await;
    check(s, &v, StatusCode::CONFLICT, "not_your_turn");
    // Illegal, ambiguous, unreadable moves.
    let (s, v) = t.post(&mv, Some(&w), json!({"move": "Zz9"})).await;
    check(s, &v, StatusCode::BAD_REQUEST, "bad_move_notation");
    let (s, v) = t.post(&mv, Some(&w), json!({"move": "Nd4"})).await;
    check(s, &v, StatusCode::UNPROCESSABLE_ENTITY, "illegal_move");
    let (s, v) = t.post(&mv, Some(&w), json!({"move": "e1e3"})).await;
    check(s, &v, StatusCode::UNPROCESSABLE_ENTITY, "illegal_move");
    let (s, v) = t.post(&mv, Some(&w), json!({"move": "Nd2"})).await;
    check(s, &v, StatusCode::UNPROCESSABLE_ENTITY, "ambiguous_move");
    // Stale ply.
    let (s, v) = t
        .post(&mv, Some(&w), json!({"move": "Nbd2", "ply": 3}))
        .await;
    check(s, &v, StatusCode::CONFLICT, "stale_ply");
    // Oversized body. The server answers before reading the whole body and may close the
    // connection, so this request must not leave it in the client's pool for the next one
    // (that raced: the next request then failed with "incomplete message").
    let big = "x".repeat(64 * 1024);
    let resp = t
        .http
        .post(t.url(&mv))
        .bearer_auth(&w)
        .header("connection", "close")
        .json(&json!({"move": big}))
        .send()
        .await
        .unwrap();
    let s = resp.status();
    check(
        s,
        &resp.json().await.unwrap_or(Value::Null),
        StatusCode::PAYLOAD_TOO_LARGE,
        "payload_too_large",
    );
    // A third player.
    let (s, v) = t
        .post(&format!("/api/games/{id}/join"), None, json!({}))
        .await;
    check(s, &v, StatusCode::CONFLICT, "seats_taken");
    // Bad creations.
    let (s, v) = t
        .post(
            "/api/games",
            None,
            json!({"time_control": "5+3", "fen": "8/8/8/8/8/8/8/8 w - - 0 1"}),
        )
        .await;
    check(s, &v, StatusCode::BAD_REQUEST, "bad_fen");
    let (s, v) = t
        .post("/api/games", None, json!({"time_control": "soon"}))
        .await;
    check(s, &v, StatusCode::BAD_REQUEST, "bad_time_control");
    let (s, v) = t
        .post(
            "/api/games",
            None,
            json!({"time_control": "5+3", "colour": "white"}),
        )
        .await;
    check(s, &v, StatusCode::BAD_REQUEST, "invalid_request");
    // Nothing changed: no move was played, and the log holds only the start.
    let st = t.state(&id).await;
    assert_eq!(st["moves"], json!([]));
    assert_eq!(st["last_seq"], 1);
    assert_eq!(st["fen"], "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1");
    // The disambiguated move is fine.
    let ack = t.play(&id, [&w, &b], &["Nbd2"]).await;
    assert_eq!(ack["game"]["moves"][0]["uci"], "b1d2");
}

async fn openapi_lobby_and_pages_are_served(db: Db) {
    let Some(t) = T::new(db).await else { return };
    let (s, doc) = t.get("/api/openapi.json").await;
    assert_eq!(s, StatusCode::OK);
    assert!(
        doc["paths"]["/api/games/{id}/move"]["post"].is_object(),
        "{doc}"
    );
    let (s, created) = t
        .post(
            "/api/games",
            None,
            json!({"time_control": "10+0", "color": "black"}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED);
    let id = created["id"].as_str().unwrap();
    let (_, lobby) = t.get("/api/games").await;
    let open = lobby["open"].as_array().unwrap();
    let mine = open.iter().find(|g| g["id"] == id).expect("listed as open");
    assert_eq!(mine["open_seat"], "white");
    let page = t
        .http
        .get(t.url(&format!("/game/{id}")))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    assert!(page.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/html"));
    let (s, v) = t.get("/api/nothing").await;
    assert_eq!(
        (s, v["error"].as_str()),
        (StatusCode::NOT_FOUND, Some("not_found"))
    );
}

async fn kill_9_mid_game_loses_no_acknowledged_move(db: Db) {
    let Some(mut t) = T::new(db).await else {
        return;
    };
    // Only the database of `t` is used; its in-process server stays idle.
    let child = Child::start(&t.db);
    let in_process = std::mem::replace(&mut t.base, child.base.clone());
    let (id, w, b) = t.game(json!({"time_control": "10+5"})).await;
    t.play(&id, [&w, &b], &["e4", "e5", "Nf3"]).await;
    let before = t.state(&id).await;
    child.kill9();
    let child = Child::start(&t.db);
    t.base = child.base.clone();
    let after = t.state(&id).await;
    assert_eq!(after["status"], "playing");
    assert_eq!(after["moves"], before["moves"]);
    assert_eq!(after["clocks"]["white_ms"], before["clocks"]["white_ms"]);
    let ack = t.play(&id, [&b, &w], &["Nc6", "Bb5"]).await;
    assert_eq!(ack["seq"], 6);
    assert_eq!(ack["game"]["moves"].as_array().unwrap().len(), 5);
    child.kill9();
    t.base = in_process;
}

async fn guideline_i_adjourn_seals_a_hidden_move_and_resume_plays_it(db: Db) {
    let Some(t) = T::new(db).await else { return };
    let (id, w, b) = t.game(json!({"time_control": "90+30"})).await;
    t.play(&id, [&w, &b], &["e4", "c5"]).await;
    let mut spectator = t.ws(&id, "?since=3").await;
    // White, to move, seals Nf3 (Guideline I.1); the clocks stop.
    let (s, ack) = t
        .post(
            &format!("/api/games/{id}/adjourn"),
            Some(&w),
            json!({"move": "Nf3"}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{ack}");
    assert_eq!(ack["game"]["status"], "adjourned");
    let ev = spectator.until_kind("adjourn").await;
    assert!(
        !ev.to_string().contains("Nf3"),
        "the sealed move is secret: {ev}"
    );
    assert!(!t.state(&id).await.to_string().contains("Nf3"));
    // No move while adjourned.
    let (s, e) = t
        .post(
            &format!("/api/games/{id}/move"),
            Some(&w),
            json!({"move": "d4"}),
        )
        .await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::CONFLICT, Some("adjourned"))
    );
    // Resumption (I.9.1): the sealed move is played, Black's clock runs.
    let (s, ack) = t
        .post(&format!("/api/games/{id}/resume"), Some(&b), json!({}))
        .await;
    assert_eq!(s, StatusCode::OK, "{ack}");
    assert_eq!(ack["game"]["status"], "playing");
    assert_eq!(ack["game"]["moves"][2]["san"], "Nf3");
    assert_eq!(ack["game"]["turn"], "black");
}

both_backends!(
    art_5_1_1_checkmate_ends_the_game,
    art_5_1_2_resignation_ends_the_game,
    art_9_1_draw_by_agreement,
    art_9_2_threefold_claim_draws,
    art_6_9_flag_falls_without_a_move,
    art_6_9_flag_against_a_lone_king_is_a_draw,
    art_6_9_flag_where_only_the_search_proves_no_mate_is_a_draw,
    websocket_reconnect_replays_missed_events,
    websocket_moves_are_acknowledged_after_commit,
    restart_mid_game_restores_moves_and_clocks,
    bad_input_is_a_4xx_and_changes_nothing,
    openapi_lobby_and_pages_are_served,
    kill_9_mid_game_loses_no_acknowledged_move,
    guideline_i_adjourn_seals_a_hidden_move_and_resume_plays_it,
);
