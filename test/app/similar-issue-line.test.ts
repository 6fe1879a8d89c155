import { describe, expect, it } from "@jest/globals";
import { renderSimilar } from "../../src/core/render-comment.js";
import { appWithStandIn, deliver, issueOpened } from "../helpers/app-harness.js";
import { AGAIN, FIRST, OTHER } from "../helpers/similar-texts.js";

/**
 * A new issue that repeats an earlier one says so in its one comment (issue 32, Deliver 3): the App against the
 * stand-in GitHub with the embedded database scores #1, then #2 filed again in other words, and #3 about something
 * else. Only #2's comment names #1; nothing is written on #1, and nothing closes.
 */
const { github, start } = appWithStandIn({ storage: "pglite" });

const REPO = "acme/widgets";
const KEY = (n: number) => `${REPO}#${n}`;

describe("the comment of a new issue names an earlier one like it", () => {
  it("says 'Possibly the same as #1' on a refiling, and nothing on an unrelated issue or on #1", async () => {
    const service = await start();
    await deliver(service, "issues", issueOpened(REPO, 1, FIRST));
    await service.queue!.drain();
    await deliver(service, "issues", issueOpened(REPO, 2, AGAIN));
    await service.queue!.drain();
    await deliver(service, "issues", issueOpened(REPO, 3, OTHER));
    await service.queue!.drain();

    const [first] = github.commentsOn(KEY(1));
    const [again] = github.commentsOn(KEY(2));
    const [other] = github.commentsOn(KEY(3));
    expect(github.commentsOn(KEY(1))).toHaveLength(1);
    expect(first!.body).not.toMatch(/Possibly the same as|Related:/);
    expect(again!.body).toContain(
      `**Possibly the same as** #1 “Export to CSV fails on empty reports” (open)`,
    );
    expect(other!.body).not.toMatch(/Possibly the same as|Related:/);
  }, 60_000);
});

describe("the line", () => {
  const hit = (number: number, similarity: number, duplicate = false) => ({
    number,
    title: `Issue ${number} <b>@octocat</b>`,
    state: "closed" as const,
    stateReason: "completed",
    similarity,
    duplicate,
  });

  it("names a likely duplicate with its state, else at most three related issues above the bar, else nothing", () => {
    expect(renderSimilar([hit(12, 0.9, true), hit(40, 0.7)])).toBe(
      "**Possibly the same as** #12 “Issue 12 &lt;b&gt;&#64;octocat&lt;/b&gt;” (closed as completed)",
    );
    expect(renderSimilar([hit(12, 0.8), hit(40, 0.65), hit(41, 0.61), hit(42, 0.6), hit(43, 0.3)])).toBe(
      "**Related:** #12, #40, #41",
    );
    expect(renderSimilar([hit(12, 0.5)])).toBeUndefined();
    expect(renderSimilar([])).toBeUndefined();
    expect(renderSimilar(undefined)).toBeUndefined();
  });
});
