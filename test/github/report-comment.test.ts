import { describe, expect, it } from "@jest/globals";
import { REPORT_MARKER } from "../../src/core/render-comment.js";
import { upsertReportComment, type IssueCommentsOctokit } from "../../src/github/report-comment.js";

/** An issue's comments in memory, behind the slice of Octokit the module uses. */
function issue(initial: { id: number; body: string }[] = [], onCreate?: () => void) {
  const comments = [...initial];
  let next = 100;
  const calls: string[] = [];
  const octokit: IssueCommentsOctokit = {
    rest: {
      issues: {
        listComments: async ({ per_page, page }) => {
          calls.push(`list ${page}`);
          return { data: comments.slice((page - 1) * per_page, page * per_page).map((c) => ({ ...c })) };
        },
        createComment: async ({ body }) => {
          calls.push("create");
          onCreate?.();
          const c = { id: next++, body };
          comments.push(c);
          return { data: { id: c.id, html_url: `https://github.com/o/r/issues/1#issuecomment-${c.id}` } };
        },
        updateComment: async ({ comment_id, body }) => {
          calls.push(`update ${comment_id}`);
          comments.find((c) => c.id === comment_id)!.body = body;
          return { data: { id: comment_id } };
        },
        deleteComment: async ({ comment_id }) => {
          calls.push(`delete ${comment_id}`);
          comments.splice(
            comments.findIndex((c) => c.id === comment_id),
            1,
          );
        },
      },
    },
  };
  return { octokit, comments, calls };
}

const ref = { owner: "o", repo: "r", issue_number: 1 };
const report = (text: string) => `${REPORT_MARKER}\n${text}`;

describe("one report comment per issue", () => {
  it("is created once, then edited in place, and left alone when nothing changed", async () => {
    const gh = issue([{ id: 1, body: "a person's comment" }]);
    expect((await upsertReportComment(gh.octokit, ref, report("6.4"))).action).toBe("created");
    expect((await upsertReportComment(gh.octokit, ref, report("7.0"))).action).toBe("updated");
    expect((await upsertReportComment(gh.octokit, ref, report("7.0"))).action).toBe("unchanged");
    expect(gh.comments.map((c) => c.body)).toEqual(["a person's comment", report("7.0")]);
    expect(gh.calls.filter((c) => !c.startsWith("list"))).toEqual(["create", "update 100"]);
  });

  it("finds the report on a later page by asking for pages by number, and stops at the last one", async () => {
    const people = Array.from({ length: 230 }, (_, i) => ({ id: i + 1, body: `comment ${i + 1}` }));
    const gh = issue([...people, { id: 500, body: report("6.4") }, { id: 501, body: "after" }]);
    const result = await upsertReportComment(gh.octokit, ref, report("7.0"));
    expect(result).toMatchObject({ action: "updated", commentId: 500 });
    // 232 comments: pages 1, 2 and 3 (32 on the last), then no fourth request.
    expect(gh.calls).toEqual(["list 1", "list 2", "list 3", "update 500"]);
  });

  it("after a race between two writers, the oldest report is kept and the copies are deleted", async () => {
    const gh = issue([
      { id: 5, body: report("old") },
      { id: 9, body: report("copy") },
    ]);
    const result = await upsertReportComment(gh.octokit, ref, report("new"));
    expect(result).toMatchObject({ action: "updated", commentId: 5, removedDuplicates: 1 });
    expect(gh.comments).toEqual([{ id: 5, body: report("new") }]);
  });

  it("if another writer created one at the same moment, this writer's copy goes and the older one is kept", async () => {
    const gh = issue([], () => gh.comments.push({ id: 50, body: report("other writer") }));
    const result = await upsertReportComment(gh.octokit, ref, report("mine"));
    expect(result.commentId).toBe(50);
    expect(gh.comments).toEqual([{ id: 50, body: report("mine") }]);
  });

  it("refuses a body without the marker (it could never be found again to edit)", async () => {
    await expect(upsertReportComment(issue().octokit, ref, "no marker")).rejects.toThrow(/marker/);
  });
});
