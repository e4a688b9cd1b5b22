-- lichess's API (issue 32): challenges between named players, and the games' chat rooms.
-- Portable types only (SQLite and PostgreSQL).
CREATE TABLE challenges (
    id              TEXT PRIMARY KEY,             -- also the id of the game it starts (lichess-bot relies on it)
    challenger      TEXT NOT NULL REFERENCES accounts (id),
    dest            TEXT NOT NULL REFERENCES accounts (id),
    status          TEXT NOT NULL,                -- created | accepted | declined | canceled
    time_control    TEXT NOT NULL,                -- native form: 5+3, 45s+0, 2d/move, untimed
    variant         TEXT NOT NULL,                -- standard | chess960
    rated           BIGINT NOT NULL,              -- 1 rated, 0 casual
    color           TEXT NOT NULL,                -- the challenger's choice: white | black | random
    final_color     TEXT NOT NULL,                -- the challenger's colour, drawn at creation for random
    fen             TEXT,                         -- a start position (lichess's fromPosition)
    decline_reason  TEXT,                         -- lichess's reason key when declined
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL
);
CREATE INDEX challenges_dest ON challenges (dest, status, created_at);
CREATE INDEX challenges_challenger ON challenges (challenger, status, created_at);

CREATE TABLE chat_lines (
    id          TEXT PRIMARY KEY,
    game_id     TEXT NOT NULL,
    room        TEXT NOT NULL,                    -- player | spectator
    account_id  TEXT NOT NULL REFERENCES accounts (id),
    username    TEXT NOT NULL,                    -- as written when the line was sent
    text        TEXT NOT NULL,
    created_at  BIGINT NOT NULL
);
CREATE INDEX chat_lines_game ON chat_lines (game_id, room, created_at);
