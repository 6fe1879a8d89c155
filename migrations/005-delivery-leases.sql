-- An instance handling a delivery holds it until claimed_until: another instance on the same database
-- takes it over only after that (the first one died), never while it is being handled.
ALTER TABLE webhook_deliveries ADD COLUMN claimed_until timestamptz;
