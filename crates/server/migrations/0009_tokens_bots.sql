-- lichess's API (issue: lichess compatibility): the scopes a personal API token was granted,
-- and an account's title. Portable types only (SQLite and PostgreSQL).

-- Comma-separated lichess scope names (board:play,bot:play,...). NULL: a token made before
-- scopes existed; it keeps working for the native API and holds every lichess play scope.
ALTER TABLE api_tokens ADD COLUMN scopes TEXT;

-- NULL, or 'BOT': an account upgraded to a bot account (for good).
ALTER TABLE accounts ADD COLUMN title TEXT;
