/**
 * The maintainers' commands: which comment is one, who may ask (triage access or more), the reactions that say a
 * command was seen or refused, and the App's replies (never mistaken for the report). The replies themselves
 * are beside this file: help.ts, backlog.ts, learn.ts.
 */
import type { Context } from "probot";
import type { IssueRef } from "../../github/report-comment.js";
import type { Command } from "../types.js";

/** A line that is exactly `/score` or `/score <word>`; anything after `/score` other than `help` gets the help. */
export const SCORE_COMMAND = /^[ \t]*\/score(?:[ \t]+(\S+))?[ \t]*$/im;
export const HINT = "Comment `/score` to score again.";
/** Roles that may ask for a re-score: the same people who can label and close issues. */
const COMMAND_ROLES = new Set(["admin", "maintain", "write", "triage"]);
/** Marks the App's replies to commands, so they are never mistaken for the report. */
export const REPLY_MARKER = "<!-- task-scorer:reply -->";

/** The command a comment asks for, or undefined when it is not one; any word but these gets the help. */
export function commandIn(comment: string): Command | undefined {
  const match = SCORE_COMMAND.exec(comment);
  if (!match) return undefined;
  const word = match[1]?.toLowerCase();
  return word === undefined ? "score" : word === "backlog" || word === "learn" ? word : "help";
}

export async function canCommand(context: Context, ref: IssueRef, username: string): Promise<boolean> {
  try {
    const { data } = await context.octokit.rest.repos.getCollaboratorPermissionLevel({
      owner: ref.owner,
      repo: ref.repo,
      username,
    });
    const role = (data as { role_name?: string }).role_name ?? data.permission;
    return COMMAND_ROLES.has(role) || data.permission === "admin" || data.permission === "write";
  } catch (error) {
    // 404: not a collaborator at all.
    context.log.debug({ err: error, username }, "permission check failed; command ignored");
    return false;
  }
}

/** A reaction is a receipt, not the work: failing to add one must not stop the job. */
export async function react(
  context: Context,
  ref: IssueRef,
  commentId: number,
  content: "eyes" | "confused",
) {
  try {
    await context.octokit.rest.reactions.createForIssueComment({
      owner: ref.owner,
      repo: ref.repo,
      comment_id: commentId,
      content,
    });
  } catch (error) {
    context.log.warn({ err: error, commentId, content }, "could not add a reaction");
  }
}

export async function reply(context: Context, ref: IssueRef, lines: string[]): Promise<void> {
  await context.octokit.rest.issues.createComment({ ...ref, body: [REPLY_MARKER, ...lines, ""].join("\n") });
}
