-- Cluster mode (several `arbiter serve --cluster` nodes over one PostgreSQL): the nodes'
-- leases and each live game's owner. The columns exist on SQLite too (one schema) and stay
-- NULL there: a single process owns every game.
CREATE TABLE cluster_nodes (
    node_id     TEXT PRIMARY KEY,
    epoch       BIGINT NOT NULL,            -- this incarnation's fencing token, never reused
    lease_until BIGINT NOT NULL,            -- unix ms on the database's clock
    addr        TEXT,                       -- where the node listens (for operators)
    started_at  BIGINT NOT NULL             -- unix ms on the database's clock
);
CREATE UNIQUE INDEX cluster_nodes_epoch ON cluster_nodes (epoch);

ALTER TABLE games ADD COLUMN owner_node TEXT;      -- the node running the game's actor
ALTER TABLE games ADD COLUMN owner_epoch BIGINT;   -- its epoch when it took the game
CREATE INDEX games_owner ON games (owner_epoch);

ALTER TABLE events ADD COLUMN epoch BIGINT;        -- the epoch of the node that committed it
