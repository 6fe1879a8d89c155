-- Reports and webhook payloads are kept as JSON text: PostgreSQL's jsonb refuses a NUL character or a lone
-- surrogate escape, which real issue text can contain and the API accepts.
ALTER TABLE reports ALTER COLUMN report TYPE text USING report::text;
ALTER TABLE webhook_deliveries ALTER COLUMN payload TYPE text USING payload::text;
ALTER TABLE score_cache ALTER COLUMN verdicts TYPE text USING verdicts::text;
