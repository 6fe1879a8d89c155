-- The backlog (issue 17): every open issue of an installed repository with its latest report, and one row per
-- repository for its backfill (the cursor, the progress, and which instance holds it).
CREATE TABLE IF NOT EXISTS backlog_tasks (
  repository text NOT NULL,            -- "owner/name", lower case (GitHub's names are case-insensitive)
  number integer NOT NULL,
  title text NOT NULL,
  url text NOT NULL,
  state text NOT NULL DEFAULT 'open',  -- open | closed (a closed issue leaves the board)
  score real NOT NULL,
  approved boolean NOT NULL,
  needs_human boolean NOT NULL,
  kind text NOT NULL,
  personas text NOT NULL,              -- JSON: { revenue, architect, ux, product, marketing }
  report text NOT NULL,                -- JSON: the whole report, as REST returns it
  content_hash text NOT NULL,          -- of title and body: an unchanged issue is not scored again
  issue_created_at timestamptz,
  issue_updated_at timestamptz,
  scored_at timestamptz NOT NULL DEFAULT now(),
  seen_at timestamptz NOT NULL DEFAULT now(), -- last listed open by a backfill: older ones were closed meanwhile
  PRIMARY KEY (repository, number)
);
CREATE INDEX IF NOT EXISTS backlog_tasks_rank ON backlog_tasks (repository, state, score DESC, number);

CREATE TABLE IF NOT EXISTS backlog_repositories (
  repository text PRIMARY KEY,
  display_name text NOT NULL,          -- "Owner/Name" as GitHub spells it
  installation_id bigint,              -- null until known (the admin CLI may queue a repository by name)
  private boolean,                     -- null until known; an unknown repository is treated as private
  state text NOT NULL DEFAULT 'queued',-- queued | running | done
  next_url text,                       -- the backfill's cursor: the next page of GET /repos/{o}/{r}/issues
  done integer NOT NULL DEFAULT 0,
  total integer NOT NULL DEFAULT 0,
  etags text NOT NULL DEFAULT '{}',    -- JSON: page URL -> { etag, next, numbers } for conditional re-runs
  lease_owner text,                    -- the instance running it, until lease_until
  lease_until timestamptz,
  not_before timestamptz,              -- paused for GitHub's rate limit or the daily budget until then
  last_error text,
  requested_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,              -- when this run left the queue
  finished_at timestamptz
);

-- Reports made by the backfill under a model, per installation and UTC day (`backlog-budget`).
CREATE TABLE IF NOT EXISTS backlog_budget (
  installation_id bigint NOT NULL,
  day text NOT NULL,
  used integer NOT NULL DEFAULT 0,
  PRIMARY KEY (installation_id, day)
);
