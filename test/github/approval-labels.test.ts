import { describe, expect, it } from "@jest/globals";
import { applyApprovalLabels } from "../../src/github/approval-labels.js";
import type { LabelsOctokit } from "../../src/github/github-request.js";

const httpError = (status: number) => Object.assign(new Error(`HTTP ${status}`), { status });

function repo(existing: string[] = []) {
  const labels = new Set(existing);
  const calls: string[] = [];
  const octokit: LabelsOctokit = {
    rest: {
      issues: {
        getLabel: async ({ name }) => {
          if (!labels.has(name)) throw httpError(404);
        },
        createLabel: async ({ name, color }) => {
          calls.push(`create ${name} #${color}`);
          labels.add(name);
        },
        addLabels: async ({ labels: l }) => void calls.push(`add ${l.join(",")}`),
        removeLabel: async ({ name }) => {
          calls.push(`remove ${name}`);
          if (name === "gone") throw httpError(404);
        },
      },
    },
  };
  return { octokit, calls };
}

const ref = { owner: "o", repo: "r", issue_number: 1 };
const names = { approved: "task-scorer: approved", rejected: "task-scorer: not approved" };

describe("the verdict's label", () => {
  it("creates the label the first time, puts it on, and takes the other verdict's label off", async () => {
    const r = repo();
    const result = await applyApprovalLabels(r.octokit, ref, names, true, ["bug", names.rejected]);
    expect(result).toEqual({ added: [names.approved], removed: [names.rejected] });
    expect(r.calls).toEqual([
      `create ${names.approved} #0e8a16`,
      `add ${names.approved}`,
      `remove ${names.rejected}`,
    ]);
  });

  it("touches nothing when the issue already carries the right label, and never a person's own labels", async () => {
    const r = repo([names.rejected]);
    expect(await applyApprovalLabels(r.octokit, ref, names, false, ["bug", names.rejected])).toEqual({
      added: [],
      removed: [],
    });
    expect(r.calls).toEqual([]);
  });

  it("a label someone removed meanwhile is not an error", async () => {
    const r = repo([names.approved]);
    const result = await applyApprovalLabels(r.octokit, ref, { approved: "x", rejected: "gone" }, true, [
      "gone",
    ]);
    expect(result.removed).toEqual([]);
  });
});
