-- Requests per minute by plan, shared by every instance on one database (when there is no Redis): one row per
-- limited subject holding its "theoretical arrival time" (GCRA), in milliseconds since the epoch.
CREATE TABLE IF NOT EXISTS rate_limits (
  subject text PRIMARY KEY,
  tat_ms bigint NOT NULL
);
