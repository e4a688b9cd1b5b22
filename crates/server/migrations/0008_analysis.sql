-- Computer analysis (issue 17): one job per game in a first-in first-out queue, and each
-- analysed position's result stored as soon as it is computed (a restart resumes from there).
-- Portable types only (SQLite and PostgreSQL).
CREATE TABLE analyses (
    game_id       TEXT PRIMARY KEY,             -- the game (played or imported)
    state         TEXT NOT NULL,                -- queued | running | done | failed
    requested_by  TEXT NOT NULL REFERENCES accounts (id),
    requested_at  BIGINT NOT NULL,              -- unix ms; the queue's order
    engine        TEXT NOT NULL,                -- the engine's name as shown: arbiter 0.1.0, Stockfish 15.1
    engine_key    TEXT NOT NULL,                -- '' built-in, else the configured external engine's name
    search_limit  TEXT NOT NULL,                -- JSON: {"depth":N} and/or {"nodes":N} per position
    initial_fen   TEXT NOT NULL,                -- the game as analysed: start position …
    chess960      BIGINT NOT NULL,              -- … 1 for Chess960 …
    moves         TEXT NOT NULL,                -- … and its moves, UCI, space separated
    total         BIGINT NOT NULL,              -- positions in the game: moves + 1
    done          BIGINT NOT NULL,              -- positions analysed and stored
    error         TEXT,                         -- why it failed
    started_at    BIGINT,
    finished_at   BIGINT
);
CREATE INDEX analyses_queue ON analyses (state, requested_at, game_id);
CREATE INDEX analyses_requester ON analyses (requested_by, requested_at);

CREATE TABLE analysis_positions (
    game_id  TEXT NOT NULL REFERENCES analyses (game_id),
    ply      BIGINT NOT NULL,                   -- 0: the start position
    data     TEXT NOT NULL,                     -- JSON: eval (White's view), best, pv (UCI), depth, nodes
    PRIMARY KEY (game_id, ply)
);
