//! Profiles over HTTP: a player's counts, games in progress, game list (newest first, paged,
//! filtered by speed and result, checked against the games the test played), the PGN export
//! across several batches, and the leaderboard's rules (RD ≤ 75 as shown now, played in the
//! last 4 weeks, closed accounts left out). On SQLite, and on PostgreSQL when
//! `ARBITER_TEST_POSTGRES_URL` is set.

mod common;

use arbiter_server::Store;
use common::{Browser, Db, T};
use reqwest::StatusCode;
use serde_json::{json, Value};

#[derive(Debug, Clone, Copy, PartialEq)]
enum Outcome {
    Win,
    Draw,
    Loss,
}

/// A game between `a` (White) and `b` played to `outcome` from `a`'s side, or aborted.
async fn play(
    a: &mut Browser,
    b: &mut Browser,
    tc: &str,
    rated: bool,
    outcome: Option<Outcome>,
) -> String {
    let (s, created) = a
        .post(
            "/api/games",
            json!({"time_control": tc, "rated": rated, "color": "white"}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap().to_owned();
    let (s, joined) = b.post(&format!("/api/games/{id}/join"), json!({})).await;
    assert_eq!(s, StatusCode::OK, "{joined}");
    let Some(outcome) = outcome else {
        let (s, e) = a.post(&format!("/api/games/{id}/abort"), json!({})).await;
        assert_eq!(s, StatusCode::OK, "{e}");
        return id;
    };
    a.mv(&id, "e4").await;
    b.mv(&id, "e5").await;
    let path = |what: &str| format!("/api/games/{id}/{what}");
    let (s, e) = match outcome {
        Outcome::Win => b.post(&path("resign"), json!({})).await,
        Outcome::Loss => a.post(&path("resign"), json!({})).await,
        Outcome::Draw => {
            let (s, e) = a.post(&path("draw"), json!({"action": "offer"})).await;
            assert_eq!(s, StatusCode::OK, "{e}");
            b.post(&path("draw"), json!({"action": "accept"})).await
        }
    };
    assert_eq!(s, StatusCode::OK, "{e}");
    id
}

fn ids(page: &Value) -> Vec<String> {
    page["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_owned())
        .collect()
}

async fn profile_counts_list_filters_and_pages(db: Db) {
    let Some(t) = T::new(db).await else { return };
    let (mut a, mut b) = (Browser::new(&t), Browser::new(&t));
    let (na, nb) = (a.sign_up("pia").await, b.sign_up("pat").await);
    // (id, speed, outcome for a), oldest first.
    let mut played: Vec<(String, &str, Outcome)> = Vec::new();
    let cycle = [Outcome::Win, Outcome::Loss, Outcome::Draw, Outcome::Win];
    for i in 0..23 {
        let (tc, speed, rated) = match i % 3 {
            0 => ("3+2", "blitz", true),
            1 => ("1+0", "bullet", false),
            _ => ("15+10", "rapid", true),
        };
        let outcome = cycle[i % cycle.len()];
        let id = play(&mut a, &mut b, tc, rated, Some(outcome)).await;
        played.push((id, speed, outcome));
    }
    let aborted = play(&mut a, &mut b, "3+2", false, None).await;
    // A game in progress.
    let (s, created) = a
        .post(
            "/api/games",
            json!({"time_control": "30+0", "color": "black"}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED);
    let live = created["id"].as_str().unwrap().to_owned();
    b.post(&format!("/api/games/{live}/join"), json!({})).await;

    // The profile, looked up in another letter case.
    let (s, p) = a.get(&format!("/api/users/{}", na.to_uppercase())).await;
    assert_eq!(s, StatusCode::OK, "{p}");
    assert_eq!(p["username"], na.as_str());
    assert_eq!(p["closed"], false);
    let count = |o: Outcome| played.iter().filter(|g| g.2 == o).count() as i64;
    assert_eq!(p["count"]["games"], played.len() as i64);
    assert_eq!(p["count"]["wins"], count(Outcome::Win));
    assert_eq!(p["count"]["draws"], count(Outcome::Draw));
    assert_eq!(p["count"]["losses"], count(Outcome::Loss));
    assert_eq!(p["playing"], json!([live]));
    let rated_blitz = played.iter().filter(|g| g.1 == "blitz").count() as i64;
    assert_eq!(p["ratings"]["blitz"]["games"], rated_blitz);
    assert_eq!(
        p["ratings"]["bullet"]["games"], 0,
        "casual games are not rated"
    );
    // The opponent's counts mirror them.
    let (_, q) = a.get(&format!("/api/users/{nb}")).await;
    assert_eq!(q["count"]["wins"], count(Outcome::Loss));
    assert_eq!(q["count"]["losses"], count(Outcome::Win));

    // The list: the live game first, then the finished ones newest first; no aborted game.
    let mut expected: Vec<String> = played.iter().rev().map(|g| g.0.clone()).collect();
    expected.insert(0, live.clone());
    let (s, page1) = a.get(&format!("/api/users/{na}/games")).await;
    assert_eq!(s, StatusCode::OK, "{page1}");
    assert_eq!(page1["total"], expected.len() as i64);
    assert_eq!(page1["per_page"], 20);
    let (_, page2) = a.get(&format!("/api/users/{na}/games?page=2")).await;
    let mut listed = ids(&page1);
    listed.extend(ids(&page2));
    assert_eq!(listed, expected);
    assert!(!listed.contains(&aborted));
    let first = &page1["games"][1];
    assert_eq!(first["players"]["white"]["name"], na.as_str());
    assert_eq!(first["players"]["black"]["name"], nb.as_str());
    assert_eq!(page1["games"][0]["status"], "playing");
    // A rated game carries both ratings and their changes, of opposite signs.
    let rated = page1["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["rated"] == true && g["result"] == "1-0")
        .unwrap();
    let (dw, db) = (
        rated["players"]["white"]["rating_diff"].as_i64().unwrap(),
        rated["players"]["black"]["rating_diff"].as_i64().unwrap(),
    );
    assert!(dw > 0 && db < 0, "{rated}");

    // Filters, each checked against what was played.
    for (speed, outcome, query) in [
        (Some("blitz"), None, "speed=blitz".to_owned()),
        (None, Some(Outcome::Win), "result=win".to_owned()),
        (None, Some(Outcome::Draw), "result=draw".to_owned()),
        (
            Some("rapid"),
            Some(Outcome::Loss),
            "speed=rapid&result=loss".to_owned(),
        ),
    ] {
        let want: Vec<String> = played
            .iter()
            .rev()
            .filter(|g| speed.is_none_or(|s| g.1 == s) && outcome.is_none_or(|o| g.2 == o))
            .map(|g| g.0.clone())
            .collect();
        let (s, page) = a.get(&format!("/api/users/{na}/games?{query}")).await;
        assert_eq!(s, StatusCode::OK, "{query}: {page}");
        assert_eq!(ids(&page), want, "{query}");
        assert_eq!(page["total"], want.len() as i64, "{query}");
    }
    // From the opponent's side a win of `a` is a loss.
    let (_, theirs) = a.get(&format!("/api/users/{nb}/games?result=loss")).await;
    let want: Vec<String> = played
        .iter()
        .rev()
        .filter(|g| g.2 == Outcome::Win)
        .map(|g| g.0.clone())
        .collect();
    assert_eq!(ids(&theirs), want);

    // Bad input: clear errors.
    for (path, status, code) in [
        (
            "/api/users/nobody-here-at-all/games",
            StatusCode::NOT_FOUND,
            "not_found",
        ),
        (
            "/api/users/nobody-here-at-all",
            StatusCode::NOT_FOUND,
            "not_found",
        ),
        (
            &format!("/api/users/{na}/games?page=0"),
            StatusCode::BAD_REQUEST,
            "bad_page",
        ),
        (
            &format!("/api/users/{na}/games?page=x"),
            StatusCode::BAD_REQUEST,
            "bad_page",
        ),
        (
            &format!("/api/users/{na}/games?speed=fast"),
            StatusCode::BAD_REQUEST,
            "bad_speed",
        ),
        (
            &format!("/api/users/{na}/games?result=won"),
            StatusCode::BAD_REQUEST,
            "bad_result",
        ),
        ("/api/leaderboard/fast", StatusCode::NOT_FOUND, "not_found"),
    ] {
        let (s, e) = a.get(path).await;
        assert_eq!(
            (s, e["error"].as_str()),
            (status, Some(code)),
            "{path}: {e}"
        );
    }
}

/// The text of `GET path` and its content type.
async fn text(t: &T, path: &str) -> (StatusCode, String, String) {
    let resp = t.http.get(t.url(path)).send().await.unwrap();
    let status = resp.status();
    let ctype = resp
        .headers()
        .get(reqwest::header::CONTENT_TYPE)
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default();
    (status, ctype, resp.text().await.unwrap())
}

/// The value of `tag` in each game of a PGN file, in order.
fn tag_values(pgn: &str, tag: &str) -> Vec<String> {
    let prefix = format!("[{tag} \"");
    pgn.lines()
        .filter_map(|l| l.strip_prefix(&prefix))
        .map(|v| v.trim_end_matches("\"]").to_owned())
        .collect()
}

async fn pgn_export_has_every_finished_game_newest_first(db: Db) {
    let Some(t) = T::new(db).await else { return };
    let (mut a, mut b) = (Browser::new(&t), Browser::new(&t));
    let (na, nb) = (a.sign_up("eva").await, b.sign_up("eli").await);
    // More games than one batch of the export (50), so that it pages.
    let mut finished = Vec::new();
    for i in 0..53 {
        let (tc, rated) = if i % 2 == 0 {
            ("3+2", true)
        } else {
            ("1+0", false)
        };
        let outcome = [Outcome::Win, Outcome::Draw, Outcome::Loss][i % 3];
        finished.push(play(&mut a, &mut b, tc, rated, Some(outcome)).await);
    }
    play(&mut a, &mut b, "3+2", false, None).await;
    let (s, ctype, pgn) = text(&t, &format!("/api/users/{na}/games.pgn")).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(ctype, "application/x-chess-pgn");
    let sites: Vec<String> = tag_values(&pgn, "Site")
        .into_iter()
        .map(|s| s.trim_start_matches("arbiter game ").to_owned())
        .collect();
    let newest_first: Vec<String> = finished.iter().rev().cloned().collect();
    assert_eq!(sites, newest_first);
    assert!(tag_values(&pgn, "White").iter().all(|w| w == &na));
    assert!(tag_values(&pgn, "Black").iter().all(|w| w == &nb));
    assert_eq!(tag_values(&pgn, "WhiteElo").len(), 27, "the rated games");
    assert_eq!(tag_values(&pgn, "WhiteRatingDiff").len(), 27);
    // Each game is well formed PGN with its moves and its result.
    let games = arbiter_pgn::Reader::new(pgn.as_bytes())
        .into_games()
        .collect::<Vec<_>>();
    assert_eq!(games.len(), 53);
    for g in games {
        let g = g.unwrap().expect("each exported game parses");
        assert_eq!(g.moves.len(), 2);
    }
    // By speed: only the blitz games.
    let (_, _, blitz) = text(&t, &format!("/api/users/{nb}/games.pgn?speed=blitz")).await;
    assert_eq!(tag_values(&blitz, "Site").len(), 27);
    let (s, _, _) = text(&t, "/api/users/nobody-here-at-all/games.pgn").await;
    assert_eq!(s, StatusCode::NOT_FOUND);
}

async fn leaderboard_rd_recent_play_and_open_accounts(db: Db) {
    let Some(t) = T::new(db).await else { return };
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    let day = 86_400_000i64;
    // (rating, rd, last played, closed, on the board)
    let cases = [
        (1800.0, 60.0, now - day, false, true),
        (2100.0, 80.0, now - day, false, false), // RD too high
        (1700.0, 50.0, now - 40 * day, false, false), // not played for 40 days
        (2000.0, 70.0, now - day, true, false),  // closed
        (1650.0, 74.9, now - 27 * day, false, false), // RD has grown past 75 while idle
        (1750.0, 45.0, now - 2 * day, false, true),
    ];
    let store = Store::connect(&t.db).await.unwrap();
    let mut names = Vec::new();
    for (i, (rating, rd, last, closed, _)) in cases.iter().enumerate() {
        let mut p = Browser::new(&t);
        let name = p.sign_up(&format!("lb{i}x")).await;
        sqlx::query(
            "INSERT INTO ratings (account_id, category, rating, rd, volatility, games, \
             last_played) SELECT id, 'rapid', $1, $2, 0.06, 40, $3 FROM accounts \
             WHERE username = $4",
        )
        .bind(*rating)
        .bind(*rd)
        .bind(*last)
        .bind(&name)
        .execute(store.pool())
        .await
        .unwrap();
        if *closed {
            let (s, e) = p
                .post("/api/account/close", json!({"password": "correct horse"}))
                .await;
            assert_eq!(s, StatusCode::NO_CONTENT, "{e}");
        }
        names.push(name);
    }
    let (s, board) = Browser::new(&t).get("/api/leaderboard/rapid").await;
    assert_eq!(s, StatusCode::OK, "{board}");
    let ours: Vec<&Value> = board
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| names.iter().any(|n| e["username"] == n.as_str()))
        .collect();
    let want: Vec<&str> = vec![names[0].as_str(), names[5].as_str()];
    let got: Vec<&str> = ours
        .iter()
        .map(|e| e["username"].as_str().unwrap())
        .collect();
    assert_eq!(got, want, "best first, and only the ones that qualify");
    assert_eq!(ours[0]["rating"], 1800);
    assert!(ours[0]["rd"].as_i64().unwrap() <= 75);
    // The whole board is ordered by rating.
    let ratings: Vec<i64> = board
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["rating"].as_i64().unwrap())
        .collect();
    assert!(ratings.windows(2).all(|w| w[0] >= w[1]));
    store.close().await;
}

/// Games created with both seats taken (a seek accepted, a rematch) keep the ratings their
/// players had at the start, in the list, the view after the actor has gone, and the PGN.
async fn paired_games_keep_their_start_ratings(db: Db) {
    let Some(t) = T::new(db).await else { return };
    let (mut a, mut b) = (Browser::new(&t), Browser::new(&t));
    let (na, nb) = (a.sign_up("sia").await, b.sign_up("sib").await);
    let (s, seek) = a
        .post(
            "/api/seeks",
            json!({"time_control": "3+2", "variant": "standard", "rated": true, "color": "white"}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{seek}");
    let (s, started) = b
        .post(
            &format!("/api/seeks/{}/accept", seek["id"].as_str().unwrap()),
            json!({}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{started}");
    let id = started["game"].as_str().unwrap().to_owned();
    a.mv(&id, "e4").await;
    b.mv(&id, "e5").await;
    let (s, e) = b.post(&format!("/api/games/{id}/resign"), json!({})).await;
    assert_eq!(s, StatusCode::OK, "{e}");
    // The rematch: also created with both seats taken.
    a.post(&format!("/api/games/{id}/rematch"), json!({})).await;
    let (_, r) = b.post(&format!("/api/games/{id}/rematch"), json!({})).await;
    assert_eq!(r["status"], "started", "{r}");
    let rematch = r["game"].as_str().unwrap().to_owned();

    let (_, page) = a.get(&format!("/api/users/{na}/games")).await;
    let item = |gid: &str| {
        page["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["id"] == gid)
            .cloned()
            .unwrap()
    };
    let first = item(&id);
    assert_eq!(first["players"]["white"]["rating"], 1500, "{first}");
    assert_eq!(first["players"]["black"]["rating"], 1500, "{first}");
    assert_eq!(first["players"]["white"]["provisional"], true);
    // In the rematch both start from their new ratings, colours swapped.
    let second = item(&rematch);
    let (_, prof_a) = a.get(&format!("/api/users/{na}")).await;
    let (_, prof_b) = a.get(&format!("/api/users/{nb}")).await;
    assert_eq!(second["players"]["black"]["name"], na.as_str());
    assert_eq!(
        second["players"]["black"]["rating"], prof_a["ratings"]["blitz"]["rating"],
        "{second}"
    );
    assert_eq!(
        second["players"]["white"]["rating"],
        prof_b["ratings"]["blitz"]["rating"]
    );
    let (_, _, pgn) = text(&t, &format!("/api/users/{na}/games.pgn")).await;
    assert_eq!(tag_values(&pgn, "WhiteElo"), vec!["1500"]);
    assert_eq!(tag_values(&pgn, "BlackElo"), vec!["1500"]);
}

both_backends!(
    profile_counts_list_filters_and_pages,
    pgn_export_has_every_finished_game_newest_first,
    leaderboard_rd_recent_play_and_open_accounts,
    paired_games_keep_their_start_ratings,
);
