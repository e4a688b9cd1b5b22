-- A seat played by the server itself ("play the computer"): NULL for a game between people,
-- otherwise JSON naming the seat and the player, e.g. {"seat":"black","player":{"engine":{"level":5}}}.
-- The seat's token hash is set as for a person (a token nobody holds), so the seat counts as taken.
ALTER TABLE games ADD COLUMN computer TEXT;
