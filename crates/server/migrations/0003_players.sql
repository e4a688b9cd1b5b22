-- Players (issue 14): accounts, sessions, personal API tokens, ratings per category, and the
-- players and rating changes of a game. Portable types only (SQLite and PostgreSQL).
CREATE TABLE accounts (
    id             TEXT PRIMARY KEY,          -- random, never shown
    username       TEXT NOT NULL,             -- as the player wrote it
    username_key   TEXT NOT NULL UNIQUE,      -- lower case: names are unique ignoring case
    password_hash  TEXT NOT NULL,             -- argon2id, PHC string
    created_at     BIGINT NOT NULL,           -- unix ms
    closed_at      BIGINT                     -- set when the account is closed
);

CREATE TABLE sessions (
    hash        TEXT PRIMARY KEY,             -- SHA-256 of the cookie's secret
    account_id  TEXT NOT NULL REFERENCES accounts (id),
    created_at  BIGINT NOT NULL,
    expires_at  BIGINT NOT NULL
);
CREATE INDEX sessions_account ON sessions (account_id);

CREATE TABLE api_tokens (
    id            TEXT PRIMARY KEY,
    hash          TEXT NOT NULL UNIQUE,       -- SHA-256 of the token
    account_id    TEXT NOT NULL REFERENCES accounts (id),
    description   TEXT NOT NULL,
    created_at    BIGINT NOT NULL,
    last_used_at  BIGINT
);
CREATE INDEX api_tokens_account ON api_tokens (account_id);

-- Glicko-2 ratings, one row per account and category once the account has played it rated.
CREATE TABLE ratings (
    account_id   TEXT NOT NULL REFERENCES accounts (id),
    category     TEXT NOT NULL,               -- bullet | blitz | rapid | standard | correspondence | chess960
    rating       DOUBLE PRECISION NOT NULL,
    rd           DOUBLE PRECISION NOT NULL,
    volatility   DOUBLE PRECISION NOT NULL,
    games        BIGINT NOT NULL,             -- rated games played in the category
    last_played  BIGINT NOT NULL,             -- unix ms of the last rated game
    PRIMARY KEY (account_id, category)
);
CREATE INDEX ratings_board ON ratings (category, rating);

-- A seat held by an account; NULL for an anonymous seat (or the computer's).
ALTER TABLE games ADD COLUMN white_account TEXT REFERENCES accounts (id);
ALTER TABLE games ADD COLUMN black_account TEXT REFERENCES accounts (id);
ALTER TABLE games ADD COLUMN rated BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN category TEXT;              -- rating category, NULL when untimed
-- Ratings when the game started (rated games), and their provisional flags (0/1).
ALTER TABLE games ADD COLUMN white_rating BIGINT;
ALTER TABLE games ADD COLUMN black_rating BIGINT;
ALTER TABLE games ADD COLUMN white_provisional BIGINT;
ALTER TABLE games ADD COLUMN black_provisional BIGINT;
-- The rating changes, written in the transaction that stores the game's last event.
ALTER TABLE games ADD COLUMN white_rating_diff BIGINT;
ALTER TABLE games ADD COLUMN black_rating_diff BIGINT;
-- The game a rematch of this one started (set once, when the rematch is accepted).
ALTER TABLE games ADD COLUMN rematch_id TEXT;
CREATE INDEX games_white_account ON games (white_account, created_at);
CREATE INDEX games_black_account ON games (black_account, created_at);
