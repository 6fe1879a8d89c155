import { beforeEach, describe, expect, it } from "@jest/globals";
import pino from "pino";
import { appOctokit } from "../../src/app/github-app-plugin.js";
import type { Service } from "../../src/compose-service.js";
import { REPORT_MARKER } from "../../src/core/render-comment.js";
import { appWithStandIn, deliver, payload } from "../helpers/app-harness.js";

/**
 * GitHub failing under the App: the production Octokit (retries and throttling on, as `npm start`
 * builds it) against a stand-in API that injects faults. Retries must not leave two comments.
 */
const app = appWithStandIn();
const { github } = app;
let service: Service;
const warnings: string[] = [];

beforeEach(async () => {
  const logger = pino({ level: "warn" }, { write: (line: string) => warnings.push(line) });
  service = await app.start({ LOG_LEVEL: "warn" }, undefined, logger, appOctokit(logger));
});

async function deliverOpened(id: string) {
  const res = await deliver(service, "issues", payload("issues", "opened"), id);
  expect(res.statusCode).toBe(200);
  await service.queue!.drain();
}

describe("GitHub API faults under the App", () => {
  it("retries a 502 on creating the comment and, if the first attempt did land, removes the copy", async () => {
    // The comment is created, but the response is lost in a 502: Octokit retries and creates a second.
    github.faults.push({ method: "POST", path: /\/issues\/1\/comments$/, status: 502, afterWork: true });
    await deliverOpened("fault-502");
    expect(github.comments).toHaveLength(1);
    expect(github.comments[0]!.body.startsWith(REPORT_MARKER)).toBe(true);
    expect(github.requests.filter((r) => r.method === "POST" && r.path.endsWith("/comments"))).toHaveLength(
      2,
    );
    expect(github.requests.filter((r) => r.method === "DELETE")).toHaveLength(1);
  }, 20_000);

  it("waits out a secondary rate limit and retries, then posts one comment", async () => {
    github.faults.push({
      method: "GET",
      path: /\/issues\/1\/comments$/,
      status: 403,
      headers: { "retry-after": "1" },
      body: {
        message: "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
      },
    });
    await deliverOpened("fault-403");
    expect(github.comments).toHaveLength(1);
    expect(warnings.join("\n")).toContain("secondary rate limit");
  }, 20_000);

  it("retries a 500 on reading the comments", async () => {
    github.faults.push({ method: "GET", path: /\/issues\/1\/comments$/, status: 500 });
    await deliverOpened("fault-500");
    expect(github.comments).toHaveLength(1);
  }, 20_000);
});
