//! Computer analysis over HTTP (issue 17): requested by a player, queued, analysed position by
//! position and stored; a blunder marked with the better move; the PGN export with `[%eval]`;
//! a restart in the middle of an analysis resumes it; anonymous (401), unfinished game (409),
//! beyond the per-player limit (429), also for requests made at the same moment. On SQLite, and on PostgreSQL when
//! `ARBITER_TEST_POSTGRES_URL` is set. Small node budgets keep it fast.

mod common;

use std::time::{Duration, Instant};

use arbiter_server::analysis::AnalysisConfig;
use arbiter_server::Config;
use common::{Browser, Db, T};
use reqwest::StatusCode;
use serde_json::{json, Value};

/// A server whose analyses search `nodes` per position and allow `per_day` per player.
async fn start(db: Db, nodes: u64, per_day: u32) -> Option<T> {
    let t = T::new(db).await?;
    // The same database, with this analysis configuration.
    let mut t = t;
    t.server.take().unwrap().shutdown().await;
    let config = Config {
        addr: "127.0.0.1:0".parse().unwrap(),
        db: t.db.clone(),
        analysis: AnalysisConfig {
            nodes: Some(nodes),
            max_per_day: per_day,
            ..AnalysisConfig::default()
        },
        ..Config::default()
    };
    let server = arbiter_server::start(config).await.expect("server starts");
    t.base = format!("http://{}", server.addr());
    t.server = Some(server);
    Some(t)
}

/// A game between `a` (White) and `b` with these moves; White resigns unless `finish` is false.
async fn game(a: &mut Browser, b: &mut Browser, moves: &[&str], finish: bool) -> String {
    let (s, created) = a
        .post(
            "/api/games",
            json!({"time_control": "15+10", "color": "white"}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap().to_owned();
    let (s, joined) = b.post(&format!("/api/games/{id}/join"), json!({})).await;
    assert_eq!(s, StatusCode::OK, "{joined}");
    for (i, m) in moves.iter().enumerate() {
        if i % 2 == 0 {
            a.mv(&id, m).await;
        } else {
            b.mv(&id, m).await;
        }
    }
    if finish {
        let (s, e) = a.post(&format!("/api/games/{id}/resign"), json!({})).await;
        assert_eq!(s, StatusCode::OK, "{e}");
    }
    id
}

/// Polls the analysis until `done` (or `failed`, which fails the test).
async fn until_done(a: &mut Browser, id: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(180);
    loop {
        let (s, v) = a.get(&format!("/api/games/{id}/analysis")).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_ne!(v["state"], "failed", "{v}");
        if v["state"] == "done" {
            return v;
        }
        assert!(Instant::now() < deadline, "analysis not done in time: {v}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// 1. e4 e5 2. Qg4 d6 3. Qxg7?? Bxg7: White's queen for a pawn.
const HANGS_THE_QUEEN: [&str; 6] = ["e4", "e5", "Qg4", "d6", "Qxg7", "Bxg7"];

async fn analysis_is_queued_stored_and_marks_the_blunder(db: Db) {
    let Some(t) = start(db, 20_000, 30).await else {
        return;
    };
    let (mut a, mut b) = (Browser::new(&t), Browser::new(&t));
    a.sign_up("ana").await;
    b.sign_up("bea").await;
    let mut anon = Browser::new(&t);
    let id = game(&mut a, &mut b, &HANGS_THE_QUEEN, false).await;
    let path = format!("/api/games/{id}/analysis");

    // Nothing requested yet.
    let (s, e) = a.get(&path).await;
    assert_eq!(s, StatusCode::NOT_FOUND, "{e}");
    // A running game is not analysed.
    let (s, e) = a.post(&path, json!({})).await;
    assert_eq!(
        (s, e["error"].as_str()),
        (StatusCode::CONFLICT, Some("game_not_finished")),
        "{e}"
    );
    let (s, e) = a.post(&format!("/api/games/{id}/resign"), json!({})).await;
    assert_eq!(s, StatusCode::OK, "{e}");
    // Anonymous players may not ask.
    let (s, e) = anon.post(&path, json!({})).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED, "{e}");

    let (s, queued) = a.post(&path, json!({})).await;
    assert_eq!(s, StatusCode::ACCEPTED, "{queued}");
    assert!(
        ["queued", "running", "done"].contains(&queued["state"].as_str().unwrap()),
        "{queued}"
    );
    assert_eq!(queued["progress"]["total"], 7);
    assert_eq!(queued["nodes"], 20_000);
    assert!(
        queued["engine"].as_str().unwrap().starts_with("arbiter "),
        "{queued}"
    );
    // Asking again answers the same analysis.
    let (s, again) = a.post(&path, json!({})).await;
    assert_eq!(s, StatusCode::OK, "{again}");

    let done = until_done(&mut a, &id).await;
    assert_eq!(done["progress"], json!({"done": 7, "total": 7}));
    assert_eq!(done["queue_position"], Value::Null);
    let positions = done["positions"].as_array().unwrap();
    assert_eq!(positions.len(), 7);
    for (i, p) in positions.iter().enumerate() {
        assert_eq!(p["ply"], i);
        assert!(
            p["eval"]["cp"].is_i64() || p["eval"]["mate"].is_i64(),
            "{p}"
        );
        assert_eq!(p["best"]["uci"], p["pv"][0], "{p}");
    }
    assert!(positions[0]["best"]["san"].as_str().is_some());
    let moves = done["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 6);
    let qxg7 = &moves[4];
    assert_eq!(
        (qxg7["ply"].as_i64(), qxg7["san"].as_str()),
        (Some(5), Some("Qxg7"))
    );
    assert_eq!(qxg7["mark"], "blunder", "{done}");
    assert!(qxg7["loss"].as_i64().unwrap() >= 300, "{qxg7}");
    assert!(qxg7["win_loss"].as_f64().unwrap() >= 0.15, "{qxg7}");
    assert_eq!(qxg7["better"], positions[4]["best"], "{qxg7}");
    // Bxg7 takes the queen: the engine's move, no mark.
    assert_eq!(moves[5]["mark"], Value::Null, "{}", moves[5]);
    let summary = &done["summary"];
    assert!(
        summary["white"]["blunders"].as_i64().unwrap() >= 1,
        "{summary}"
    );
    assert!(
        summary["white"]["acpl"].as_i64().unwrap() > summary["black"]["acpl"].as_i64().unwrap(),
        "{summary}"
    );
    // Anyone may read it.
    let (s, seen) = anon.get(&path).await;
    assert_eq!((s, &seen["state"]), (StatusCode::OK, &json!("done")));

    // The PGN with evaluations: one `[%eval]` per move (the game ended by resignation, so the
    // last position is evaluated too), equal to the positions' evaluations; the blunder's NAG.
    let pgn = t
        .http
        .get(t.url(&format!("/api/games/{id}/pgn?evals=true")))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap()
        // A comment may be broken over lines (PGN lines stay under 80 characters).
        .replace('\n', " ");
    assert_eq!(pgn.matches("[%eval ").count(), 6, "{pgn}");
    let first = positions[1]["eval"]["cp"].as_i64().unwrap();
    let sign = if first < 0 { "-" } else { "" };
    let want = format!(
        "[%eval {sign}{}.{:02}]",
        first.abs() / 100,
        first.abs() % 100
    );
    assert!(pgn.contains(&want), "{want} in {pgn}");
    assert!(pgn.contains("Qxg7 $4"), "{pgn}");
    let better = qxg7["better"]["san"].as_str().unwrap();
    assert!(
        pgn.contains(&format!("Blunder. {better} was best.")),
        "{pgn}"
    );
    let plain = t
        .http
        .get(t.url(&format!("/api/games/{id}/pgn")))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(!plain.contains("[%eval"), "{plain}");
    let (s, e) = a.get(&format!("/api/games/{id}/pgn?evals=maybe")).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{e}");
}

async fn analysis_resumes_after_a_restart(db: Db) {
    // A budget that takes a while per position, so that the restart comes mid-analysis.
    let Some(mut t) = start(db, 150_000, 30).await else {
        return;
    };
    let (mut a, mut b) = (Browser::new(&t), Browser::new(&t));
    a.sign_up("rhea").await;
    b.sign_up("rob").await;
    let moves = [
        "e4", "c5", "Nf3", "d6", "d4", "cxd4", "Nxd4", "Nf6", "Nc3", "a6", "Be3", "e5", "Nb3",
        "Be6", "f3", "Be7", "Qd2", "O-O", "O-O-O", "Nbd7",
    ];
    let id = game(&mut a, &mut b, &moves, true).await;
    let path = format!("/api/games/{id}/analysis");
    let (s, v) = a.post(&path, json!({})).await;
    assert_eq!(s, StatusCode::ACCEPTED, "{v}");
    // Wait for a few positions to be stored, then stop the server.
    let deadline = Instant::now() + Duration::from_secs(120);
    let before = loop {
        let (_, v) = a.get(&path).await;
        let done = v["progress"]["done"].as_i64().unwrap();
        if done >= 2 {
            break v;
        }
        assert!(Instant::now() < deadline, "no progress: {v}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    t.restart().await;
    a.base = t.base.clone();
    let (s, after) = a.get(&path).await;
    assert_eq!(s, StatusCode::OK, "{after}");
    // What was stored is still there, the same.
    let n = before["progress"]["done"].as_i64().unwrap() as usize;
    assert!(
        after["progress"]["done"].as_i64().unwrap() as usize >= n,
        "{after}"
    );
    for i in 0..n {
        assert_eq!(after["positions"][i], before["positions"][i], "ply {i}");
    }
    if before["state"] == "running" {
        assert_ne!(after["state"], "queued", "{after}");
    }
    // The new server finishes it (with the job's own budget, not its default).
    let done = until_done(&mut a, &id).await;
    assert_eq!(done["progress"], json!({"done": 21, "total": 21}));
    assert_eq!(done["nodes"], 150_000);
    assert_eq!(done["positions"].as_array().unwrap().len(), 21);
    assert!(done["summary"]["white"]["accuracy"].is_f64(), "{done}");
}

async fn analyses_beyond_the_daily_limit_are_refused(db: Db) {
    let Some(t) = start(db, 2_000, 1).await else {
        return;
    };
    let (mut a, mut b) = (Browser::new(&t), Browser::new(&t));
    a.sign_up("lim").await;
    b.sign_up("lou").await;
    let first = game(&mut a, &mut b, &["e4", "e5"], true).await;
    let second = game(&mut a, &mut b, &["d4", "d5"], true).await;
    let (s, v) = a
        .post(&format!("/api/games/{first}/analysis"), json!({}))
        .await;
    assert_eq!(s, StatusCode::ACCEPTED, "{v}");
    let (s, e) = a
        .post(&format!("/api/games/{second}/analysis"), json!({}))
        .await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS, "{e}");
    assert_eq!(e["error"], "analysis_limit");
    assert!(e["message"].as_str().unwrap().contains("at most 1 "), "{e}");
    // Nothing was queued for the second game; the first is still answered.
    let (s, _) = a.get(&format!("/api/games/{second}/analysis")).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (s, _) = a
        .post(&format!("/api/games/{first}/analysis"), json!({}))
        .await;
    assert_eq!(s, StatusCode::OK);
    let (s, e) = a.post("/api/games/nosuchgame/analysis", json!({})).await;
    assert_eq!(s, StatusCode::NOT_FOUND, "{e}");
}

async fn an_imported_game_is_analysed_to_its_mate(db: Db) {
    let Some(t) = start(db, 5_000, 30).await else {
        return;
    };
    let mut a = Browser::new(&t);
    a.sign_up("imp").await;
    let (s, r) = a
        .post(
            "/api/imports",
            json!({"pgn": "[White \"A\"]\n[Black \"B\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n"}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{r}");
    let id = r["imported"][0]["id"].as_str().unwrap().to_owned();
    let (s, v) = a
        .post(&format!("/api/games/{id}/analysis"), json!({}))
        .await;
    assert_eq!(s, StatusCode::ACCEPTED, "{v}");
    let done = until_done(&mut a, &id).await;
    assert_eq!(done["progress"], json!({"done": 5, "total": 5}));
    // The last position is the mate: no best move, `{"mate": 0}` (the side to move is mated).
    assert_eq!(done["positions"][4]["eval"], json!({"mate": 0}));
    assert_eq!(done["positions"][4]["best"], Value::Null);
    assert_eq!(done["positions"][3]["eval"], json!({"mate": -1}));
    assert_eq!(done["moves"][2]["mark"], "blunder", "{done}");
    let pgn = t
        .http
        .get(t.url(&format!("/api/games/{id}/pgn?evals=true")))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap()
        .replace('\n', " ");
    assert!(pgn.contains("g4 $4 {[%eval #-1]}"), "{pgn}");
    // No evaluation after the mate.
    assert_eq!(pgn.matches("[%eval ").count(), 3, "{pgn}");
}

/// Requests for several games at once by one player: the limit holds although every request
/// counted the player's analyses before any was stored (the count and the insert are one
/// step).
async fn simultaneous_requests_never_exceed_the_limit(db: Db) {
    let Some(t) = start(db, 2_000, 2).await else {
        return;
    };
    let (mut a, mut b) = (Browser::new(&t), Browser::new(&t));
    a.sign_up("sim").await;
    b.sign_up("sam").await;
    let openings = [
        ["e4", "e5"],
        ["d4", "d5"],
        ["c4", "c5"],
        ["Nf3", "Nf6"],
        ["g3", "g6"],
        ["b3", "b6"],
    ];
    let mut ids = Vec::new();
    for moves in &openings {
        ids.push(game(&mut a, &mut b, moves, true).await);
    }
    let requests: Vec<_> = ids
        .iter()
        .map(|id| {
            let mut same_player = a.clone();
            let path = format!("/api/games/{id}/analysis");
            tokio::spawn(async move { same_player.post(&path, json!({})).await })
        })
        .collect();
    let mut statuses = Vec::new();
    for r in requests {
        let (s, v) = r.await.unwrap();
        if s == StatusCode::TOO_MANY_REQUESTS {
            assert_eq!(v["error"], "analysis_limit", "{v}");
        }
        statuses.push(s);
    }
    let accepted = statuses
        .iter()
        .filter(|&&s| s == StatusCode::ACCEPTED)
        .count();
    let refused = statuses
        .iter()
        .filter(|&&s| s == StatusCode::TOO_MANY_REQUESTS)
        .count();
    assert_eq!((accepted, refused), (2, 4), "{statuses:?}");
    // Exactly the accepted ones were stored.
    let mut stored = 0;
    for id in &ids {
        let (s, _) = a.get(&format!("/api/games/{id}/analysis")).await;
        stored += usize::from(s == StatusCode::OK);
    }
    assert_eq!(stored, 2);
}

both_backends!(
    an_imported_game_is_analysed_to_its_mate,
    analysis_is_queued_stored_and_marks_the_blunder,
    analysis_resumes_after_a_restart,
    analyses_beyond_the_daily_limit_are_refused,
    simultaneous_requests_never_exceed_the_limit,
);
