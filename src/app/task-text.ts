import { createHash } from "node:crypto";

/** What identifies a task's text (an unchanged issue is not scored again), and the cut to the API's limits. */
export function hashText(title: string, body: string): string {
  return createHash("sha256").update(title).update("\u0000").update(body).digest("hex").slice(0, 32);
}

export function clip(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : chars.slice(0, max).join("");
}
