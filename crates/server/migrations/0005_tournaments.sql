-- Tournaments (issue 15): a tournament is its row plus an append-only, numbered event log,
-- replayed to rebuild its state (like a game). Each round's pairing is also stored as rows, in
-- the transaction of the round's `round_paired` event, so that the database itself refuses a
-- player paired twice in one round.
CREATE TABLE tournaments (
    id          TEXT PRIMARY KEY,
    created_at  BIGINT NOT NULL,          -- unix ms
    updated_at  BIGINT NOT NULL,          -- unix ms
    director    TEXT NOT NULL REFERENCES accounts (id),
    name        TEXT NOT NULL,
    status      TEXT NOT NULL,            -- upcoming | running | finished
    starts_at   BIGINT,                   -- unix ms, NULL: started by the director
    last_seq    BIGINT NOT NULL DEFAULT 0 -- number of the last event
);
CREATE INDEX tournaments_status ON tournaments (status, created_at);

CREATE TABLE tournament_events (
    tournament_id  TEXT NOT NULL REFERENCES tournaments (id),
    seq            BIGINT NOT NULL,       -- 1, 2, 3 … per tournament; the WebSocket event number
    kind           TEXT NOT NULL,
    data           TEXT NOT NULL,         -- JSON of the event
    created_at     BIGINT NOT NULL,       -- unix ms
    PRIMARY KEY (tournament_id, seq)
);

-- One row per player per paired round: a board's two players, or a bye.
CREATE TABLE tournament_pairings (
    tournament_id  TEXT NOT NULL REFERENCES tournaments (id),
    round          BIGINT NOT NULL,
    player         BIGINT NOT NULL,       -- start number
    board          BIGINT NOT NULL,       -- from 1; 0 for a bye
    game_id        TEXT,                  -- the online game, if any
    CONSTRAINT tournament_pairings_once UNIQUE (tournament_id, round, player)
);
