import { describe, expect, it } from "@jest/globals";
import { parseRepoConfig } from "../../src/repo-config/repo-config.schema.js";
import { appWithStandIn, deliver, issueOpened } from "../helpers/app-harness.js";
import { AGAIN, FIRST, OTHER } from "../helpers/similar-texts.js";

/**
 * The opt-in possible-duplicate label (issue 32, Deliver 3): `duplicate-label` in .github/task-scorer.yml puts a
 * label on a new issue whose comment says "Possibly the same as", through the one publisher. The App against the
 * stand-in GitHub with the embedded database: #1 scored, #2 a refiling, #3 about something else. Only #2 is
 * labelled; the labels people set stay; nothing is closed and nothing is written on #1.
 */
const { github, start } = appWithStandIn({ storage: "pglite" });

const REPO = "acme/widgets";
const KEY = (n: number) => `${REPO}#${n}`;

async function fileThree(service: Awaited<ReturnType<typeof start>>, onAgain: string[] = []) {
  await deliver(service, "issues", issueOpened(REPO, 1, FIRST));
  await service.queue!.drain();
  github.issueLabels.set(KEY(2), [...onAgain]);
  await deliver(service, "issues", issueOpened(REPO, 2, AGAIN, onAgain));
  await service.queue!.drain();
  await deliver(service, "issues", issueOpened(REPO, 3, OTHER));
  await service.queue!.drain();
}

const labels = (n: number) => github.issueLabels.get(KEY(n)) ?? [];

describe("the possible-duplicate label (`duplicate-label`)", () => {
  it("is added to the refiling whose comment says 'Possibly the same as', not to the unrelated issue or #1", async () => {
    github.configFiles.set(REPO, "duplicate-label: true\n");
    const service = await start();
    await fileThree(service, ["keep-me"]);

    const [again] = github.commentsOn(KEY(2));
    expect(again!.body).toContain("**Possibly the same as** #1");
    expect(labels(2).sort()).toEqual(["keep-me", "possible-duplicate"]);
    expect(labels(1)).toEqual([]);
    expect(labels(3)).toEqual([]);
    expect(github.repoLabels.get(REPO)?.has("possible-duplicate")).toBe(true);
    // Never closes, never writes on the earlier issue, never takes a label off.
    expect(github.commentsOn(KEY(1))).toHaveLength(1);
    const writes = github.requests.filter((r) => r.method !== "GET");
    expect(writes.filter((r) => r.method === "PATCH" && /\/issues\/\d+$/.test(r.path))).toEqual([]);
    expect(writes.filter((r) => r.method === "DELETE" && r.path.includes("/labels"))).toEqual([]);
    expect(writes.filter((r) => r.path.startsWith(`/repos/${REPO}/issues/1/`))).toHaveLength(1);
  }, 60_000);

  it("takes the name the file gives it", async () => {
    github.configFiles.set(REPO, "duplicate-label: maybe-refiled\n");
    const service = await start();
    await fileThree(service);
    expect(labels(2)).toEqual(["maybe-refiled"]);
    expect(labels(3)).toEqual([]);
  }, 60_000);

  it("is off by default: the line is written, no label", async () => {
    const service = await start();
    await fileThree(service);
    expect(github.commentsOn(KEY(2))[0]!.body).toContain("**Possibly the same as** #1");
    expect(labels(2)).toEqual([]);
    expect(github.requests.some((r) => r.method === "POST" && r.path.endsWith("/labels"))).toBe(false);
  }, 60_000);

  it("reads true, a name or false; a bad value falls back to off", () => {
    const key = (raw: unknown) => parseRepoConfig({ "duplicate-label": raw });
    expect(parseRepoConfig({}).config["duplicate-label"]).toBe(false);
    expect(key(true).config["duplicate-label"]).toBe("possible-duplicate");
    expect(key("yes").config["duplicate-label"]).toBe("possible-duplicate");
    expect(key("dup?").config["duplicate-label"]).toBe("dup?");
    expect(key(false).config["duplicate-label"]).toBe(false);
    const bad = key("x".repeat(51));
    expect(bad.config["duplicate-label"]).toBe(false);
    expect(bad.diagnostics[0]!.message).toMatch(/`duplicate-label` ignored/);
  });
});
