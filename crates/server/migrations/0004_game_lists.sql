-- A player's game list (issue 14, profiles): one index per seat holding everything its
-- filters read (status, termination, result, category), in time order, so that a page, a count
-- or an export batch walks one index per seat without reading the games' rows.
DROP INDEX games_white_account;
DROP INDEX games_black_account;
CREATE INDEX games_white_list ON games (white_account, created_at, id, status, termination, result, category);
CREATE INDEX games_black_list ON games (black_account, created_at, id, status, termination, result, category);
