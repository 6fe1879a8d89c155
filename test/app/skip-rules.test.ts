import { describe, expect, it } from "@jest/globals";
import { SCORE_COMMAND } from "../../src/app/commands/command.js";
import { parseRepoConfig } from "../../src/repo-config/repo-config.schema.js";
import { labelsOf, skipReason } from "../../src/app/skip-rules.js";
import type { Subject, Trigger } from "../../src/app/types.js";

const subject = (over: Partial<Subject> = {}): Subject => ({
  ref: { owner: "o", repo: "r", issue_number: 1 },
  title: "Add CSV export",
  body: "",
  isPullRequest: false,
  draft: false,
  labels: [],
  ...over,
});
const opened: Trigger = { kind: "issues", action: "opened" };
const command: Trigger = { kind: "command", command: "score", commenter: "maintainer", commentId: 1 };
const config = (raw: unknown) => parseRepoConfig(raw).config;

describe("whether an event scores an issue (pure rules)", () => {
  it("the defaults score a new issue, and say why when they do not", () => {
    expect(skipReason(config(undefined), opened, subject())).toBeUndefined();
    expect(skipReason(config({ enabled: false }), opened, subject())).toBe("disabled by repository config");
  });

  it("skip labels and title patterns skip automatic scoring, and name what matched", () => {
    const c = config({ "skip-labels": ["wontfix"], "skip-title-patterns": ["^wip\\b"] });
    expect(skipReason(c, opened, subject({ labels: ["wontfix"] }))).toBe("skip label wontfix");
    expect(skipReason(c, opened, subject({ title: "wip: export" }))).toBe(
      "title matches skip pattern ^wip\\b",
    );
    expect(skipReason(c, opened, subject({ title: "Add export" }))).toBeUndefined();
  });

  it("in label mode only the trigger label scores; in command mode only /score does", () => {
    const label = config({ trigger: "label" });
    expect(skipReason(label, opened, subject())).toBe("trigger label absent");
    expect(skipReason(label, { kind: "label-added", label: "task-scorer" }, subject())).toBeUndefined();
    const commandOnly = config({ trigger: "command" });
    expect(skipReason(commandOnly, opened, subject())).toBe("trigger mode command");
    expect(skipReason(commandOnly, command, subject())).toBeUndefined();
  });

  it("drafts are skipped unless asked for, except by a command", () => {
    const draft = subject({ isPullRequest: true, draft: true });
    const pr: Trigger = { kind: "pull-requests", action: "opened" };
    expect(skipReason(config(undefined), pr, draft)).toBe("draft pull request");
    expect(skipReason(config({ drafts: "score" }), pr, draft)).toBeUndefined();
    expect(skipReason(config(undefined), command, draft)).toBeUndefined();
  });

  it("reads label names from GitHub's shapes, strings or objects", () => {
    expect(labelsOf({ labels: ["a", { name: "b" }, { id: 3 }, null] })).toEqual(["a", "b"]);
    expect(labelsOf({})).toEqual([]);
  });
});

describe("the /score command", () => {
  it("is a line that is exactly /score or /score <word>, anywhere in the comment", () => {
    expect(SCORE_COMMAND.exec("/score")?.[1]).toBeUndefined();
    expect(SCORE_COMMAND.exec("thanks!\n  /score help  \n")?.[1]).toBe("help");
    expect(SCORE_COMMAND.exec("please /score this")).toBeNull();
    expect(SCORE_COMMAND.exec("/scored")).toBeNull();
  });
});
