import { describe, expect, it } from "@jest/globals";
import { findTaskGaps } from "../../src/core/task-gaps.js";

describe("findTaskGaps", () => {
  it("asks a bug report without steps for steps to reproduce", () => {
    expect(
      findTaskGaps(
        "Login crashes on Safari",
        "When I log in on Safari the page goes blank and nothing loads.",
      ),
    ).toEqual(["steps_to_reproduce"]);
  });

  it("accepts numbered steps or a stack trace as reproduction", () => {
    const long = "The export fails for every workspace with more than one project in it.";
    expect(
      findTaskGaps("Export fails", `${long}\n\n## Steps to reproduce\n1. Open settings\n2. Click export`),
    ).toEqual([]);
    expect(findTaskGaps("Export fails", `${long}\n\n\`\`\`\nTypeError: x is undefined\n\`\`\``)).toEqual([]);
  });

  it("asks a feature request for acceptance criteria and evidence of demand when it has neither", () => {
    expect(
      findTaskGaps("Add dark mode", "It would be nice to have a dark theme for the dashboard pages."),
    ).toEqual(["acceptance_criteria", "evidence_of_demand"]);
  });

  it("is satisfied by acceptance criteria and numbers about the people affected", () => {
    const body =
      "12 customers asked for this in support tickets.\n\n## Acceptance criteria\n- [ ] Toggle in settings\n- [ ] Remembers the choice";
    expect(findTaskGaps("Add dark mode", body)).toEqual([]);
  });

  it("asks for a description when there is almost none (template comments do not count)", () => {
    expect(findTaskGaps("Add dark mode", "<!-- Describe your feature -->\nplease")).toContain("description");
  });

  it("judges the text only: the same text gives the same gaps", () => {
    expect(findTaskGaps("Fix typo in README", "Teh -> The in the first line of the README file.")).toEqual(
      findTaskGaps("Fix typo in README", "Teh -> The in the first line of the README file."),
    );
  });
});
