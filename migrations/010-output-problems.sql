-- What an output met (a board the App cannot reach, labels it may not write), per repository and output, kept
-- until that output works again: every instance of a fleet lists them in its answer to `/score` and `/score help`,
-- whichever instance met them.
CREATE TABLE IF NOT EXISTS output_problems (
  repository text NOT NULL,   -- "owner/name", lower case
  output text NOT NULL,       -- labels, project or check
  message text NOT NULL,
  noted_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (repository, output)
);
