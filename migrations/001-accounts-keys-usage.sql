-- Accounts, API keys, usage and stored reports. Plain SQL, the same on PostgreSQL and PGlite.
CREATE TABLE accounts (
  id text PRIMARY KEY,
  name text NOT NULL,
  plan text NOT NULL DEFAULT 'free',
  -- The GitHub account (user or organisation login) the App meters, when the account comes from GitHub.
  github_login text UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE api_keys (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  -- SHA-256 of the whole key, hex: the key itself is never stored.
  key_hash text NOT NULL UNIQUE,
  -- The first characters, shown in listings so a person can tell keys apart.
  hint text NOT NULL,
  scopes text[] NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz,
  revoked_at timestamptz
);

-- Append-only: one row per counted task. Corrections would be negative rows, never updates.
CREATE TABLE usage_ledger (
  id bigserial PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  idempotency_key text NOT NULL,
  period text NOT NULL,
  quantity integer NOT NULL DEFAULT 1,
  request_hash text NOT NULL,
  report_id text,
  source text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (account_id, idempotency_key)
);

-- A cache of the ledger per account and month, for the race-free allowance check.
CREATE TABLE usage_counters (
  account_id text NOT NULL REFERENCES accounts (id),
  period text NOT NULL,
  used integer NOT NULL DEFAULT 0,
  PRIMARY KEY (account_id, period)
);

CREATE TABLE reports (
  id text PRIMARY KEY,
  account_id text REFERENCES accounts (id),
  visibility text NOT NULL,
  report jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
