/**
 * `/score` and `/score help`: who may ask (triage access or more), the reactions that say a command was seen
 * or refused, the App's replies (never mistaken for the report), and the help text.
 */
import { diagnosticLines } from "./repo-config-loader.js";
import type { Context } from "probot";
import { escapeMarkdown } from "../core/render-comment.js";
import type { IssueRef } from "../github/report-comment.js";
import { REPO_CONFIG_FILE, type ParsedRepoConfig } from "../repo-config/repo-config.schema.js";

/** A line that is exactly `/score` or `/score <word>`; anything after `/score` other than `help` gets the help. */
export const SCORE_COMMAND = /^[ \t]*\/score(?:[ \t]+(\S+))?[ \t]*$/im;
export const HINT = "Comment `/score` to score again.";
/** Roles that may ask for a re-score: the same people who can label and close issues. */
const COMMAND_ROLES = new Set(["admin", "maintain", "write", "triage"]);
/** Marks the App's replies to commands, so they are never mistaken for the report. */
export const REPLY_MARKER = "<!-- task-scorer:reply -->";

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

export function helpText(config: ParsedRepoConfig): string[] {
  const c = config.config;
  const mode =
    c.trigger === "always"
      ? "every new issue and pull request is scored"
      : c.trigger === "label"
        ? `issues and pull requests are scored when they carry the label \`${escapeMarkdown(c["trigger-label"])}\``
        : "issues and pull requests are scored only on `/score`";
  const lines = [
    "**task-scorer commands** (from people with triage, write, maintain or admin access):",
    "",
    "- `/score`: score this issue or pull request now, even if nothing changed. 👀 means it was accepted.",
    "- `/score backlog`: rank this repository's open issues: each is scored silently (no comment on old issues), and the ranked backlog is linked in the reply.",
    "- `/score learn`: learn again from this repository's closed issues (the labels maintainers chose, and whether each was completed or not planned), then score the open issues again.",
    "- `/score help`: this help.",
    "",
    `In this repository ${c.enabled ? mode : "the App is turned off"} (\`.github/${REPO_CONFIG_FILE}\`).`,
  ];
  if (config.diagnostics.length > 0) {
    lines.push("", "Problems in the configuration:", ...diagnosticLines(config.diagnostics));
  } else {
    lines.push("The configuration has no problems.");
  }
  return lines;
}
