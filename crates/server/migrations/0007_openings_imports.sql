-- Opening names (issue 17): the ECO code and name of a finished game's line, stored once the
-- game is finished so that a player's game list reads them from the row (filled on the first
-- listing of the game; '' = looked up, no name).
ALTER TABLE games ADD COLUMN opening_eco TEXT;
ALTER TABLE games ADD COLUMN opening_name TEXT;

-- Imported games (PGN import, issue 17): kept apart from played games — no seats, clocks or
-- events, never in the lobby, ratings or players' profiles. Ids share the games' id space.
CREATE TABLE imported_games (
    id            TEXT PRIMARY KEY,
    created_at    BIGINT NOT NULL,              -- unix ms of the import
    importer      TEXT REFERENCES accounts (id), -- NULL: imported anonymously
    variant       TEXT NOT NULL,                -- standard | chess960
    initial_fen   TEXT NOT NULL,
    moves         TEXT NOT NULL,                -- JSON [{"uci","san"}] of the main line
    tags          TEXT NOT NULL,                -- JSON [[name, value]] in the PGN's order
    result        TEXT NOT NULL,                -- the PGN's result: 1-0 | 0-1 | 1/2-1/2 | *
    termination   TEXT,                         -- the PGN's Termination tag, if any
    opening_eco   TEXT,
    opening_name  TEXT,
    pgn           TEXT NOT NULL                 -- the game's text as imported (comments, variations)
);
CREATE INDEX imported_games_importer ON imported_games (importer, created_at);
