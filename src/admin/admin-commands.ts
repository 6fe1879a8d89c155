/** The admin CLI's commands (src/admin-cli.ts is its entry point): accounts, plans, keys, usage. */
import { AccountStore } from "../accounts/account-store.js";
import { isScope, SCOPES, type Scope } from "../accounts/api-keys.js";
import { parseStorageEnv } from "../config/storage-env.schema.js";
import { UsageError } from "../core/errors.js";
import { isPlanId, PLANS } from "../core/plans.js";
import { openDatabase } from "../storage/database.js";
import type { Db } from "../storage/tables.js";
import { askRunningServer } from "./admin-channel.js";
import { parseAdminArgv } from "./admin-argv.js";
import { usageReport } from "../accounts/usage-report.js";
import { queueBacklog } from "./backlog-commands.js";

const USAGE = `Usage: task-scorer-admin <command>
  accounts create --name NAME [--plan free|payg|pro] [--github LOGIN]
  accounts list
  accounts plan ACCOUNT_ID free|payg|pro
  keys create ACCOUNT_ID [--scopes ${SCOPES.join(",")}] [--expires-days N]
  keys list [ACCOUNT_ID]
  keys revoke KEY_ID
  usage ACCOUNT_ID
  backlog OWNER/REPO   queue a silent backfill of the repository's open issues (a running server with the
                       GitHub App picks it up within 10 s; with the embedded database, at its next start)
  learn OWNER/REPO     learn from the repository's closed issues, then backfill it again (picked up likewise)
Uses DATABASE_URL (PostgreSQL), or the embedded PGlite in DATA_DIR (default ./data).`;

/** Days a key may be valid for: up to 100 years (a larger number is a typo, and past what a date can hold). */
export const MAX_EXPIRES_DAYS = 36_500;

function parseAdmin(argv: string[]) {
  try {
    return parseAdminArgv(argv);
  } catch (err) {
    // An unknown option or a missing value: node:util's message, without its stack.
    throw new UsageError(`${(err as Error).message}\n${USAGE}`);
  }
}

/** `--expires-days N`: a whole number of days from 1 to MAX_EXPIRES_DAYS, as digits. */
function expiresDays(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const days = /^\d{1,6}$/.test(text.trim()) ? Number(text.trim()) : NaN;
  if (!(days >= 1 && days <= MAX_EXPIRES_DAYS))
    throw new UsageError(
      `--expires-days must be a whole number of days from 1 to ${MAX_EXPIRES_DAYS} (100 years), such as 90; got "${text}".`,
    );
  return days;
}

/**
 * The admin CLI: through the running server when one has the embedded database open (its local admin channel,
 * see admin-channel.ts), else on the database itself (DATABASE_URL, or the embedded PGlite in DATA_DIR).
 */
export async function runAdmin(
  argv: string[],
  env: Record<string, string | undefined>,
  out: (line: string) => void = console.log,
) {
  const { values, positionals } = parseAdmin(argv);
  if (values.help || !positionals[0]) {
    out(USAGE);
    return;
  }
  const storage = parseStorageEnv(env);
  if (!storage.databaseUrl && (await askRunningServer(storage.dataDir, argv, out))) return;
  const database = await openDatabase({
    url: storage.databaseUrl,
    dataDir: storage.dataDir,
    preparedStatements: storage.preparedStatements,
  });
  try {
    await executeAdmin(argv, database.db, out);
  } finally {
    await database.close();
  }
}

/** One admin command on an open database: the CLI's own, or the running server's (through its admin channel). */
export async function executeAdmin(
  argv: string[],
  db: Db,
  out: (line: string) => void,
  clock: () => Date = () => new Date(),
): Promise<void> {
  const { values, positionals } = parseAdmin(argv);
  const [group, action, arg, arg2] = positionals;
  if (values.help || !group) {
    out(USAGE);
    return;
  }
  const store = new AccountStore(db);
  const key =
    `${group} ${group === "usage" || group === "backlog" || group === "learn" ? "" : (action ?? "")}`.trim();
  switch (key) {
    case "accounts create": {
      if (!values.name) throw new UsageError("accounts create needs --name.");
      const plan = values.plan ?? "free";
      if (!isPlanId(plan)) throw new UsageError(`Unknown plan "${plan}": use free, payg or pro.`);
      const account = await store.createAccount(values.name, plan, values.github);
      out(JSON.stringify(account));
      return;
    }
    case "accounts list":
      for (const a of await store.accounts()) out(JSON.stringify(a));
      return;
    case "accounts plan": {
      if (!arg || !arg2 || !isPlanId(arg2))
        throw new UsageError("accounts plan needs ACCOUNT_ID and free|payg|pro.");
      if (!(await store.setPlan(arg, arg2, clock()))) throw new UsageError(`No account ${arg}.`);
      out(`${arg} is now on ${PLANS[arg2].name}.`);
      return;
    }
    case "keys create": {
      if (!arg || !(await store.account(arg)))
        throw new UsageError(`keys create needs an existing ACCOUNT_ID.`);
      const days = expiresDays(values["expires-days"]);
      const scopes = (values.scopes ?? SCOPES.join(",")).split(",").map((s) => s.trim());
      const bad = scopes.filter((s) => !isScope(s));
      if (bad.length) throw new UsageError(`Unknown scope(s) ${bad.join(", ")}: use ${SCOPES.join(", ")}.`);
      const expires = days ? new Date(clock().getTime() + days * 86_400_000) : null;
      const { key: secret, record } = await store.createKey(arg, scopes as Scope[], expires);
      out(`${secret}\n(key ${record.id}; shown once: store it now, it cannot be shown again)`);
      return;
    }
    case "keys list":
      for (const k of await store.keys(arg)) out(JSON.stringify(k));
      return;
    case "keys revoke": {
      if (!arg) throw new UsageError("keys revoke needs KEY_ID.");
      if (!(await store.revokeKey(arg))) throw new UsageError(`No active key ${arg}.`);
      out(`Revoked ${arg}.`);
      return;
    }
    case "usage": {
      if (!action) throw new UsageError("usage needs ACCOUNT_ID.");
      const account = await store.account(action);
      if (!account) throw new UsageError(`No account ${action}.`);
      // The same computation as GET /usage: each task at the plan it was counted under (usage-report.ts).
      out(JSON.stringify(await usageReport(store, account.id, PLANS[account.plan], clock())));
      return;
    }
    case "learn":
    case "backlog":
      await queueBacklog(group === "learn" ? "learn" : "backlog", action, db, out);
      return;
    default:
      throw new UsageError(`Unknown command "${positionals.join(" ")}".\n${USAGE}`);
  }
}
