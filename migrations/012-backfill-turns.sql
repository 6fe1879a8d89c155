-- Issue 33: repositories take turns in the backfill queue, and a run lists no page twice.
-- turn_at: when a running backfill last handed its turn back (after a page, with another repository waiting); the
-- queue serves the oldest of turn_at or requested_at first. NULL until a turn is handed back.
ALTER TABLE backlog_repositories ADD COLUMN IF NOT EXISTS turn_at timestamptz;
-- listed_pages: JSON array, short hashes of the pages this run has listed (a Link back to one is refused, and
-- their count is capped), kept with the cursor so a resumed run keeps the same rules.
ALTER TABLE backlog_repositories ADD COLUMN IF NOT EXISTS listed_pages text NOT NULL DEFAULT '[]';
