-- Arbiter server schema, identical for SQLite and PostgreSQL (only portable types).
-- A game is its creation row plus an append-only, numbered event log; the state of a
-- game is rebuilt by replaying the log through arbiter-game (deterministic, time passed in).
CREATE TABLE games (
    id            TEXT PRIMARY KEY,
    created_at    BIGINT NOT NULL,          -- unix ms
    updated_at    BIGINT NOT NULL,          -- unix ms
    spec          TEXT NOT NULL,            -- JSON: time control, variant, start FEN, rules
    time_control  TEXT NOT NULL,
    variant       TEXT NOT NULL,
    white_hash    TEXT,                     -- SHA-256 of the seat token, NULL while the seat is free
    black_hash    TEXT,
    status        TEXT NOT NULL,            -- waiting | playing | finished | adjourned
    result        TEXT,                     -- 1-0 | 0-1 | 1/2-1/2 | ... once finished
    termination   TEXT,
    last_seq      BIGINT NOT NULL DEFAULT 0 -- number of the last event
);
CREATE INDEX games_status ON games (status, created_at);

CREATE TABLE events (
    game_id     TEXT NOT NULL REFERENCES games (id),
    seq         BIGINT NOT NULL,            -- 1, 2, 3 … per game; the WebSocket event number
    kind        TEXT NOT NULL,
    t_ms        BIGINT NOT NULL,            -- game time (ms since the game was created, downtime excluded)
    data        TEXT NOT NULL,              -- JSON of the event as clients see it
    created_at  BIGINT NOT NULL,            -- unix ms (wall clock, for the record)
    PRIMARY KEY (game_id, seq)
);
