-- What each counted task cost when it was counted: the plan and its unit price (in cents) on the ledger row,
-- so that the amount due sums those instead of pricing a whole month at the current plan's rate.
ALTER TABLE usage_ledger ADD COLUMN plan text;
ALTER TABLE usage_ledger ADD COLUMN unit_price_cents integer NOT NULL DEFAULT 0;
-- Rows counted before this migration: the account's plan then, at that plan's price then (Pay-as-you-go $1).
UPDATE usage_ledger SET plan = accounts.plan,
  unit_price_cents = CASE accounts.plan WHEN 'payg' THEN 100 ELSE 0 END
  FROM accounts WHERE accounts.id = usage_ledger.account_id;

-- The effective date of the Marketplace event that last set the account's plan: an older event that
-- arrives later is ignored instead of undoing a newer one.
ALTER TABLE accounts ADD COLUMN plan_effective_at timestamptz;
