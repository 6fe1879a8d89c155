import { describe, expect, it } from "@jest/globals";
import { kindOfLabel, kindOfLabels, labelNames, normaliseLabel } from "../../src/learning/label-kinds.js";
import { ownLabelNames } from "../../src/learning/fit-calibration.js";

describe("a repository's label names, read as kinds", () => {
  it.each([
    ["Type: Bug", "bug"],
    ["type:bug", "bug"],
    ["bug", "bug"],
    ["Bug", "bug"],
    ["kind/bug", "bug"],
    ["🐛 regression", "bug"],
    ["crash", "bug"],
    ["Type: Feature Request", "feature"],
    ["type:feature", "feature"],
    ["feature-request", "feature"],
    ["Feature", "feature"],
    ["enhancement", "feature"],
    ["t-proposal", "feature"],
    ["type:support", "question"],
    ["*question", "question"],
    ["Questions and Help", "question"],
    ["question (invalid tracker)", "question"],
    ["how-to", "question"],
  ])("%s is a %s", (name, kind) => {
    expect(kindOfLabel(name)).toBe(kind);
  });

  it.each([
    "help wanted",
    "good first issue",
    "invalid",
    "duplicate",
    "wontfix",
    "priority: high",
    "needs-repro",
    "bug or feature?",
  ])("%s names no kind", (name) => {
    expect(kindOfLabel(name)).toBeUndefined();
  });

  it("normalises case, emoji, punctuation and prefixes", () => {
    expect(normaliseLabel("Type: Feature Request")).toBe("feature request");
    expect(normaliseLabel("kind/feature-request")).toBe("feature request");
  });

  it("an issue's labels must agree on one kind", () => {
    expect(kindOfLabels(["Type: Bug", "good first issue"])).toBe("bug");
    expect(kindOfLabels(["bug", "enhancement"])).toBeUndefined();
    expect(kindOfLabels([])).toBeUndefined();
    expect(labelNames([{ name: "bug" }, "feature", { id: 3 }])).toEqual(["bug", "feature"]);
  });
});

describe("the repository's own label names", () => {
  it("names each kind by the label most of its closed issues carry, ties in alphabetical order", () => {
    const closed = (labels: string[]) => ({
      number: 1,
      title: "t",
      body: "",
      labels,
      stateReason: "completed" as const,
    });
    expect(
      ownLabelNames([
        closed(["Type: Bug", "priority: high"]),
        closed(["Type: Bug"]),
        closed(["bug"]),
        closed(["feature-request"]),
        closed(["enhancement"]),
        closed(["good first issue"]),
      ]),
    ).toEqual({ bug: "Type: Bug", feature: "enhancement" });
  });
});
