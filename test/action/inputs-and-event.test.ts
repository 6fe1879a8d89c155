import { readFileSync } from "node:fs";
import { describe, expect, it } from "@jest/globals";
import { parse as parseYaml } from "yaml";
import { DEFAULT_APPROVAL_POLICY } from "../../src/core/approval.js";
import { ActionError } from "../../action/errors.js";
import { INPUT_NAMES, parseInputs, type InputName } from "../../action/inputs.schema.js";
import { readEventItem, resolveTask } from "../../action/read-event.js";
import { examplePayload } from "../helpers/action-runner.js";

const actionYml = readFileSync(new URL("../../action.yml", import.meta.url), "utf8");

function inputs(values: Partial<Record<InputName, string>> = {}) {
  return parseInputs((name) => values[name] ?? "");
}

function failure(fn: () => unknown): ActionError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ActionError);
    return error as ActionError;
  }
  throw new Error("expected a failure");
}

describe("action.yml and the inputs schema", () => {
  const declared = [...actionYml.matchAll(/^ {2}([a-z][a-z-]*):\s*$/gm)].map((m) => m[1]);
  const inputsBlock = actionYml.slice(actionYml.indexOf("\ninputs:"), actionYml.indexOf("\noutputs:"));
  const outputsBlock = actionYml.slice(actionYml.indexOf("\noutputs:"), actionYml.indexOf("\nruns:"));
  const defaultOf = (name: string) =>
    new RegExp(`^ {2}${name}:\\n(?: {4}.*\\n)*? {4}default: "?([^"\\n]*)"?`, "m").exec(inputsBlock)?.[1];

  it("has the Marketplace's metadata: branding, an author, a description of at most 125 characters", () => {
    const meta = parseYaml(actionYml) as {
      description: string;
      author?: string;
      branding?: Record<string, string>;
    };
    expect(meta.description.length).toBeLessThanOrEqual(125);
    expect(meta.author).toBeTruthy();
    expect(meta.branding?.icon).toBeTruthy();
    expect(meta.branding?.color).toBeTruthy();
  });

  it("declares exactly the inputs the schema reads, and the eight outputs", () => {
    const inputNames = [...inputsBlock.matchAll(/^ {2}([a-z][a-z-]*):\s*$/gm)].map((m) => m[1]);
    expect(inputNames).toEqual([...INPUT_NAMES]);
    const outputNames = [...outputsBlock.matchAll(/^ {2}([a-z][a-z-]*):\s*$/gm)].map((m) => m[1]);
    expect(outputNames).toEqual([
      "avg-score",
      "min-score",
      "max-score",
      "approved",
      "report",
      "kind",
      "evidence",
      "similar",
    ]);
    expect(declared.length).toBe(INPUT_NAMES.length + 8);
  });

  it("documents the core's approval defaults and the other defaults the schema applies", () => {
    expect(Number(defaultOf("min-average"))).toBe(DEFAULT_APPROVAL_POLICY.minAverage);
    expect(Number(defaultOf("min-score"))).toBe(DEFAULT_APPROVAL_POLICY.minScore);
    expect(Number(defaultOf("min-supporters"))).toBe(DEFAULT_APPROVAL_POLICY.minSupporters);
    expect(Number(defaultOf("support-score"))).toBe(DEFAULT_APPROVAL_POLICY.supportScore);
    expect(defaultOf("github-token")).toBe("${{ github.token }}");
    const parsed = inputs();
    // Empty in action.yml so that the repository's file can decide; the comment is on unless it says otherwise.
    expect(defaultOf("comment")).toBe("");
    expect(parsed.comment).toBe(true);
    expect(parsed.commentInput).toBeUndefined();
    expect(defaultOf("output")).toBe("");
    expect(parsed.output).toBeUndefined();
    expect(String(parsed.failOnReject)).toBe(defaultOf("fail-on-reject"));
    expect(parsed.scorer.scorer).toBe(defaultOf("scorer"));
  });
});

describe("parseInputs", () => {
  it("applies the defaults when nothing is set", () => {
    expect(inputs()).toEqual({
      task: "",
      description: "",
      githubToken: undefined,
      comment: true,
      labels: { approved: undefined, rejected: undefined },
      failOnReject: false,
      policy: DEFAULT_APPROVAL_POLICY,
      scorer: { scorer: "auto", openaiApiKey: undefined, openaiBaseUrl: undefined, model: undefined },
    });
  });

  it("reads every input into typed settings", () => {
    expect(
      inputs({
        task: "  Add Stripe checkout ",
        description: "Let free users upgrade",
        "github-token": "ghs_fake",
        comment: "FALSE",
        "label-approved": "approved",
        "label-rejected": "needs work",
        "fail-on-reject": "True",
        "min-average": "6.5",
        "min-score": "3",
        "min-supporters": "2",
        "support-score": "8",
        scorer: "openai",
        "openai-api-key": "sk-fake",
        "openai-base-url": "http://127.0.0.1:11434/v1",
        model: "llama3.1",
      }),
    ).toEqual({
      task: "Add Stripe checkout",
      description: "Let free users upgrade",
      githubToken: "ghs_fake",
      comment: false,
      commentInput: false,
      output: undefined,
      labels: { approved: "approved", rejected: "needs work" },
      failOnReject: true,
      policy: { minAverage: 6.5, minScore: 3, minSupporters: 2, supportScore: 8 },
      scorer: {
        scorer: "openai",
        openaiApiKey: "sk-fake",
        openaiBaseUrl: "http://127.0.0.1:11434/v1",
        model: "llama3.1",
      },
    });
  });

  it.each([
    [{ comment: "yes" }, '`comment` must be `true` or `false`, got "yes"'],
    [{ output: "comment, tweet" }, "`output` must list comment, labels, project, check"],
    [{ "fail-on-reject": "1" }, "`fail-on-reject` must be `true` or `false`"],
    [{ "min-average": "seven" }, '`min-average` must be a number, got "seven"'],
    [{ "min-average": "11" }, "`min-average` must be at most 10 (got 11)"],
    [{ "min-supporters": "6" }, "`min-supporters` must be at most 5 (got 6)"],
    [{ "min-supporters": "2.5" }, "`min-supporters` must be a whole number (got 2.5)"],
    [{ "support-score": "0" }, "`support-score` must be at least 1 (got 0)"],
    [{ scorer: "gpt" }, "`scorer` must be `auto`, `offline` or `openai`"],
    [{ scorer: "openai" }, "`openai-api-key` is required when `scorer` is `openai`"],
    [{ "openai-base-url": "api.openai.com" }, "`openai-base-url` must be an http(s) URL"],
    [{ "label-approved": "x".repeat(51) }, "`label-approved` must be at most 50 characters"],
    [{ "label-approved": "scored", "label-rejected": "scored" }, "`label-rejected` must differ"],
    [{ task: "t".repeat(257) }, "`task` must be at most 256 characters"],
  ] as [Partial<Record<InputName, string>>, string][])("refuses %j, naming the input", (values, expected) => {
    const error = failure(() => inputs(values));
    expect(error.code).toBe("invalid_input");
    expect(error.message).toContain(expected);
    expect(error.message).toMatch(/^Invalid input: .*Fix the step's `with:` block and run it again\.$/);
  });

  it("reports every bad input at once and never echoes the API key", () => {
    const error = failure(() =>
      inputs({ comment: "maybe", "min-score": "x", "openai-api-key": "sk-secret-value", scorer: "nope" }),
    );
    expect(error.message).toContain("`comment`");
    expect(error.message).toContain("`min-score`");
    expect(error.message).toContain("`scorer`");
    expect(error.message).not.toContain("sk-secret-value");
  });

  it("counts characters as code points, like the REST API", () => {
    expect(inputs({ task: "🎉".repeat(256) }).task).toBe("🎉".repeat(256));
  });
});

describe("readEventItem", () => {
  it("reads the issue of an issues event", () => {
    const payload = examplePayload("issues", "opened", (p) => {
      p.issue.title = "Add dark mode";
      p.issue.body = null;
    });
    expect(readEventItem({ eventName: "issues", payload })).toEqual({
      kind: "issue",
      owner: "Codertocat",
      repo: "Hello-World",
      number: payload.issue.number,
      title: "Add dark mode",
      body: "",
    });
  });

  it("reads a pull request from pull_request, pull_request_target and a comment on a PR", () => {
    const pr = examplePayload("pull_request", "opened");
    for (const eventName of ["pull_request", "pull_request_target"]) {
      expect(readEventItem({ eventName, payload: pr })).toMatchObject({
        kind: "pull_request",
        number: pr.pull_request.number,
        title: pr.pull_request.title,
      });
    }
    const comment = examplePayload("issue_comment", "created", (p) => {
      p.issue.pull_request = { url: "https://api.github.com/repos/Codertocat/Hello-World/pulls/1" };
    });
    expect(readEventItem({ eventName: "issue_comment", payload: comment })?.kind).toBe("pull_request");
    const onIssue = examplePayload("issue_comment", "created");
    expect(readEventItem({ eventName: "issue_comment", payload: onIssue })?.kind).toBe("issue");
  });

  it("has nothing for events without an issue or pull request", () => {
    expect(readEventItem({ eventName: "push", payload: examplePayload("push") })).toBeUndefined();
    expect(readEventItem({ eventName: "workflow_dispatch", payload: {} })).toBeUndefined();
    expect(readEventItem({ eventName: undefined, payload: {} })).toBeUndefined();
  });

  it("takes the repository from GITHUB_REPOSITORY when the payload has none", () => {
    const payload = { issue: { number: 7, title: "T", body: "B" } };
    expect(readEventItem({ eventName: "issues", payload }, "octo/repo")).toMatchObject({
      owner: "octo",
      repo: "repo",
      number: 7,
    });
    expect(readEventItem({ eventName: "issues", payload })).toBeUndefined();
  });
});

describe("resolveTask", () => {
  const item = {
    kind: "issue" as const,
    owner: "o",
    repo: "r",
    number: 3,
    title: "Issue title",
    body: "Issue body",
  };

  it("scores the inputs when `task` is set, ignoring the event", () => {
    expect(resolveTask({ task: "Mine", description: "" }, item, "issues")).toEqual({
      input: { task: "Mine", description: "" },
      source: "inputs",
      warnings: [],
    });
  });

  it("takes the title and body of the event when `task` is empty; `description` overrides the body", () => {
    expect(resolveTask({ task: "", description: "" }, item, "issues").input).toEqual({
      task: "Issue title",
      description: "Issue body",
    });
    expect(resolveTask({ task: "", description: "Mine" }, item, "issues").input).toEqual({
      task: "Issue title",
      description: "Mine",
    });
  });

  it("shortens an event title or body over the limits with a warning, never splitting a character", () => {
    const long = { ...item, title: "🎉".repeat(300), body: "é".repeat(70_000) };
    const { input, warnings } = resolveTask({ task: "", description: "" }, long, "issues");
    expect(input.task).toBe("🎉".repeat(256));
    expect(input.description).toBe("é".repeat(65_536));
    expect(warnings).toEqual([
      "The title of issue #3 is 300 characters; only the first 256 were scored.",
      "The body of issue #3 is 70,000 characters; only the first 65,536 were scored.",
    ]);
  });

  it("says what to pass when there is nothing to score", () => {
    const error = failure(() => resolveTask({ task: "  ", description: "d" }, undefined, "push"));
    expect(error.code).toBe("missing_task");
    expect(error.message).toBe(
      "Nothing to score: pass the `task` input (and optionally `description`), or run the step on an issues, issue_comment, pull_request, pull_request_target event so the issue or pull request is scored (this run's event is `push`).",
    );
    const blank = failure(() =>
      resolveTask({ task: "", description: "" }, { ...item, title: " " }, "issues"),
    );
    expect(blank.message).toBe("The title of issue #3 is empty: pass the `task` input to say what to score.");
  });
});
