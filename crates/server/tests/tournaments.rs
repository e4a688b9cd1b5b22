//! Tournaments online (issue 15): a round robin (C.05) and a Swiss (C.04.3) played to the end
//! by bots over the API, a no-show forfeited by the default time (Art. 6.7.1), a restart in the
//! middle of a round, a director's correction changing the standings, an Art. 12.9 penalty,
//! the database refusing a player paired twice in a round, and the permission errors. On
//! SQLite, and on PostgreSQL when `ARBITER_TEST_POSTGRES_URL` is set.

mod common;

use std::time::Duration;

use common::{Browser, Db, T};
use futures_util::StreamExt;
use reqwest::header::COOKIE;
use reqwest::StatusCode;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

/// A director and `n` players, each signed up in their own browser.
async fn people(t: &T, n: usize) -> (Browser, Vec<Browser>) {
    let mut director = Browser::new(t);
    director.sign_up("td").await;
    let mut players = Vec::new();
    for _ in 0..n {
        let mut b = Browser::new(t);
        b.sign_up("p").await;
        players.push(b);
    }
    (director, players)
}

async fn create(director: &mut Browser, body: Value) -> String {
    let (s, v) = director.post("/api/tournaments", body).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    v["id"].as_str().unwrap().to_owned()
}

async fn tournament(b: &mut Browser, id: &str) -> Value {
    let (s, v) = b.get(&format!("/api/tournaments/{id}")).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    v
}

/// Poll the tournament until `pred` holds (20 s at most).
async fn until(b: &mut Browser, id: &str, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
    let start = std::time::Instant::now();
    loop {
        let v = tournament(b, id).await;
        if pred(&v) {
            return v;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "waiting for {what}: {v:#}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The browser of the player with this start number.
fn by_no<'a>(t: &Value, players: &'a mut [Browser], names: &[String], no: u64) -> &'a mut Browser {
    let name = t["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["no"] == no)
        .unwrap()["username"]
        .as_str()
        .unwrap()
        .to_owned();
    let i = names.iter().position(|n| *n == name).unwrap();
    &mut players[i]
}

/// Play the current round's games: 1. e4 e5, then by board White resigns, Black resigns, or a
/// draw is agreed (Art. 9.1.2: offered after both have moved).
async fn play_round(t: &Value, players: &mut [Browser], names: &[String]) {
    let round = t["current_round"].as_u64().unwrap();
    let r = &t["rounds"][(round - 1) as usize];
    for b in r["boards"].as_array().unwrap() {
        if !b["result"].is_null() {
            continue;
        }
        let game = b["game"].as_str().expect("an online game").to_owned();
        let (w, bl) = (b["white"].as_u64().unwrap(), b["black"].as_u64().unwrap());
        by_no(t, players, names, w).mv(&game, "e2e4").await;
        by_no(t, players, names, bl).mv(&game, "e7e5").await;
        let path = |a: &str| format!("/api/games/{game}/{a}");
        match (round + b["board"].as_u64().unwrap()) % 3 {
            0 => {
                let (s, v) = by_no(t, players, names, w)
                    .post(&path("resign"), json!({}))
                    .await;
                assert_eq!(s, StatusCode::OK, "{v}");
            }
            1 => {
                let (s, v) = by_no(t, players, names, bl)
                    .post(&path("resign"), json!({}))
                    .await;
                assert_eq!(s, StatusCode::OK, "{v}");
            }
            _ => {
                let p = by_no(t, players, names, w);
                let (s, v) = p.post(&path("draw"), json!({"action": "offer"})).await;
                assert_eq!(s, StatusCode::OK, "{v}");
                let p = by_no(t, players, names, bl);
                let (s, v) = p.post(&path("draw"), json!({"action": "accept"})).await;
                assert_eq!(s, StatusCode::OK, "{v}");
            }
        }
    }
}

/// Register everyone, start, and play every round to the end; returns the final state.
async fn play_to_the_end(
    id: &str,
    director: &mut Browser,
    players: &mut [Browser],
) -> (Value, Vec<String>) {
    let mut names = Vec::new();
    for p in players.iter_mut() {
        let (s, v) = p
            .post(&format!("/api/tournaments/{id}/register"), json!({}))
            .await;
        assert_eq!(s, StatusCode::OK, "{v}");
        names.push(v["username"].as_str().unwrap().to_owned());
    }
    let (s, v) = director
        .post(&format!("/api/tournaments/{id}/start"), json!({}))
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    loop {
        let t = until(director, id, "a round being played or the end", |v| {
            v["status"] == "finished"
                || v["rounds"]
                    .as_array()
                    .and_then(|r| r.last())
                    .is_some_and(|r| r["complete"] == false)
        })
        .await;
        if t["status"] == "finished" {
            return (t, names);
        }
        play_round(&t, players, &names).await;
        let round = t["current_round"].as_u64().unwrap();
        until(director, id, "the round's results", |v| {
            v["rounds"][(round - 1) as usize]["complete"] == true
        })
        .await;
    }
}

/// Every player appears at most once per round, and the stored pairing rows agree.
async fn check_pairings(t: &T, state: &Value) {
    for r in state["rounds"].as_array().unwrap() {
        let mut seen = std::collections::HashSet::new();
        for b in r["boards"].as_array().unwrap() {
            assert!(seen.insert(b["white"].as_u64().unwrap()), "{r}");
            assert!(seen.insert(b["black"].as_u64().unwrap()), "{r}");
        }
        for b in r["byes"].as_array().unwrap() {
            assert!(seen.insert(b["player"].as_u64().unwrap()), "{r}");
        }
    }
    let pool = t.server.as_ref().unwrap().hub().store().pool();
    let n: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM tournament_pairings WHERE tournament_id = $1")
            .bind(state["id"].as_str().unwrap())
            .fetch_one(pool)
            .await
            .unwrap();
    let expected: usize = state["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| 2 * r["boards"].as_array().unwrap().len() + r["byes"].as_array().unwrap().len())
        .sum();
    assert_eq!(n as usize, expected);
}

async fn c05_round_robin_of_7_played_to_the_end_by_bots(db: Db) {
    let Some(t) = T::new(db).await else { return };
    let (mut director, mut players) = people(&t, 7).await;
    let id = create(
        &mut director,
        json!({"name": "Club round robin", "system": "round_robin", "time_control": "5+0",
               "pause_secs": 0, "default_time_secs": 60}),
    )
    .await;
    let (end, _) = play_to_the_end(&id, &mut director, &mut players).await;
    // C.05: 7 players, 7 rounds of 3 games, everyone has one free round.
    assert_eq!(end["rounds"].as_array().unwrap().len(), 7);
    for r in end["rounds"].as_array().unwrap() {
        assert_eq!(r["boards"].as_array().unwrap().len(), 3);
        assert_eq!(r["byes"][0]["kind"], "free");
    }
    let total: f64 = end["standings"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["points"].as_f64().unwrap())
        .sum();
    assert_eq!(total, 21.0);
    check_pairings(&t, &end).await;
    // The exports: TRF that reads back without errors, PGN of the 21 games, the crosstable.
    let trf = reqwest::get(t.url(&format!("/api/tournaments/{id}/trf")))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let read = arbiter_tournament::trf::read(&trf);
    assert!(read.diagnostics.is_empty(), "{:?}\n{trf}", read.diagnostics);
    assert_eq!(read.tournament.players.len(), 7);
    let pgn = reqwest::get(t.url(&format!("/api/tournaments/{id}/pgn")))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(
        pgn.matches("[Event \"Club round robin\"]").count(),
        21,
        "{pgn}"
    );
    assert!(pgn.contains("[Round \"7.3\"]"), "{pgn}");
    for ext in [
        "crosstable.txt",
        "crosstable.csv",
        "crosstable",
        "standings",
        "rounds/1",
    ] {
        let (s, _) = director.get(&format!("/api/tournaments/{id}/{ext}")).await;
        assert_eq!(s, StatusCode::OK, "{ext}");
    }
    let (_, x) = director
        .get(&format!("/api/tournaments/{id}/crosstable"))
        .await;
    assert_eq!(x["rows"][0]["results"].as_array().unwrap().len(), 7);
    let (_, list) = director.get("/api/tournaments?status=finished").await;
    assert!(list.to_string().contains(&id));
}

async fn c04_3_swiss_of_12_played_to_the_end_by_bots(db: Db) {
    let Some(t) = T::new(db).await else { return };
    let (mut director, mut players) = people(&t, 12).await;
    let id = create(
        &mut director,
        json!({"name": "Swiss", "system": "swiss", "rounds": 4, "time_control": "5+0",
               "pause_secs": 0, "default_time_secs": 60,
               "tiebreaks": ["BH/C1", "BH", "SB"]}),
    )
    .await;
    let (end, _) = play_to_the_end(&id, &mut director, &mut players).await;
    assert_eq!(end["rounds"].as_array().unwrap().len(), 4);
    for r in end["rounds"].as_array().unwrap() {
        assert_eq!(r["boards"].as_array().unwrap().len(), 6);
        assert!(!r["explanation"].as_array().unwrap().is_empty());
    }
    assert_eq!(
        end["standings"]["tiebreaks"],
        json!(["PTS", "BH/C1", "BH", "SB"])
    );
    check_pairings(&t, &end).await;
}

async fn art_6_7_1_a_no_show_loses_by_forfeit_after_the_default_time(db: Db) {
    let Some(t) = T::new(db).await else { return };
    let (mut director, mut players) = people(&t, 4).await;
    let id = create(
        &mut director,
        json!({"name": "Defaults", "system": "round_robin", "time_control": "5+0",
               "pause_secs": null, "default_time_secs": 2}),
    )
    .await;
    let mut names = Vec::new();
    for p in players.iter_mut() {
        let (_, v) = p
            .post(&format!("/api/tournaments/{id}/register"), json!({}))
            .await;
        names.push(v["username"].as_str().unwrap().to_owned());
    }
    let (s, v) = director
        .post(&format!("/api/tournaments/{id}/start"), json!({}))
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert!(v["round_deadline"].as_i64().is_some(), "{v}");
    let b1 = v["rounds"][0]["boards"][0].clone();
    let b2 = v["rounds"][0]["boards"][1].clone();
    // Board 1: both arrive (they move). Board 2: White checks in, Black never comes.
    let g1 = b1["game"].as_str().unwrap();
    by_no(&v, &mut players, &names, b1["white"].as_u64().unwrap())
        .mv(g1, "e2e4")
        .await;
    by_no(&v, &mut players, &names, b1["black"].as_u64().unwrap())
        .mv(g1, "e7e5")
        .await;
    let w2 = by_no(&v, &mut players, &names, b2["white"].as_u64().unwrap());
    let (s, e) = w2
        .post(&format!("/api/tournaments/{id}/present"), json!({}))
        .await;
    assert_eq!(s, StatusCode::NO_CONTENT, "{e}");
    let end = until(&mut director, &id, "the default", |v| {
        !v["rounds"][0]["boards"][1]["result"].is_null()
    })
    .await;
    let board = &end["rounds"][0]["boards"][1];
    assert_eq!(board["result"], "+/-");
    assert_eq!(board["termination"], "forfeit");
    assert!(
        end["rounds"][0]["boards"][0]["result"].is_null(),
        "board 1 plays on"
    );
    // The game itself ended by the forfeit; the no-show is not paired again.
    let (_, game) = director
        .get(&format!("/api/games/{}", board["game"].as_str().unwrap()))
        .await;
    assert_eq!(
        (game["status"].as_str(), game["result"].as_str()),
        (Some("finished"), Some("+/-"))
    );
    let absent = b2["black"].as_u64().unwrap();
    let p = end["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["no"] == absent)
        .unwrap();
    assert_eq!(p["withdrawn"], true);
    let row = end["standings"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["no"] == b2["white"])
        .unwrap();
    assert_eq!(row["points"], 1.0);
}

/// The tournament socket of a browser (its cookie, its origin).
async fn tournament_socket(b: &Browser, id: &str) -> Socket {
    let url = format!(
        "{}/api/tournaments/{id}/ws",
        b.base.replacen("http", "ws", 1)
    );
    let mut req = url.into_client_request().unwrap();
    if let Some(c) = &b.cookie {
        req.headers_mut().insert(COOKIE, c.parse().unwrap());
    }
    req.headers_mut().insert("origin", b.base.parse().unwrap());
    let (ws, _) = tokio_tungstenite::connect_async(req)
        .await
        .expect("tournament socket");
    ws
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Art. 6.7.1 online: Black, whose tournament page is open, waits for White's first move past
/// the default time and is not forfeited (the open page checked them in); the same board's
/// White, who moved, is present too, so the game plays on.
async fn art_6_7_1_a_player_with_the_page_open_is_present(db: Db) {
    let Some(t) = T::new(db).await else { return };
    let (mut director, mut players) = people(&t, 2).await;
    let id = create(
        &mut director,
        json!({"name": "Waiting", "system": "round_robin", "time_control": "5+0",
               "pause_secs": null, "default_time_secs": 2}),
    )
    .await;
    let mut names = Vec::new();
    for p in players.iter_mut() {
        let (_, v) = p
            .post(&format!("/api/tournaments/{id}/register"), json!({}))
            .await;
        names.push(v["username"].as_str().unwrap().to_owned());
    }
    // Both pages open before the start: the pairing reaches them as `your_game`.
    let mut sockets = Vec::new();
    for p in &players {
        sockets.push(tournament_socket(p, &id).await);
    }
    let (s, v) = director
        .post(&format!("/api/tournaments/{id}/start"), json!({}))
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let board = v["rounds"][0]["boards"][0].clone();
    let game = board["game"].as_str().unwrap().to_owned();
    for ws in sockets.iter_mut() {
        loop {
            let msg = tokio::time::timeout(Duration::from_secs(10), ws.next())
                .await
                .expect("a message within 10 s")
                .expect("open")
                .expect("no error");
            if let Message::Text(text) = msg {
                let m: Value = serde_json::from_str(text.as_str()).unwrap();
                if m["type"] == "your_game" {
                    assert_eq!(m["game"], game.as_str());
                    break;
                }
            }
        }
    }
    // White thinks past the default time, then moves; Black has not moved at all.
    tokio::time::sleep(Duration::from_millis(3_000)).await;
    by_no(&v, &mut players, &names, board["white"].as_u64().unwrap())
        .mv(&game, "e2e4")
        .await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let now = tournament(&mut director, &id).await;
    assert!(
        now["rounds"][0]["boards"][0]["result"].is_null(),
        "nobody forfeited: {}",
        now["rounds"][0]["boards"][0]
    );
    drop(sockets);
}

async fn a_restart_in_the_middle_of_a_round_resumes_the_tournament(db: Db) {
    let Some(mut t) = T::new(db).await else {
        return;
    };
    let (mut director, mut players) = people(&t, 4).await;
    let id = create(
        &mut director,
        json!({"name": "Restart", "system": "round_robin", "time_control": "5+0",
               "pause_secs": 0, "default_time_secs": 60}),
    )
    .await;
    let mut names = Vec::new();
    for p in players.iter_mut() {
        let (_, v) = p
            .post(&format!("/api/tournaments/{id}/register"), json!({}))
            .await;
        names.push(v["username"].as_str().unwrap().to_owned());
    }
    let (_, v) = director
        .post(&format!("/api/tournaments/{id}/start"), json!({}))
        .await;
    let boards = v["rounds"][0]["boards"].as_array().unwrap().clone();
    // Board 1 ends before the restart, board 2 after it.
    let g1 = boards[0]["game"].as_str().unwrap();
    let w1 = by_no(
        &v,
        &mut players,
        &names,
        boards[0]["white"].as_u64().unwrap(),
    );
    let (s, e) = w1.post(&format!("/api/games/{g1}/resign"), json!({})).await;
    assert_eq!(s, StatusCode::OK, "{e}");
    until(&mut director, &id, "board 1's result", |v| {
        v["rounds"][0]["boards"][0]["result"] == "0-1"
    })
    .await;
    t.restart().await;
    for b in players.iter_mut().chain(std::iter::once(&mut director)) {
        b.base = t.base.clone();
    }
    let after = tournament(&mut director, &id).await;
    assert_eq!(after["current_round"], 1);
    assert_eq!(after["rounds"][0]["boards"][0]["result"], "0-1");
    let g2 = boards[1]["game"].as_str().unwrap();
    let b2 = by_no(
        &after,
        &mut players,
        &names,
        boards[1]["black"].as_u64().unwrap(),
    );
    let (s, e) = b2.post(&format!("/api/games/{g2}/resign"), json!({})).await;
    assert_eq!(s, StatusCode::OK, "{e}");
    // The result flows in after the restart and round 2 is paired by itself.
    let v = until(&mut director, &id, "round 2", |v| v["current_round"] == 2).await;
    assert_eq!(v["rounds"][0]["boards"][1]["result"], "1-0");
    check_pairings(&t, &v).await;
}

async fn director_corrects_a_result_and_the_standings_change(db: Db) {
    let Some(t) = T::new(db).await else { return };
    let (mut director, _) = people(&t, 0).await;
    // An over-the-board event: players entered by name, results typed by the arbiter.
    let id = create(
        &mut director,
        json!({"name": "OTB", "system": "round_robin", "time_control": "90+30",
               "online": false, "pause_secs": null}),
    )
    .await;
    for (name, rating) in [
        ("Carlsen, Magnus", 2830),
        ("Nakamura, Hikaru", 2790),
        ("Ding, Liren", 2760),
        ("Gukesh, D", 2780),
    ] {
        let (s, v) = director
            .post(
                &format!("/api/tournaments/{id}/players"),
                json!({"name": name, "rating": rating, "title": "GM"}),
            )
            .await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
    }
    let (s, v) = director
        .post(&format!("/api/tournaments/{id}/start"), json!({}))
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(
        v["players"][0]["name"], "Carlsen, Magnus",
        "numbered by rating"
    );
    assert!(v["rounds"][0]["boards"][0]["game"].is_null());
    let result = |b: u32| format!("/api/tournaments/{id}/rounds/1/boards/{b}/result");
    let (s, _) = director.post(&result(1), json!({"result": "1-0"})).await;
    assert_eq!(s, StatusCode::OK);
    let (s, v) = director
        .post(&result(2), json!({"result": "1/2-1/2"}))
        .await;
    assert_eq!(s, StatusCode::OK);
    let white = v["rounds"][0]["boards"][0]["white"].as_u64().unwrap();
    let points = |v: &Value, no: u64| {
        v["standings"]["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["no"] == no)
            .unwrap()["points"]
            .as_f64()
            .unwrap()
    };
    assert_eq!(points(&v, white), 1.0);
    assert_eq!(v["standings"]["rows"][0]["no"], white);
    // The correction: board 1 was in fact lost by White.
    let (s, v) = director.post(&result(1), json!({"result": "0-1"})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(points(&v, white), 0.0);
    assert_ne!(v["standings"]["rows"][0]["no"], white);
    assert_eq!(
        v["rounds"][0]["boards"][0]["termination"],
        "arbiter_decision"
    );
    // Bad input changes nothing.
    let (s, e) = director.post(&result(9), json!({"result": "1-0"})).await;
    assert_eq!(
        s,
        StatusCode::NOT_FOUND,
        "a board not in the tournament: {e}"
    );
    let (s, e) = director.post(&result(1), json!({"result": "2-0"})).await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::BAD_REQUEST, Some("bad_result"))
    );
    let (s, e) = director
        .post(
            &format!("/api/tournaments/{id}/rounds/1/boards/1/penalty"),
            json!({"kind": "add_time", "player": "white", "seconds": 60}),
        )
        .await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::CONFLICT, Some("no_game"))
    );
    let after = tournament(&mut director, &id).await;
    assert_eq!(points(&after, white), 0.0);
}

async fn art_12_9_penalties_on_a_live_game(db: Db) {
    let Some(t) = T::new(db).await else { return };
    let (mut director, mut players) = people(&t, 2).await;
    let id = create(
        &mut director,
        json!({"name": "Penalties", "system": "round_robin", "time_control": "5+0", "pause_secs": null}),
    )
    .await;
    for p in players.iter_mut() {
        p.post(&format!("/api/tournaments/{id}/register"), json!({}))
            .await;
    }
    let (_, v) = director
        .post(&format!("/api/tournaments/{id}/start"), json!({}))
        .await;
    let game = v["rounds"][0]["boards"][0]["game"]
        .as_str()
        .unwrap()
        .to_owned();
    let penalty = format!("/api/tournaments/{id}/rounds/1/boards/1/penalty");
    // Art. 12.9.2: two minutes more for Black.
    let (s, done) = director
        .post(
            &penalty,
            json!({"kind": "add_time", "player": "black", "seconds": 120}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{done}");
    assert_eq!(done["game"], game.as_str());
    let (_, g) = director.get(&format!("/api/games/{game}")).await;
    assert!(g["clocks"]["black_ms"].as_i64().unwrap() > 400_000, "{g}");
    // Art. 12.9.3: a minute less for White.
    let (s, _) = director
        .post(
            &penalty,
            json!({"kind": "deduct_time", "player": "white", "seconds": 60}),
        )
        .await;
    assert_eq!(s, StatusCode::OK);
    let (_, g) = director.get(&format!("/api/games/{game}")).await;
    assert!(g["clocks"]["white_ms"].as_i64().unwrap() <= 240_000, "{g}");
    // Only the director.
    let (s, e) = players[0]
        .post(&penalty, json!({"kind": "declare_lost", "player": "white"}))
        .await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::FORBIDDEN, Some("not_director"))
    );
    // Art. 12.9.6: White's game declared lost; the result flows into the tournament.
    let (s, _) = director
        .post(&penalty, json!({"kind": "declare_lost", "player": "white"}))
        .await;
    assert_eq!(s, StatusCode::OK);
    let v = until(&mut director, &id, "the result", |v| {
        v["status"] == "finished"
    })
    .await;
    assert_eq!(v["rounds"][0]["boards"][0]["result"], "0-1");
    assert_eq!(
        v["rounds"][0]["boards"][0]["termination"],
        "arbiter_decision"
    );
    let (s, e) = director
        .post(
            &penalty,
            json!({"kind": "add_time", "player": "black", "seconds": 5}),
        )
        .await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::CONFLICT, Some("game_over"))
    );
}

async fn a_player_paired_twice_in_one_round_is_refused_by_the_database(db: Db) {
    let Some(t) = T::new(db).await else { return };
    let (mut director, _) = people(&t, 0).await;
    let id = create(
        &mut director,
        json!({"name": "Unique", "system": "round_robin", "time_control": "5+0", "online": false}),
    )
    .await;
    for name in ["A", "B", "C"] {
        director
            .post(
                &format!("/api/tournaments/{id}/players"),
                json!({"name": name}),
            )
            .await;
    }
    let (s, _) = director
        .post(&format!("/api/tournaments/{id}/start"), json!({}))
        .await;
    assert_eq!(s, StatusCode::OK);
    let pool = t.server.as_ref().unwrap().hub().store().pool();
    let player: i64 = sqlx::query_scalar(
        "SELECT player FROM tournament_pairings WHERE tournament_id = $1 AND round = 1 LIMIT 1",
    )
    .bind(&id)
    .fetch_one(pool)
    .await
    .unwrap();
    let dup = sqlx::query(
        "INSERT INTO tournament_pairings (tournament_id, round, player, board, game_id) \
         VALUES ($1, 1, $2, 7, NULL)",
    )
    .bind(&id)
    .bind(player)
    .execute(pool)
    .await;
    assert!(
        dup.is_err(),
        "the database must refuse a second pairing of player {player} in round 1"
    );
    let n: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM tournament_pairings WHERE tournament_id = $1")
            .bind(&id)
            .fetch_one(pool)
            .await
            .unwrap();
    assert_eq!(n, 3, "two on the board, one free round");
}

async fn registration_and_console_refuse_bad_requests_with_4xx(db: Db) {
    let Some(t) = T::new(db).await else { return };
    let (mut director, mut players) = people(&t, 3).await;
    let mut anonymous = Browser::new(&t);
    let (s, e) = anonymous
        .post(
            "/api/tournaments",
            json!({"name": "x", "time_control": "5+0"}),
        )
        .await;
    assert_eq!(s, StatusCode::UNAUTHORIZED, "{e}");
    for (body, code) in [
        (json!({"name": "", "time_control": "5+0"}), "bad_name"),
        (
            json!({"name": "x", "time_control": "five"}),
            "bad_time_control",
        ),
        (
            json!({"name": "x", "time_control": "5+0", "rounds": 0}),
            "bad_rounds",
        ),
        (
            json!({"name": "x", "time_control": "5+0", "tiebreaks": ["XYZ"]}),
            "bad_tiebreak",
        ),
        (
            json!({"name": "x", "time_control": "untimed", "rated": true}),
            "cannot_be_rated",
        ),
        (
            json!({"name": "x", "time_control": "5+0", "default_time_secs": -1}),
            "bad_default_time",
        ),
    ] {
        let (s, e) = director.post("/api/tournaments", body).await;
        assert_eq!(
            (s, e["error"].as_str()),
            (StatusCode::BAD_REQUEST, Some(code)),
            "{e}"
        );
    }
    let id = create(
        &mut director,
        json!({"name": "Rules", "time_control": "5+0", "rounds": 3}),
    )
    .await;
    let reg = format!("/api/tournaments/{id}/register");
    let (s, _) = players[0].post(&reg, json!({})).await;
    assert_eq!(s, StatusCode::OK);
    // A second registration.
    let (s, e) = players[0].post(&reg, json!({})).await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::CONFLICT, Some("already_registered"))
    );
    // Director actions by someone else.
    for path in ["start", "pair", "pause", "resume"] {
        let (s, e) = players[1]
            .post(&format!("/api/tournaments/{id}/{path}"), json!({}))
            .await;
        assert_eq!(
            (s, e["error"].as_str()),
            (StatusCode::FORBIDDEN, Some("not_director")),
            "{path}"
        );
    }
    let (s, e) = players[1]
        .post(
            &format!("/api/tournaments/{id}/players"),
            json!({"name": "Intruder"}),
        )
        .await;
    assert_eq!(s, StatusCode::FORBIDDEN, "{e}");
    let (s, e) = players[1]
        .post(
            &format!("/api/tournaments/{id}/rounds/1/boards/1/result"),
            json!({"result": "1-0"}),
        )
        .await;
    assert_eq!(s, StatusCode::FORBIDDEN, "{e}");
    // Registration closed by the director.
    let (s, _) = director
        .post(
            &format!("/api/tournaments/{id}/registration"),
            json!({"open": false}),
        )
        .await;
    assert_eq!(s, StatusCode::OK);
    let (s, e) = players[1].post(&reg, json!({})).await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::CONFLICT, Some("registration_closed"))
    );
    // Too few players to start; byes and forbidden pairs checked.
    let (s, e) = director
        .post(&format!("/api/tournaments/{id}/start"), json!({}))
        .await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::CONFLICT, Some("too_few_players"))
    );
    let (s, e) = director
        .post(
            &format!("/api/tournaments/{id}/byes"),
            json!({"player": 1, "round": 2, "kind": "double"}),
        )
        .await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::BAD_REQUEST, Some("bad_bye"))
    );
    let (s, _) = director
        .post(
            &format!("/api/tournaments/{id}/byes"),
            json!({"player": 1, "round": 2, "kind": "half"}),
        )
        .await;
    assert_eq!(s, StatusCode::OK);
    let (s, e) = director
        .post(
            &format!("/api/tournaments/{id}/forbidden"),
            json!({"players": [1, 1]}),
        )
        .await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::BAD_REQUEST, Some("bad_players"))
    );
    let (s, _) = director.get("/api/tournaments/nope").await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (s, e) = director.get("/api/tournaments?status=soon").await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::BAD_REQUEST, Some("bad_status"))
    );
    // Nothing changed by the refusals.
    let v = tournament(&mut director, &id).await;
    assert_eq!(v["players"].as_array().unwrap().len(), 1);
    assert_eq!(v["status"], "upcoming");
    assert_eq!(v["players"][0]["byes"][0]["kind"], "half");
}

both_backends!(
    c05_round_robin_of_7_played_to_the_end_by_bots,
    c04_3_swiss_of_12_played_to_the_end_by_bots,
    art_6_7_1_a_no_show_loses_by_forfeit_after_the_default_time,
    art_6_7_1_a_player_with_the_page_open_is_present,
    a_restart_in_the_middle_of_a_round_resumes_the_tournament,
    director_corrects_a_result_and_the_standings_change,
    art_12_9_penalties_on_a_live_game,
    a_player_paired_twice_in_one_round_is_refused_by_the_database,
    registration_and_console_refuse_bad_requests_with_4xx,
);
