import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "@jest/globals";
import { runAdmin } from "../../src/accounts/admin-commands.js";
import { isWellFormedKey } from "../../src/accounts/api-keys.js";

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
});
