//! `GET /api/openings?fen=…`: the opening of a position (by position, so a transposition
//! finds the name), null for an unnamed one, 400 naming the fault for a bad FEN.

mod common;

use common::{Db, T};
use reqwest::StatusCode;
use serde_json::{json, Value};

fn q(fen: &str) -> String {
    format!(
        "/api/openings?fen={}",
        fen.replace(' ', "%20").replace('/', "%2F")
    )
}

async fn opening_by_fen(db: Db) {
    let Some(t) = T::new(db).await else { return };
    // After 1. e4 e5 2. Nf3 Nc6 3. Bc4.
    let italian = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3";
    let (s, o) = t.get(&q(italian)).await;
    assert_eq!(s, StatusCode::OK, "{o}");
    assert_eq!(o, json!({"eco": "C50", "name": "Italian Game"}));
    // Counters left out, and other counters (reached by another move order): the same name.
    let (_, o) = t
        .get(&q(
            "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq -",
        ))
        .await;
    assert_eq!(o["eco"], "C50");
    let (_, o) = t
        .get(&q(
            "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 7 5",
        ))
        .await;
    assert_eq!(o["eco"], "C50");
    // The start position has no name.
    let (s, o) = t
        .get(&q(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ))
        .await;
    assert_eq!((s, o), (StatusCode::OK, Value::Null));
    let (s, e) = t
        .get(&q(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        ))
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{e}");
    assert_eq!(e["error"], "bad_fen");
    assert!(e["message"].as_str().unwrap().contains("field 2"), "{e}");
    let (s, e) = t.get("/api/openings").await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{e}");
}

both_backends!(opening_by_fen);
