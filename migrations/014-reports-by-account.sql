-- GET /reports pages an account's reports newest first, by the keyset (created_at, id): an index in that order, so a
-- page costs the page, not a scan of every account's reports.
CREATE INDEX IF NOT EXISTS reports_by_account ON reports (account_id, created_at DESC, id DESC);
