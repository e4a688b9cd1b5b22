//! lichess's API over HTTP, as lichess's clients send it: lichess-bot's request sequence
//! replayed (read from its `lib/lichess.py`: raw token test body, form-encoded chat and
//! decline, `?offeringDraw=`), the statuses the Laws produce in lichess's names, and bad
//! input answered with lichess's error shape, changing nothing.

mod common;

use std::time::Duration;

use common::{Browser, Db, T};
use reqwest::StatusCode;
use serde_json::{json, Value};

/// A lichess client: a token on a server.
struct Client {
    base: String,
    http: reqwest::Client,
    token: String,
    name: String,
}

/// A line-by-line reader of an NDJSON stream.
struct Stream {
    resp: reqwest::Response,
    buf: Vec<u8>,
    /// Keep-alive lines seen.
    blank: usize,
}

impl Stream {
    /// The next JSON line within `secs` seconds; `None` when the stream ends.
    async fn next_within(&mut self, secs: u64) -> Option<Value> {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(secs);
        loop {
            if let Some(k) = self.buf.iter().position(|b| *b == b'\n') {
                let line: Vec<u8> = self.buf.drain(..=k).collect();
                let text = String::from_utf8(line).unwrap();
                if text.trim().is_empty() {
                    self.blank += 1;
                    continue;
                }
                return Some(serde_json::from_str(text.trim()).expect("a JSON line"));
            }
            let chunk = tokio::time::timeout_at(deadline, self.resp.chunk())
                .await
                .unwrap_or_else(|_| panic!("a line within {secs} s"))
                .expect("stream readable");
            match chunk {
                Some(c) => self.buf.extend_from_slice(&c),
                None => return None,
            }
        }
    }

    async fn next(&mut self) -> Value {
        self.next_within(10).await.expect("the stream goes on")
    }

    /// Lines until one of `kind` (its `type`).
    async fn until(&mut self, kind: &str) -> Value {
        loop {
            let v = self.next().await;
            if v["type"] == kind {
                return v;
            }
        }
    }
}

impl Client {
    /// Sign up in a browser session and make a token with `scopes`.
    async fn new(t: &T, prefix: &str, scopes: &[&str]) -> Client {
        let mut b = Browser::new(t);
        let name = b.sign_up(prefix).await;
        let (s, tok) = b
            .post(
                "/api/account/tokens",
                json!({"description": "lichess client", "scopes": scopes}),
            )
            .await;
        assert_eq!(s, StatusCode::CREATED, "{tok}");
        Client {
            base: t.base.clone(),
            http: reqwest::Client::new(),
            token: tok["token"].as_str().unwrap().to_owned(),
            name,
        }
    }

    fn req(&self, m: reqwest::Method, path: &str) -> reqwest::RequestBuilder {
        self.http
            .request(m, format!("{}{path}", self.base))
            .bearer_auth(&self.token)
    }

    async fn json(r: reqwest::RequestBuilder) -> (StatusCode, Value) {
        let resp = r.send().await.unwrap();
        let s = resp.status();
        (s, resp.json().await.unwrap_or(Value::Null))
    }

    async fn get(&self, path: &str) -> (StatusCode, Value) {
        Self::json(self.req(reqwest::Method::GET, path)).await
    }

    /// A form-encoded POST, as lichess-bot sends them.
    async fn form(&self, path: &str, body: &str) -> (StatusCode, Value) {
        Self::json(
            self.req(reqwest::Method::POST, path)
                .header("content-type", "application/x-www-form-urlencoded")
                .body(body.to_owned()),
        )
        .await
    }

    async fn post_json(&self, path: &str, body: Value) -> (StatusCode, Value) {
        Self::json(self.req(reqwest::Method::POST, path).json(&body)).await
    }

    async fn stream(&self, path: &str) -> Stream {
        let resp = self.req(reqwest::Method::GET, path).send().await.unwrap();
        assert_eq!(resp.status(), StatusCode::OK, "{path}");
        assert_eq!(
            resp.headers()["content-type"].to_str().unwrap(),
            "application/x-ndjson"
        );
        assert!(resp.headers().get("content-encoding").is_none());
        Stream {
            resp,
            buf: Vec::new(),
            blank: 0,
        }
    }
}

async fn lichess_bot_request_sequence_is_answered(db: Db) {
    let Some(t) = T::new(db).await else { return };
    let bot = Client::new(
        &t,
        "lbot",
        &["bot:play", "challenge:read", "challenge:write"],
    )
    .await;
    let human = Client::new(&t, "lhum", &["board:play", "challenge:write"]).await;
    // lichess-bot: `api_post("token_test", data=token)` — the bare token as the body.
    let resp = reqwest::Client::new()
        .post(format!("{}/api/token/test", t.base))
        .body(bot.token.clone())
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    let tt: Value = resp.json().await.unwrap();
    let scopes = tt[&bot.token]["scopes"].as_str().unwrap();
    assert!(scopes.split(',').any(|s| s == "bot:play"), "{tt}");
    assert_eq!(tt[&bot.token]["userId"], bot.name.to_lowercase());
    // Profile, upgrade, games in progress.
    let (s, me) = bot.get("/api/account").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(me["username"], bot.name.as_str());
    assert!(me["perfs"].is_object(), "{me}");
    let (s, _) = bot.form("/api/bot/account/upgrade", "").await;
    assert_eq!(s, StatusCode::OK);
    let (_, playing) = bot.get("/api/account/playing").await;
    assert_eq!(playing["nowPlaying"], json!([]));
    let mut events = bot.stream("/api/stream/event").await;
    // A person challenges the bot (JSON body, as berserk sends it).
    let (s, c) = human
        .post_json(
            &format!("/api/challenge/{}", bot.name),
            json!({"rated": false, "clock.limit": 300, "clock.increment": 3, "color": "black", "days": null}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{c}");
    let id = c["id"].as_str().unwrap().to_owned();
    assert_eq!(c["timeControl"]["show"], "5+3");
    let ev = events.until("challenge").await;
    assert_eq!(ev["challenge"]["id"], id.as_str());
    assert_eq!(ev["challenge"]["direction"], "in");
    let (s, ok) = bot.form(&format!("/api/challenge/{id}/accept"), "").await;
    assert_eq!((s, ok), (StatusCode::OK, json!({"ok": true})));
    let start = events.until("gameStart").await;
    assert_eq!(
        start["game"]["id"],
        id.as_str(),
        "the game's id is the challenge's"
    );
    assert_eq!(start["game"]["color"], "white");
    assert_eq!(start["game"]["isMyTurn"], true);
    let (_, playing) = bot.get("/api/account/playing").await;
    assert_eq!(playing["nowPlaying"][0]["gameId"], id.as_str());
    // The game stream: gameFull first.
    let mut game = bot.stream(&format!("/api/bot/game/stream/{id}")).await;
    let full = game.next().await;
    assert_eq!(full["type"], "gameFull");
    assert_eq!(full["white"]["title"], "BOT");
    assert_eq!(full["white"]["id"], bot.name.to_lowercase());
    assert_eq!(full["black"]["name"], human.name.as_str());
    assert_eq!(full["initialFen"], "startpos");
    assert_eq!(full["state"]["status"], "started");
    // White's clock runs from the start (Art. 6.6): a few ms may have gone.
    let wtime = full["state"]["wtime"].as_i64().unwrap();
    assert!((290_000..=300_000).contains(&wtime), "{wtime}");
    assert_eq!(full["clock"]["initial"], 300_000);
    // Greetings in both rooms, form-encoded as lichess-bot writes them.
    for room in ["player", "spectator"] {
        let (s, _) = bot
            .form(
                &format!("/api/bot/game/{id}/chat"),
                &format!("room={room}&text=Hi%21+I%27m+a+bot"),
            )
            .await;
        assert_eq!(s, StatusCode::OK);
    }
    let chat = game.until("chatLine").await;
    assert_eq!(chat["text"], "Hi! I'm a bot");
    let (s, _) = bot
        .form(
            &format!("/api/bot/game/{id}/move/e2e4?offeringDraw=false"),
            "",
        )
        .await;
    assert_eq!(s, StatusCode::OK);
    let (s, _) = human
        .form(&format!("/api/board/game/{id}/move/e7e5"), "")
        .await;
    assert_eq!(s, StatusCode::OK);
    loop {
        let st = game.until("gameState").await;
        if st["moves"] == "e2e4 e7e5" {
            assert!(st["wtime"].as_i64().unwrap() <= 303_000);
            break;
        }
    }
    // lichess-bot's look-ups.
    let (s, st) = bot
        .get(&format!("/api/users/status?ids={}", human.name))
        .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(st[0]["id"], human.name.to_lowercase());
    let (s, u) = bot.get(&format!("/api/user/{}", human.name)).await;
    assert_eq!(
        (s, u["username"].clone()),
        (StatusCode::OK, json!(human.name))
    );
    // The bot resigns (Art. 5.1.2): the last state, then the stream ends.
    let (s, _) = bot.form(&format!("/api/bot/game/{id}/resign"), "").await;
    assert_eq!(s, StatusCode::OK);
    let mut last = Value::Null;
    while let Some(v) = game.next_within(10).await {
        last = v;
    }
    assert_eq!(last["status"], "resign");
    assert_eq!(last["winner"], "black");
    assert_eq!(last["arbiter"]["article"], "5.1.2");
    let fin = events.until("gameFinish").await;
    assert_eq!(fin["game"]["id"], id.as_str());
    assert_eq!(fin["game"]["winner"], "black");
    // lichess-bot saves the PGN.
    let pgn = reqwest::get(format!("{}/game/export/{id}", t.base))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(pgn.contains("[WhiteTitle \"BOT\"]"), "{pgn}");
    assert!(pgn.contains("[Result \"0-1\"]"), "{pgn}");
}

async fn bad_input_gets_lichess_errors_and_changes_nothing(db: Db) {
    let Some(t) = T::new(db).await else { return };
    let a = Client::new(
        &t,
        "bada",
        &["board:play", "challenge:read", "challenge:write"],
    )
    .await;
    let b = Client::new(
        &t,
        "badb",
        &["board:play", "challenge:read", "challenge:write"],
    )
    .await;
    // Unknown game, unknown challenge: 404 with {"error"}.
    let (s, e) = a.form("/api/board/game/nosuchgame1/move/e2e4", "").await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    assert!(e["error"].is_string(), "{e}");
    let (s, _) = a.form("/api/challenge/nosuchchall/accept", "").await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    // Oneself, nobody: 400 and 404.
    let (s, e) = a
        .form(
            &format!("/api/challenge/{}", a.name),
            "clock.limit=60&clock.increment=0",
        )
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{e}");
    let (s, _) = a.form("/api/challenge/nobody_here", "clock.limit=60").await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    // A malformed form: 400, nothing stored.
    for body in [
        "rated=maybe",
        "clock.limit=abc",
        "color=green",
        "variant=atomic",
    ] {
        let (s, e) = a.form(&format!("/api/challenge/{}", b.name), body).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{body}: {e}");
        assert!(e["error"].is_string());
    }
    let (_, mine) = a.get("/api/challenge").await;
    assert_eq!(mine["out"], json!([]), "a refused challenge is not stored");
    // A game: an illegal move and a move out of turn are 400s and change nothing.
    let (_, c) = a
        .form(
            &format!("/api/challenge/{}", b.name),
            "clock.limit=600&clock.increment=0&color=white",
        )
        .await;
    let id = c["id"].as_str().unwrap().to_owned();
    let (s, _) = b.form(&format!("/api/challenge/{id}/accept"), "").await;
    assert_eq!(s, StatusCode::OK);
    let (s, _) = b.form(&format!("/api/challenge/{id}/accept"), "").await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "a challenge is accepted once");
    let (s, e) = a.form(&format!("/api/board/game/{id}/move/e2e5"), "").await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "illegal: {e}");
    let (s, e) = b.form(&format!("/api/board/game/{id}/move/e7e5"), "").await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "out of turn: {e}");
    let (s, e) = a
        .form(&format!("/api/board/game/{id}/claim-victory"), "")
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{e}");
    let (_, v) = t.get(&format!("/api/games/{id}")).await;
    assert_eq!(v["moves"], json!([]));
    assert_eq!(v["status"], "playing");
    // A chat line that is too long.
    let long = "x".repeat(141);
    let (s, _) = a
        .form(
            &format!("/api/board/game/{id}/chat"),
            &format!("room=player&text={long}"),
        )
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    // The Bot API is for bots; a bot does not use the Board API.
    let (s, _) = a.form(&format!("/api/bot/game/{id}/move/e2e4"), "").await;
    assert_eq!(s, StatusCode::FORBIDDEN, "a board token has no bot:play");
    let bot = Client::new(&t, "badbot", &["bot:play", "board:play"]).await;
    bot.form("/api/bot/account/upgrade", "").await;
    let (s, e) = bot.form("/api/board/seek", "time=5&increment=3").await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{e}");
}

async fn art_6_9_a_flag_against_a_bare_king_is_outoftime_without_winner(db: Db) {
    let Some(t) = T::new(db).await else { return };
    let a = Client::new(&t, "flaga", &["board:play", "challenge:write"]).await;
    let b = Client::new(&t, "flagb", &["board:play", "challenge:write"]).await;
    // White has king and queen, Black a bare king: Black cannot mate by any series of legal
    // moves, so White's flag falling is a draw (Art. 6.9).
    let fen = "7k/8/8/8/8/8/8/KQ6 w - - 0 1";
    let (s, c) = a
        .post_json(
            &format!("/api/challenge/{}", b.name),
            json!({"clock.limit": 1, "clock.increment": 0, "color": "white", "variant": "fromPosition", "fen": fen}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{c}");
    assert_eq!(c["variant"]["key"], "fromPosition");
    let id = c["id"].as_str().unwrap().to_owned();
    b.form(&format!("/api/challenge/{id}/accept"), "").await;
    let mut game = a.stream(&format!("/api/board/game/stream/{id}")).await;
    let full = game.next().await;
    assert_eq!(full["initialFen"], fen);
    let mut last = Value::Null;
    while let Some(v) = game.next_within(10).await {
        last = v;
    }
    assert_eq!(last["status"], "outoftime", "{last}");
    assert!(last.get("winner").is_none(), "{last}");
    assert_eq!(
        last["arbiter"]["termination"],
        "timeout_vs_insufficient_material"
    );
    assert_eq!(last["arbiter"]["article"], "6.9");
}

async fn streams_send_keep_alive_lines(db: Db) {
    let Some(t) = T::new(db).await else { return };
    let a = Client::new(&t, "kal", &["board:play"]).await;
    let mut events = a.stream("/api/stream/event").await;
    // Nothing happens: within 7 s an empty line arrives (lichess's clients time out at 10+).
    let started = std::time::Instant::now();
    while events.blank == 0 {
        let chunk = tokio::time::timeout(Duration::from_secs(8), events.resp.chunk())
            .await
            .expect("a keep-alive line within 8 s")
            .unwrap()
            .unwrap();
        events.buf.extend_from_slice(&chunk);
        if events.buf.iter().all(|b| *b == b'\n') {
            events.blank += events.buf.len();
            events.buf.clear();
        }
    }
    assert!(started.elapsed() < Duration::from_secs(8));
}

/// A round robin of two players; returns the game of round 1 and the players' browsers.
async fn tournament_game(t: &T, players_chat: bool) -> (String, Vec<Browser>) {
    let mut director = Browser::new(t);
    director.sign_up("td").await;
    let (s, v) = director
        .post(
            "/api/tournaments",
            json!({"name": "Chat", "system": "round_robin", "time_control": "5+0",
                   "pause_secs": null, "players_chat": players_chat}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let id = v["id"].as_str().unwrap().to_owned();
    let mut players = Vec::new();
    for _ in 0..2 {
        let mut b = Browser::new(t);
        b.sign_up("tp").await;
        b.post(&format!("/api/tournaments/{id}/register"), json!({}))
            .await;
        players.push(b);
    }
    let (_, v) = director
        .post(&format!("/api/tournaments/{id}/start"), json!({}))
        .await;
    let game = v["rounds"][0]["boards"][0]["game"]
        .as_str()
        .unwrap()
        .to_owned();
    (game, players)
}

async fn art_11_3_the_players_chat_is_closed_while_a_tournament_game_is_played(db: Db) {
    let Some(t) = T::new(db).await else { return };
    let (game, mut players) = tournament_game(&t, false).await;
    let chat = format!("/api/games/{game}/chat");
    let (s, e) = players[0]
        .post(&chat, json!({"room": "player", "text": "hello"}))
        .await;
    assert_eq!(s, StatusCode::FORBIDDEN, "{e}");
    assert_eq!(e["error"], "players_chat_closed");
    let (s, _) = players[0]
        .post(&chat, json!({"room": "spectator", "text": "hello all"}))
        .await;
    assert_eq!(s, StatusCode::OK, "the spectators' room stays open");
    let (_, v) = players[1].get(&chat).await;
    assert_eq!(v["player_closed"], true);
    assert_eq!(v["spectator"][0]["text"], "hello all");
    // The game ends: the room opens.
    let (s, _) = players[0]
        .post(&format!("/api/games/{game}/resign"), json!({}))
        .await;
    assert_eq!(s, StatusCode::OK);
    let (s, _) = players[1]
        .post(&chat, json!({"room": "player", "text": "good game"}))
        .await;
    assert_eq!(s, StatusCode::OK);
    // A tournament that lets its players chat.
    let (game, mut players) = tournament_game(&t, true).await;
    let (s, _) = players[1]
        .post(
            &format!("/api/games/{game}/chat"),
            json!({"room": "player", "text": "have fun"}),
        )
        .await;
    assert_eq!(s, StatusCode::OK);
}

async fn a_revoked_token_stops_working_at_once(db: Db) {
    let Some(t) = T::new(db).await else { return };
    let mut b = Browser::new(&t);
    b.sign_up("rev").await;
    let (_, tok) = b
        .post(
            "/api/account/tokens",
            json!({"description": "to revoke", "scopes": ["board:play"]}),
        )
        .await;
    let secret = tok["token"].as_str().unwrap().to_owned();
    let get = |secret: String| {
        let base = t.base.clone();
        async move {
            reqwest::Client::new()
                .get(format!("{base}/api/account"))
                .bearer_auth(secret)
                .send()
                .await
                .unwrap()
                .status()
        }
    };
    // Used once: the server now knows it (and keeps it for a few seconds).
    assert_eq!(get(secret.clone()).await, StatusCode::OK);
    let (s, _) = b
        .delete(&format!(
            "/api/account/tokens/{}",
            tok["id"].as_str().unwrap()
        ))
        .await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    assert_eq!(get(secret).await, StatusCode::UNAUTHORIZED);
}

async fn a_board_seek_is_in_the_lobby_and_goes_with_its_client(db: Db) {
    let Some(t) = T::new(db).await else { return };
    let a = Client::new(&t, "seeka", &["board:play"]).await;
    let mut b = Browser::new(&t);
    b.sign_up("seekb").await;
    let seeks_of = |lobby: &Value, name: &str| -> Vec<String> {
        lobby["seeks"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| s["username"] == name)
            .map(|s| s["id"].as_str().unwrap().to_owned())
            .collect()
    };
    // A's Board API seek, held open: shown in the web UI's lobby.
    let seek = a
        .req(reqwest::Method::POST, "/api/board/seek")
        .form(&[("time", "10"), ("increment", "5"), ("rated", "false")])
        .send()
        .await
        .unwrap();
    assert_eq!(seek.status(), StatusCode::OK);
    let mut events = a.stream("/api/stream/event").await;
    let (_, lobby) = b.get("/api/lobby").await;
    let ids = seeks_of(&lobby, &a.name);
    assert_eq!(ids.len(), 1, "{lobby}");
    // B accepts it in the lobby: the game starts; A's seek request ends; A is told.
    let (s, started) = b
        .post(&format!("/api/seeks/{}/accept", ids[0]), json!({}))
        .await;
    assert_eq!(s, StatusCode::OK, "{started}");
    let body = tokio::time::timeout(Duration::from_secs(10), seek.text())
        .await
        .expect("the seek's stream ends once paired");
    assert!(body.unwrap().trim().is_empty());
    let start = events.until("gameStart").await;
    assert_eq!(start["game"]["id"], started["game"]);
    assert_eq!(start["game"]["source"], "lobby");
    // A second seek whose client goes away is removed from the lobby.
    let seek = a
        .req(reqwest::Method::POST, "/api/board/seek")
        .form(&[("time", "3"), ("increment", "2")])
        .send()
        .await
        .unwrap();
    let (_, lobby) = b.get("/api/lobby").await;
    assert_eq!(seeks_of(&lobby, &a.name).len(), 1);
    drop(seek);
    let gone = async {
        loop {
            let (_, lobby) = b.get("/api/lobby").await;
            if seeks_of(&lobby, &a.name).is_empty() {
                return;
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(10), gone)
        .await
        .expect("the seek is removed within a keep-alive period of its client leaving");
}

both_backends!(
    a_board_seek_is_in_the_lobby_and_goes_with_its_client,
    a_revoked_token_stops_working_at_once,
    art_11_3_the_players_chat_is_closed_while_a_tournament_game_is_played,
    lichess_bot_request_sequence_is_answered,
    bad_input_gets_lichess_errors_and_changes_nothing,
    art_6_9_a_flag_against_a_bare_king_is_outoftime_without_winner,
    streams_send_keep_alive_lines,
);
