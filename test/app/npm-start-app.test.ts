import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "@jest/globals";
import { REPORT_MARKER } from "../../src/core/render-comment.js";
import { deliverOverHttp, payload } from "../helpers/app-harness.js";
import { serverWithStandIn } from "../helpers/server-with-stand-in.js";

/**
 * The "done when" of the App, as a user would run it: the real entry point in its own process (started as
 * `npm run start:prod` starts it, from the test build),
 * GitHub Enterprise settings pointing at a stand-in API on loopback, signed deliveries over HTTP.
 */
// With a data folder, as a maintainer who wants the board runs it: the backlog and similar issues need storage.
const dataDir = mkdtempSync(join(tmpdir(), "npm-start-app-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const app = serverWithStandIn({
  startTimeoutMs: 30_000,
  hookTimeoutMs: 40_000,
  env: () => ({ DATA_DIR: dataDir }),
});
const { github } = app;

const output = () => app.server.output();
const deliver = (event: string, body: Record<string, unknown>, id: string) =>
  deliverOverHttp(app.server.base, event, body, id);

async function waitFor(check: () => boolean, what: string) {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 50));
  if (!check()) throw new Error(`timed out waiting for ${what}\n${output()}`);
}

describe("npm start with GitHub App credentials", () => {
  it("says at start that the App is enabled", () => {
    expect(output()).toContain("GitHub App enabled");
  });

  it("turns a signed issues.opened delivery into exactly one report comment", async () => {
    const res = await deliver("issues", payload("issues", "opened"), "e2e-1");
    expect(res.status).toBe(200);
    await waitFor(() => github.comments.length === 1, "the report comment");
    expect(github.comments[0]!.issue).toBe("Codertocat/Hello-World#1");
    expect(github.comments[0]!.body.startsWith(REPORT_MARKER)).toBe(true);
  });

  it("turns an issues.edited delivery into an edit of the same comment", async () => {
    const firstBody = github.comments[0]!.body;
    const edited = payload("issues", "opened", (p) => {
      p.action = "edited";
      p.changes = { title: { from: p.issue.title } };
      p.issue.title = "Add Stripe checkout so free users can upgrade to Pro";
    });
    expect((await deliver("issues", edited, "e2e-2")).status).toBe(200);
    await waitFor(() => github.comments[0]!.body !== firstBody, "the edited comment");
    expect(github.comments).toHaveLength(1);
    expect(github.requests.filter((r) => r.method === "PATCH")).toHaveLength(1);
    expect(github.comments[0]!.body).toMatch(/stripe/i);
  });

  it("names the earlier issue in the comment of a new issue that repeats it (similar issues)", async () => {
    const again = payload("issues", "opened", (p) => {
      p.issue.number = 2;
      p.issue.id = 2;
      p.issue.node_id = "I_2";
      p.issue.title = "Add Stripe checkout so free users can upgrade to Pro";
    });
    expect((await deliver("issues", again, "e2e-2b")).status).toBe(200);
    await waitFor(() => github.comments.length === 2, "the second issue's comment");
    const second = github.comments.find((c) => c.issue === "Codertocat/Hello-World#2")!;
    expect(second.body).toContain(
      "**Possibly the same as** #1 “Add Stripe checkout so free users can upgrade to Pro” (open)",
    );
    expect(github.comments.find((c) => c.issue === "Codertocat/Hello-World#1")!.body).not.toContain(
      "Possibly the same as",
    );
  });

  it("rejects an unsigned delivery and changes nothing", async () => {
    const raw = JSON.stringify(payload("issues", "opened"));
    const res = await fetch(`${app.server.base}/api/github/webhooks`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-github-event": "issues",
        "x-github-delivery": "e2e-3",
        "x-hub-signature-256": "sha256=00",
      },
      body: raw,
    });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("invalid_signature");
    // The two issues' comments above, and nothing more.
    expect(github.comments).toHaveLength(2);
  });

  it("still answers POST /score-task", async () => {
    const res = await fetch(`${app.server.base}/score-task`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ task: "Add dark mode" }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { expertScores: unknown[] }).expertScores).toHaveLength(5);
  });

  it("exits cleanly on SIGTERM", async () => {
    const { child } = app.server;
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });
});
