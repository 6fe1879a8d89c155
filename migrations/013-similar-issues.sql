-- Similar issues (issue 32): per repository, the text of its open issues and of the closed ones the App has read
-- (learning), what the similar-issues index is built from (src/backlog/similar-store.ts). The text is kept, not
-- term vectors: the method (docs/similar-issues.md) can change without a migration, and an instance builds its
-- in-memory index of a repository from these rows, then follows `indexed_at` for changes made by others. Rows of
-- one repository are only ever compared with that repository's (no vocabulary is shared across repositories).
CREATE TABLE IF NOT EXISTS similar_issues (
  repository text NOT NULL,             -- "owner/name", lower case
  number integer NOT NULL,
  title text NOT NULL,
  url text NOT NULL,
  state text NOT NULL DEFAULT 'open',   -- open | closed
  state_reason text,                    -- closed: completed | not_planned | duplicate | null
  body text NOT NULL,                   -- the author's text without template prompts, at most 32 KiB
  indexed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (repository, number)
);
CREATE INDEX IF NOT EXISTS similar_issues_changes ON similar_issues (repository, indexed_at);
