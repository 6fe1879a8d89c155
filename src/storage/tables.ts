import type { Generated, Kysely } from "kysely";

/** Row types, as the migrations in migrations/*.sql create them. */
export interface Tables {
  accounts: {
    id: string;
    name: string;
    plan: string;
    github_login: string | null;
    created_at: Generated<Date>;
    /** See migrations/006. */
    plan_effective_at: Date | null;
  };
  api_keys: {
    id: string;
    account_id: string;
    key_hash: string;
    hint: string;
    scopes: string[];
    created_at: Generated<Date>;
    expires_at: Date | null;
    revoked_at: Date | null;
  };
  usage_ledger: {
    id: Generated<string>;
    account_id: string;
    idempotency_key: string;
    period: string;
    quantity: Generated<number>;
    request_hash: string;
    report_id: string | null;
    source: string;
    created_at: Generated<Date>;
    /** The plan and its unit price when the task was counted (see migrations/006). */
    plan: string | null;
    unit_price_cents: Generated<number>;
  };
  usage_counters: { account_id: string; period: string; used: Generated<number> };
  /** Requests per minute by plan on a fleet without Redis (see migrations/007). bigint arrives as text. */
  rate_limits: { subject: string; tat_ms: string | number };
  reports: {
    id: string;
    account_id: string | null;
    visibility: string;
    /** JSON text (see migrations/004). */
    report: string;
    created_at: Generated<Date>;
  };
  webhook_deliveries: {
    id: string;
    event: string;
    /** JSON text (see migrations/004). */
    payload: string;
    status: Generated<string>;
    attempts: Generated<number>;
    last_error: string | null;
    received_at: Generated<Date>;
    finished_at: Date | null;
    claimed_until: Date | null;
  };
  /** The backlog (see migrations/008). */
  backlog_tasks: {
    repository: string;
    number: number;
    title: string;
    url: string;
    state: Generated<string>;
    score: number;
    approved: boolean;
    needs_human: boolean;
    kind: string;
    personas: string;
    report: string;
    content_hash: string;
    issue_created_at: Date | null;
    issue_updated_at: Date | null;
    scored_at: Generated<Date>;
    seen_at: Generated<Date>;
  };
  backlog_repositories: {
    repository: string;
    display_name: string;
    /** bigint arrives as text. */
    installation_id: string | number | null;
    private: boolean | null;
    state: Generated<string>;
    next_url: string | null;
    done: Generated<number>;
    total: Generated<number>;
    etags: Generated<string>;
    lease_owner: string | null;
    lease_until: Date | null;
    not_before: Date | null;
    last_error: string | null;
    requested_at: Generated<Date>;
    started_at: Date | null;
    finished_at: Date | null;
    /** migrations/009: learn from the closed issues before the next listing. */
    learn_requested: Generated<boolean>;
    /** migrations/011: GitHub's id for the repository, which a rename or a transfer keeps. bigint arrives as text. */
    github_id: string | number | null;
  };
  /** What was learned from each repository's closed issues (migrations/009). */
  repository_calibrations: {
    repository: string;
    display_name: string;
    version: Generated<number>;
    closed_issues: number;
    labelled: number;
    decided: number;
    used: boolean;
    calibration: string;
    decisions: string;
    learned_at: Generated<Date>;
  };
  /** What the App's outputs met, per repository and output (migrations/010). */
  output_problems: {
    repository: string;
    output: string;
    message: string;
    noted_at: Generated<Date>;
  };
  backlog_budget: { installation_id: string | number; day: string; used: Generated<number> };
  score_cache: {
    key: string;
    /** JSON text, or null while an instance is scoring it (a claim). */
    verdicts: string | null;
    created_at: Generated<Date>;
  };
}

export type Db = Kysely<Tables>;
