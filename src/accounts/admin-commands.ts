/** The admin CLI's commands (src/admin-cli.ts is its entry point): accounts, plans, keys, usage. */
import { parseArgs } from "node:util";
import { AccountStore } from "./account-store.js";
import { isScope, SCOPES, type Scope } from "./api-keys.js";
import { parseStorageEnv } from "../config/storage-env.schema.js";
import { UsageError } from "../core/errors.js";
import { amountDue, isPlanId, periodOf, PLANS } from "../core/plans.js";
import { openDatabase } from "../storage/database.js";
import { BacklogStore } from "../backlog/backlog-store.js";

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

export async function runAdmin(argv: string[], env: Record<string, string | undefined>, out = console.log) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: "string" },
      plan: { type: "string" },
      github: { type: "string" },
      scopes: { type: "string" },
      "expires-days": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  const [group, action, arg, arg2] = positionals;
  if (values.help || !group) {
    out(USAGE);
    return;
  }
  const storage = parseStorageEnv(env);
  const database = await openDatabase({
    url: storage.databaseUrl,
    dataDir: storage.dataDir,
    preparedStatements: storage.preparedStatements,
  });
  const store = new AccountStore(database.db);
  try {
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
        if (!(await store.setPlan(arg, arg2))) throw new UsageError(`No account ${arg}.`);
        out(`${arg} is now on ${PLANS[arg2].name}.`);
        return;
      }
      case "keys create": {
        if (!arg || !(await store.account(arg)))
          throw new UsageError(`keys create needs an existing ACCOUNT_ID.`);
        const scopes = (values.scopes ?? SCOPES.join(",")).split(",").map((s) => s.trim());
        const bad = scopes.filter((s) => !isScope(s));
        if (bad.length) throw new UsageError(`Unknown scope(s) ${bad.join(", ")}: use ${SCOPES.join(", ")}.`);
        const days = values["expires-days"] === undefined ? undefined : Number(values["expires-days"]);
        if (days !== undefined && !(Number.isInteger(days) && days > 0))
          throw new UsageError("--expires-days must be a whole number of days.");
        const expires = days ? new Date(Date.now() + days * 86_400_000) : null;
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
        const period = periodOf(new Date());
        const used = await store.ledgerTotal(account.id, period);
        const plan = PLANS[account.plan];
        out(
          JSON.stringify({
            account: account.id,
            plan: plan.name,
            period,
            tasksUsed: used,
            amountDueUsd: amountDue(plan, used),
          }),
        );
        return;
      }
      case "learn":
      case "backlog": {
        const learn = group === "learn";
        if (!action || !/^[A-Za-z0-9][A-Za-z0-9-]{0,38}\/[A-Za-z0-9._-]{1,100}$/.test(action))
          throw new UsageError(`${group} needs OWNER/REPO, e.g. ${group} octo-org/widgets.`);
        const backlog = new BacklogStore(database.db);
        const state = await backlog.requestBackfill(action, {}, { learn });
        if (learn) {
          out(
            state === "running"
              ? `Learning from ${action}'s closed issues is queued after the backfill that is running.`
              : `Queued learning from ${action}'s closed issues: a running task-scorer with the GitHub App reads them, keeps what beats the shipped model, and scores the open issues again.`,
          );
          return;
        }
        const row = await backlog.repository(action);
        out(
          state === "running"
            ? `The backfill of ${action} is already running (${row?.done ?? 0} of ${row?.total ?? 0} issues).`
            : `Queued the backfill of ${action}: a running task-scorer with the GitHub App scores its open issues silently.`,
        );
        return;
      }
      default:
        throw new UsageError(`Unknown command "${positionals.join(" ")}".\n${USAGE}`);
    }
  } finally {
    await database.close();
  }
}
