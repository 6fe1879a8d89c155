import { describe, expect, it } from "@jest/globals";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPORT_MARKER } from "../../src/core/render-comment.js";
import { DeliveryStore } from "../../src/fleet/delivery-store.js";
import { openDatabase } from "../../src/storage/database.js";
import { appWithStandIn, deliver as deliverTo, expectFailedJobs, payload } from "../helpers/app-harness.js";

/**
 * The App with a database (DATA_DIR): deliveries are stored before the 200, repeats are recognised, and the
 * reports are metered per GitHub account against its plan.
 */
const app = appWithStandIn({ keepGitHub: true });
const github = app.github;

// Accounts and plans on: the App meters each GitHub account.
const env = (dataDir: string) => app.env({ DATA_DIR: dataDir, AUTH: "keys" });

/** A signed delivery from hook 77 (the hook id and the GUID make the delivery's identity). */
const deliver = (event: string, body: Record<string, unknown>, id: string) =>
  deliverTo(app.service, event, body, id, undefined, "77");

let issueNumber = 5000;
function opened(owner: string, title = "Add CSV export to the reports page") {
  const n = ++issueNumber;
  return {
    key: `${owner}/Hello-World#${n}`,
    body: payload("issues", "opened", (p) => {
      p.issue.number = n;
      p.issue.title = title;
      p.issue.body = "Users copy tables by hand. Add an Export CSV button that downloads the current table.";
      p.repository.owner.login = owner;
      p.repository.name = "Hello-World";
      p.repository.full_name = `${owner}/Hello-World`;
    }),
  };
}

async function waitFor(check: () => boolean, what: string) {
  for (let i = 0; i < 400 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

describe("the App with a database", () => {
  it("stores a delivery before acknowledging it, and handles a repeat once", async () => {
    const service = await app.start(env("memory://"));
    const issue = opened("acme");
    const first = await deliver("issues", issue.body, "guid-1");
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ ok: true });
    const again = await deliver("issues", issue.body, "guid-1");
    expect(again.json()).toEqual({ ok: true, duplicate: true });
    await waitFor(() => github.commentsOn(issue.key).length === 1, "the report");
    await service.queue!.drain();
    expect(github.commentsOn(issue.key)).toHaveLength(1);
    expect(github.commentsOn(issue.key)[0]!.body).toContain(REPORT_MARKER);
  });

  it("a Free account gets 10 reports a month, then a short, polite note instead of a report", async () => {
    await app.start(env("memory://"));
    const issues = Array.from({ length: 11 }, () => opened("free-org"));
    for (const [i, issue] of issues.entries()) await deliver("issues", issue.body, `free-${i}`);
    await waitFor(() => issues.every((i) => github.commentsOn(i.key).length === 1), "11 comments");
    const bodies = issues.map((i) => github.commentsOn(i.key)[0]!.body);
    expect(bodies.filter((b) => b.includes("Task score") && !b.includes("paused"))).toHaveLength(10);
    const notes = bodies.filter((b) => b.includes("paused for this month"));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/used the 10 task scores included in the Free plan/);
    expect(notes[0]).not.toMatch(/error|fail/i);
  });

  it("a GitHub Marketplace purchase of Pro lifts the limit; a cancellation brings it back", async () => {
    await app.start(env("memory://"));
    const market = (action: string, plan: object) => ({
      action,
      effective_date: "2026-11-01T00:00:00Z",
      sender: { login: "pro-org", type: "User" },
      marketplace_purchase: { account: { login: "pro-org", type: "Organization", id: 9 }, plan },
    });
    await deliver(
      "marketplace_purchase",
      market("purchased", { name: "Pro", price_model: "FLAT_RATE" }),
      "mp-1",
    );
    const issues = Array.from({ length: 12 }, () => opened("pro-org"));
    for (const [i, issue] of issues.entries()) await deliver("issues", issue.body, `pro-${i}`);
    await waitFor(() => issues.every((i) => github.commentsOn(i.key).length === 1), "12 comments");
    expect(issues.filter((i) => github.commentsOn(i.key)[0]!.body.includes("paused"))).toHaveLength(0);

    await deliver(
      "marketplace_purchase",
      market("cancelled", { name: "Pro", price_model: "FLAT_RATE" }),
      "mp-2",
    );
    const after = opened("pro-org");
    await deliver("issues", after.body, "pro-after");
    await waitFor(() => github.commentsOn(after.key).length === 1, "the note");
    expect(github.commentsOn(after.key)[0]!.body).toContain("paused for this month");
  });

  it("a delivery whose work failed is marked failed, and GitHub's redelivery runs it again", async () => {
    const service = await app.start(env("memory://"));
    const issue = opened("retry-org");
    // The comment cannot be written (GitHub answers 500 to every try of it).
    github.faults.push({ method: "POST", path: /\/issues\/\d+\/comments$/, status: 500, times: 10 });
    await deliver("issues", issue.body, "retry-1");
    await waitFor(() => github.faults.length === 0 || github.faults[0]!.times! < 10, "the failed write");
    await service.queue!.drain();
    expectFailedJobs(service, 1);
    github.faults.length = 0;
    expect(github.commentsOn(issue.key)).toHaveLength(0);
    // A person presses "Redeliver" in GitHub: the same GUID, and this time it works. (Until the failure is
    // recorded, the delivery is still in hand and a repeat is answered as a duplicate.)
    let again = await deliver("issues", issue.body, "retry-1");
    for (let i = 0; i < 100 && again.json().duplicate; i++) {
      await new Promise((r) => setTimeout(r, 25));
      again = await deliver("issues", issue.body, "retry-1");
    }
    expect(again.json()).toEqual({ ok: true });
    await waitFor(() => github.commentsOn(issue.key).length === 1, "the report after redelivery");
  });

  it("handles at start what a previous process accepted but never finished", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ts-durable-"));
    const issue = opened("crash-org");
    // As if a process stored the delivery, answered 200 and died before handling it.
    const db = await openDatabase({ dataDir: join(dir, "data") });
    await new DeliveryStore(db.db).accept({
      id: "77:lost-1",
      guid: "lost-1",
      event: "issues",
      payload: issue.body,
    });
    await db.close();
    await app.start(env(join(dir, "data")));
    await waitFor(() => github.commentsOn(issue.key).length === 1, "the recovered report");
    expect(github.commentsOn(issue.key)[0]!.body).toContain(REPORT_MARKER);
  }, 30_000);
});
