-- A repository's GitHub id (issue 33): the key that stays when a repository is renamed or transferred, so its
-- backlog follows it to the new name. Null until an event carrying the repository arrives.
ALTER TABLE backlog_repositories ADD COLUMN IF NOT EXISTS github_id bigint;
CREATE INDEX IF NOT EXISTS backlog_repositories_github_id ON backlog_repositories (github_id);
