#!/usr/bin/env node
/**
 * The operator's CLI for accounts, plans, API keys and backfills, on the same database as the server
 * (DATABASE_URL, or PGlite in DATA_DIR, default ./data; while a server runs on that PGlite, through the server's
 * local admin channel, see src/accounts/admin-channel.ts). A new key is printed once and never stored.
 * A refused command prints what is wrong and exits 1; an unexpected failure exits 2.
 *
 *   npm run admin -- accounts create --name "Acme" [--plan free|payg|pro] [--github LOGIN]
 *   npm run admin -- accounts list
 *   npm run admin -- accounts plan ACCOUNT_ID PLAN
 *   npm run admin -- keys create ACCOUNT_ID [--scopes score,usage:read,reports:read] [--expires-days N]
 *   npm run admin -- keys list [ACCOUNT_ID]
 *   npm run admin -- keys revoke KEY_ID
 *   npm run admin -- usage ACCOUNT_ID
 *   npm run admin -- backlog OWNER/REPO
 *   npm run admin -- learn OWNER/REPO
 */
import { runAdmin } from "./admin/admin-commands.js";
import { isTaskScorerError, UsageError } from "./core/errors.js";

runAdmin(process.argv.slice(2), process.env).catch((err: unknown) => {
  if (err instanceof UsageError || isTaskScorerError(err)) {
    console.error(err.message);
    process.exit(1);
  }
  console.error(err);
  process.exit(2);
});
