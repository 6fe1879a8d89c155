-- Learning from a repository's own history (issue 18): what was learned from its closed issues, shared by
-- every instance of a fleet (each caches it and reloads it when `version` changes), and a flag asking the
-- backfill to learn before it lists the open issues again.
CREATE TABLE IF NOT EXISTS repository_calibrations (
  repository text PRIMARY KEY,          -- "owner/name", lower case
  display_name text NOT NULL,           -- "Owner/Name" as GitHub spells it
  version integer NOT NULL DEFAULT 1,   -- bumped on every learning run: instances reload on a change
  closed_issues integer NOT NULL,       -- closed issues read (at most the last 1,000, pull requests left out)
  labelled integer NOT NULL,            -- of them, with a label naming a kind
  decided integer NOT NULL,             -- of them, closed as completed or not planned
  used boolean NOT NULL,                -- an adjustment beat the shipped model and is applied
  calibration text NOT NULL,            -- JSON: the adjustments (src/core/offline/calibration.ts)
  decisions text NOT NULL,              -- JSON: why each adjustment was kept or not, with held-out figures
  learned_at timestamptz NOT NULL DEFAULT now()
);

ALTER TABLE backlog_repositories ADD COLUMN IF NOT EXISTS learn_requested boolean NOT NULL DEFAULT false;
