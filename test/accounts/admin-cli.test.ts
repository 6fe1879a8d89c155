import { spawn } from "node:child_process";
import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { commandName } from "../../src/admin/admin-argv.js";
import { describe, expect, it } from "@jest/globals";
import { runAdmin } from "../../src/admin/admin-commands.js";
import { isWellFormedKey } from "../../src/accounts/api-keys.js";
import { builtCommand, startBuiltServer } from "../helpers/server-build.js";

/** `npm run admin -- …` as the operator runs it: its own process, its output and exit code. */
function adminProcess(argv: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(...builtCommand("src/admin-cli.ts", ...argv), {
      cwd: new URL("../..", import.meta.url).pathname,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.once("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("the admin CLI", () => {
  const env = { DATA_DIR: join(mkdtempSync(join(tmpdir(), "ts-admin-")), "data") };
  const run = async (...argv: string[]) => {
    const lines: string[] = [];
    await runAdmin(argv, env, (l) => lines.push(l));
    return lines.join("\n");
  };

  it("creates an account and a key (shown once), lists, revokes, sets the plan and shows usage", async () => {
    const account = JSON.parse(await run("accounts", "create", "--name", "Acme", "--plan", "payg"));
    expect(account).toMatchObject({ name: "Acme", plan: "payg" });
    const created = await run("keys", "create", account.id, "--scopes", "score", "--expires-days", "30");
    const key = created.split("\n")[0]!;
    expect(isWellFormedKey(key)).toBe(true);
    expect(created).toMatch(/shown once/);
    const listed = await run("keys", "list", account.id);
    expect(listed).not.toContain(key); // never shown again
    const record = JSON.parse(listed);
    expect(record).toMatchObject({ scopes: ["score"], revokedAt: null });
    expect(await run("keys", "revoke", record.id)).toMatch(/Revoked/);
    expect(JSON.parse(await run("keys", "list", account.id)).revokedAt).not.toBeNull();
    expect(await run("accounts", "plan", account.id, "pro")).toMatch(/now on Pro/);
    expect(JSON.parse(await run("usage", account.id))).toMatchObject({
      plan: "Pro",
      tasksUsed: 0,
      amountDueUsd: 50,
    });
    // Seven separate runs, each opening and closing the embedded database as the real command does:
    // generous on a loaded machine, where one PGlite start has taken several seconds.
  }, 180_000);

  it("says what is wrong with a bad command", async () => {
    await expect(run("keys", "create", "acct_nope")).rejects.toThrow(/existing ACCOUNT_ID/);
    await expect(run("accounts", "create", "--name", "X", "--plan", "gold")).rejects.toThrow(
      /free, payg or pro/,
    );
    await expect(run("bogus")).rejects.toThrow(/Unknown command/);
  }, 90_000);

  it("`keys create --expires-days 1e9` (or 0, -1, 2.5, 36501, abc) says what is wrong and exits 1, without a stack or a key", async () => {
    const account = JSON.parse(await run("accounts", "create", "--name", "Typo"));
    for (const days of ["1e9", "0", "-1", "2.5", "36501", "abc", " "])
      await expect(run("keys", "create", account.id, `--expires-days=${days}`)).rejects.toThrow(
        /--expires-days must be a whole number of days from 1 to 36500/,
      );
    const r = await adminProcess(["keys", "create", account.id, "--expires-days", "1e9"], env);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr.trim()).toBe(
      '--expires-days must be a whole number of days from 1 to 36500 (100 years), such as 90; got "1e9".',
    );
    // No key was made.
    expect(await run("keys", "list", account.id)).toBe("");
  }, 90_000);
});

describe("the admin CLI while the server runs on the embedded database", () => {
  it("works through the running server: account, key, plan change and usage, each taking effect on the next request", async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), "ts-admin-live-")), "data");
    const env = { DATA_DIR: dataDir };
    const server = await startBuiltServer({ ...env, AUTH: "keys", SCORER: "offline" }, 60_000);
    const run = async (...argv: string[]) => {
      const lines: string[] = [];
      await runAdmin(argv, env, (l) => lines.push(l));
      return lines.join("\n");
    };
    const score = (key: string, task: string) =>
      fetch(`${server.base}/score-task`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
        body: JSON.stringify({ task }),
      });
    try {
      // Local only: the socket's folder is the server user's alone.
      const socket = join(dataDir, "admin", "admin.sock");
      expect(statSync(socket).isSocket()).toBe(true);
      expect(statSync(socket).mode & 0o777).toBe(0o600);
      expect(statSync(join(dataDir, "admin")).mode & 0o777).toBe(0o700);

      const account = JSON.parse(await run("accounts", "create", "--name", "Live"));
      const key = (await run("keys", "create", account.id)).split("\n")[0]!;
      expect(isWellFormedKey(key)).toBe(true);
      for (let i = 0; i < 10; i++) expect((await score(key, `Add export ${i}`)).status).toBe(200);
      // The allowance is used up (and so is the per-minute burst): the answer is the allowance's.
      const over = await score(key, "Add export, once more");
      expect(over.status).toBe(429);
      expect(((await over.json()) as { error: { code: string } }).error.code).toBe("quota_exceeded");

      // The operator's own command, in its own process, while the server runs.
      const moved = await adminProcess(["accounts", "plan", account.id, "pro"], env);
      expect(moved).toMatchObject({ code: 0, stdout: `${account.id} is now on Pro.\n` });
      // The next request is Pro's: no allowance, Pro's per-minute limit (the key was cached as Free).
      expect((await score(key, "Add export on Pro")).status).toBe(200);
      expect(JSON.parse(await run("usage", account.id))).toMatchObject({
        plan: "Pro",
        tasksUsed: 11,
        amountDueUsd: 50,
      });
      // A refusal comes back as the CLI's own: a message and exit 1.
      const refused = await adminProcess(["accounts", "plan", "acct_nope", "pro"], env);
      expect(refused).toMatchObject({ code: 1, stdout: "", stderr: "No account acct_nope.\n" });
      // A key revoked through the server is refused on the next request.
      const id = JSON.parse(await run("keys", "list", account.id)).id as string;
      expect(await run("keys", "revoke", id)).toBe(`Revoked ${id}.`);
      expect((await score(key, "Add export, revoked")).status).toBe(401);
    } finally {
      await server.stop();
    }
    // The server gone, the CLI opens the folder itself again.
    expect(JSON.parse(await run("usage", JSON.parse(await run("accounts", "list")).id))).toMatchObject({
      tasksUsed: 11,
    });
    expect(server.output()).not.toContain("tsk_");
    // The log names each command, never its arguments: "usage acct_…" once logged the account's id.
    expect(server.output()).toContain('"command":"usage"');
    expect(server.output()).toContain('"command":"keys revoke"');
    expect(server.output()).not.toMatch(/"command":"[^"]*acct_/);
  }, 180_000);
});

describe("what the admin channel's log says of a command", () => {
  it("is its name alone, or 'unknown': no account, repository or mistyped word", () => {
    expect(commandName(["usage", "acct_k798o6aEjPO0"])).toBe("usage");
    expect(commandName(["backlog", "acme/widgets"])).toBe("backlog");
    expect(commandName(["keys", "create", "acct_1", "--scopes", "score"])).toBe("keys create");
    expect(commandName(["tsk_live_pasted_here", "acct_1"])).toBe("unknown");
    expect(commandName(["keys", "tsk_live_pasted_here"])).toBe("unknown");
    expect(commandName(["--bogus"])).toBe("unknown");
    expect(commandName([])).toBe("help");
  });
});
