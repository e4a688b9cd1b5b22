//! PGN import over HTTP: a multi-game PGN with one broken game (the others stored and
//! viewable, the error named with its line and column as `arbiter pgn check` names it), the
//! size limit (413, nothing stored), the imported game's PGN export (its text as imported),
//! its opening, the importer, and imported games kept out of the lobby and the profiles. On
//! SQLite, and on PostgreSQL when `ARBITER_TEST_POSTGRES_URL` is set.

mod common;

use common::{Browser, Db, T};
use reqwest::header::{CONTENT_TYPE, ORIGIN};
use reqwest::StatusCode;
use serde_json::{json, Value};

const THREE_GAMES: &str = "[Event \"Club\"]\n[Date \"2024.05.01\"]\n[White \"Ann\"]\n[Black \"Bob\"]\n[Result \"0-1\"]\n[Termination \"resignation\"]\n\n\
1. e4 e5 2. Nf3 Nc6 3. Bc4 {the Italian} (3. Bb5 a6) 3... Bc5 0-1\n\n\
[Event \"Broken\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke3 *\n\n\
[Event \"Endgame\"]\n[White \"Cy\"]\n[Black \"Di\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n[Result \"1/2-1/2\"]\n\n1. e4 Kd7 1/2-1/2\n";

async fn import(t: &T, content_type: &str, body: String) -> (StatusCode, Value) {
    let resp = t
        .http
        .post(t.url("/api/imports"))
        .header(CONTENT_TYPE, content_type)
        .header(ORIGIN, t.base.clone())
        .body(body)
        .send()
        .await
        .unwrap();
    let status = resp.status();
    (status, resp.json().await.unwrap_or(Value::Null))
}

async fn text(t: &T, path: &str) -> (StatusCode, String) {
    let resp = t.http.get(t.url(path)).send().await.unwrap();
    (resp.status(), resp.text().await.unwrap())
}

/// Held by each test that imports: they count the imported games of the whole database
/// before and after, and on PostgreSQL the database is shared by the tests running at once.
static IMPORTING: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

async fn imported_count(t: &T) -> i64 {
    let store = t.server.as_ref().unwrap().hub().store();
    sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM imported_games")
        .fetch_one(store.pool())
        .await
        .unwrap()
}

async fn multi_game_import_with_one_broken_game(db: Db) {
    let _serial = IMPORTING.lock().await;
    let Some(t) = T::new(db).await else { return };
    let before = imported_count(&t).await;
    let (s, r) = import(&t, "application/x-chess-pgn", THREE_GAMES.to_owned()).await;
    assert_eq!(s, StatusCode::CREATED, "{r}");
    let imported = r["imported"].as_array().unwrap();
    assert_eq!(imported.len(), 2, "{r}");
    // The broken game: where `arbiter pgn check` puts it (game 2, line 13, column 13: `Ke3`).
    assert_eq!(
        r["errors"],
        json!([{"game": 2, "line": 13, "column": 13,
                "message": "illegal move 'Ke3': expected a legal move for White (move 2.)"}])
    );
    assert_eq!(imported_count(&t).await, before + 2);
    let first = &imported[0];
    assert_eq!(
        (
            &first["game"],
            &first["white"],
            &first["black"],
            &first["result"]
        ),
        (&json!(1), &json!("Ann"), &json!("Bob"), &json!("0-1"))
    );
    assert_eq!(first["plies"], 6);
    assert_eq!(
        first["opening"],
        json!({"eco": "C50", "name": "Italian Game: Giuoco Piano"})
    );

    // Its page's data: imported, the PGN's result (a resignation: not from the moves), the
    // moves, no clocks, the opening.
    let id = first["id"].as_str().unwrap();
    let (s, g) = t.get(&format!("/api/games/{id}")).await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(g["imported"], true);
    assert_eq!(g["status"], "finished");
    assert_eq!(g["result"], "0-1");
    assert_eq!(g["moves"].as_array().unwrap().len(), 6);
    assert_eq!(
        g["moves"][4],
        json!({"uci": "f1c4", "san": "Bc4", "clock_ms": null})
    );
    assert_eq!(g["clocks"], json!({"white_ms": null, "black_ms": null}));
    assert_eq!(g["opening"]["eco"], "C50");
    assert_eq!(g["import"]["importer"], Value::Null);
    assert!(g["import"]["tags"]
        .as_array()
        .unwrap()
        .contains(&json!(["Termination", "resignation"])));
    assert_eq!(
        g["fen"],
        "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"
    );

    // The export is the text as imported: comments and variations kept.
    let (s, pgn) = text(&t, &format!("/api/games/{id}/pgn")).await;
    assert_eq!(s, StatusCode::OK);
    assert!(pgn.starts_with("[Event \"Club\"]"), "{pgn}");
    assert!(
        pgn.contains("3. Bc4 {the Italian} (3. Bb5 a6) 3... Bc5 0-1"),
        "{pgn}"
    );
    assert!(!pgn.contains("Broken"), "{pgn}");

    // The third game, from a FEN.
    let third = &imported[1];
    assert_eq!(third["game"], 3);
    assert_eq!(third["opening"], Value::Null);
    let (_, g) = t
        .get(&format!("/api/games/{}", third["id"].as_str().unwrap()))
        .await;
    assert_eq!(g["initial_fen"], "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    assert_eq!(g["result"], "1/2-1/2");

    // Not in the lobby; an imported game cannot be joined or played.
    let (_, lobby) = t.get("/api/games").await;
    let listed = |k: &str| {
        lobby[k]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["id"] == first["id"])
    };
    assert!(!listed("open") && !listed("playing"), "{lobby}");
    let (s, _) = t
        .post(&format!("/api/games/{id}/join"), None, json!({}))
        .await;
    assert_eq!(s, StatusCode::NOT_FOUND);
}

async fn json_body_and_importer_and_no_game(db: Db) {
    let _serial = IMPORTING.lock().await;
    let Some(t) = T::new(db).await else { return };
    let mut b = Browser::new(&t);
    let name = b.sign_up("imp").await;
    let (s, r) = b
        .post(
            "/api/imports",
            json!({"pgn": "[White \"X\"]\n\n1. d4 d5 2. c4 e6 *"}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{r}");
    assert_eq!(r["errors"], json!([]));
    let id = r["imported"][0]["id"].as_str().unwrap().to_owned();
    let (_, g) = b.get(&format!("/api/games/{id}")).await;
    assert_eq!(g["import"]["importer"], name.as_str());
    assert_eq!(
        g["opening"],
        json!({"eco": "D30", "name": "Queen's Gambit Declined"})
    );
    // An imported game is not the importer's game: the profile lists none.
    let (s, page) = b.get(&format!("/api/users/{name}/games")).await;
    assert_eq!(s, StatusCode::OK, "{page}");
    assert_eq!(page["total"], 0, "{page}");

    // Nothing importable: 400 with the errors; nothing stored.
    let before = imported_count(&t).await;
    let (s, r) = import(&t, "text/plain", "1. e4 e5 2. Qxf7 *".into()).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{r}");
    assert_eq!(r["error"], "no_game_imported");
    assert_eq!(r["errors"][0]["line"], 1);
    assert_eq!(r["errors"][0]["column"], 13);
    let (s, r) = import(&t, "text/plain", "  \n".into()).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{r}");
    let (s, r) = import(&t, "image/png", "1. e4 *".into()).await;
    assert_eq!(
        (s, &r["error"]),
        (StatusCode::BAD_REQUEST, &json!("bad_content_type"))
    );
    assert_eq!(imported_count(&t).await, before);
}

async fn size_limit_refuses_and_stores_nothing(db: Db) {
    let _serial = IMPORTING.lock().await;
    let Some(t) = T::new(db).await else { return };
    let before = imported_count(&t).await;
    let game = "[Event \"Big\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n";
    let big = game.repeat(1024 * 1024 / game.len() + 1);
    assert!(big.len() > 1024 * 1024);
    let (s, r) = import(&t, "application/x-chess-pgn", big).await;
    assert_eq!(s, StatusCode::PAYLOAD_TOO_LARGE, "{r}");
    assert_eq!(r["error"], "pgn_too_large");
    assert!(r["message"].as_str().unwrap().contains("1024 KiB"), "{r}");
    assert_eq!(imported_count(&t).await, before);
    // More than 100 games: the first 100 imported, the rest named as one error.
    let (s, r) = import(&t, "text/plain", game.repeat(101)).await;
    assert_eq!(s, StatusCode::CREATED);
    assert_eq!(r["imported"].as_array().unwrap().len(), 100);
    assert_eq!(r["errors"][0]["game"], 101);
}

async fn opening_of_a_played_game_in_view_pgn_and_profile(db: Db) {
    let Some(t) = T::new(db).await else { return };
    let mut a = Browser::new(&t);
    let mut b = Browser::new(&t);
    let name = a.sign_up("opa").await;
    b.sign_up("opb").await;
    let (s, created) = a
        .post(
            "/api/games",
            json!({"time_control": "5+3", "color": "white"}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap().to_owned();
    let (s, _) = b.post(&format!("/api/games/{id}/join"), json!({})).await;
    assert_eq!(s, StatusCode::OK);
    // 1. c4 e6 2. d4 d5: the Queen's Gambit Declined by transposition.
    for (i, m) in ["c4", "e6", "d4", "d5"].iter().enumerate() {
        if i % 2 == 0 {
            a.mv(&id, m).await
        } else {
            b.mv(&id, m).await
        };
    }
    let (_, g) = a.get(&format!("/api/games/{id}")).await;
    assert_eq!(
        g["opening"],
        json!({"eco": "D30", "name": "Queen's Gambit Declined"})
    );
    assert_eq!(g["imported"], false);
    let (s, e) = b.post(&format!("/api/games/{id}/resign"), json!({})).await;
    assert_eq!(s, StatusCode::OK, "{e}");
    let (_, pgn) = text(&t, &format!("/api/games/{id}/pgn")).await;
    assert!(pgn.contains("[ECO \"D30\"]\n"), "{pgn}");
    assert!(
        pgn.contains("[Opening \"Queen's Gambit Declined\"]\n"),
        "{pgn}"
    );
    // The list: looked up on the first listing, then read from the row.
    for _ in 0..2 {
        let (s, page) = a.get(&format!("/api/users/{name}/games")).await;
        assert_eq!(s, StatusCode::OK, "{page}");
        assert_eq!(page["games"][0]["opening"]["eco"], "D30", "{page}");
    }
    let store = t.server.as_ref().unwrap().hub().store();
    let stored: Option<String> = sqlx::query_scalar("SELECT opening_name FROM games WHERE id = $1")
        .bind(&id)
        .fetch_one(store.pool())
        .await
        .unwrap();
    assert_eq!(stored.as_deref(), Some("Queen's Gambit Declined"));
    let (_, export) = text(&t, &format!("/api/users/{name}/games.pgn")).await;
    assert!(export.contains("[ECO \"D30\"]"), "{export}");
}

both_backends!(
    multi_game_import_with_one_broken_game,
    json_body_and_importer_and_no_game,
    size_limit_refuses_and_stores_nothing,
    opening_of_a_played_game_in_view_pgn_and_profile,
);
