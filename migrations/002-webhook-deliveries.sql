-- Webhook work accepted by any instance: a delivery is acknowledged only once its row exists, so a crash
-- loses nothing that GitHub was told had arrived. Keyed by hook id and delivery GUID (a manual
-- redelivery reuses the GUID, and every hook of one event shares it).
CREATE TABLE webhook_deliveries (
  id text PRIMARY KEY,
  event text NOT NULL,
  payload jsonb NOT NULL,
  status text NOT NULL DEFAULT 'queued',
  attempts integer NOT NULL DEFAULT 0,
  last_error text,
  received_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (received_at) WHERE status = 'queued';

-- Verdicts of the deterministic or model scorer by input hash, shared between instances.
CREATE TABLE score_cache (
  key text PRIMARY KEY,
  verdicts jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
