/**
 * Step 1, authorize: each command is answered with a reaction, 👀 from someone with triage access or more, 😕
 * otherwise (and then it asks for nothing). What is left says what the job was asked to do.
 */
import type { Context } from "probot";
import { canCommand, react } from "../commands/command.js";
import type { Command, Subject, Trigger } from "../types.js";

export interface Asked {
  /** The triggers that ask for a score: every event, and `/score` from someone allowed. */
  reasons: Trigger[];
  /** The other commands asked for by someone allowed. */
  commands: ReadonlySet<Exclude<Command, "score">>;
}

export async function authorize(
  context: Context,
  subject: Subject,
  triggers: readonly Trigger[],
  log: Context["log"],
): Promise<Asked> {
  const commands = new Set<Command>();
  for (const t of triggers) {
    if (t.kind !== "command") continue;
    if (!(await canCommand(context, subject.ref, t.commenter))) {
      log.info({ commenter: t.commenter }, "/score from someone without write or triage access refused");
      await react(context, subject.ref, t.commentId, "confused");
      continue;
    }
    await react(context, subject.ref, t.commentId, "eyes");
    commands.add(t.command);
  }
  return {
    reasons: triggers.filter((t) => t.kind !== "command" || (t.command === "score" && commands.has("score"))),
    commands: new Set([...commands].filter((c): c is Exclude<Command, "score"> => c !== "score")),
  };
}

/** Whether anything was asked at all (nothing: the job ends before reading the repository's file). */
export function askedAnything(asked: Asked): boolean {
  return asked.reasons.length > 0 || asked.commands.size > 0;
}

/** Whether a maintainer asked with `/score` (their answer carries the configuration's problems). */
export function scoreCommanded(asked: Asked): boolean {
  return asked.reasons.some((t) => t.kind === "command");
}
