/** `/score help`: the commands, how this repository is set up, and the problems its configuration has. */
import { escapeMarkdown } from "../../core/render-comment.js";
import { REPO_CONFIG_FILE, type ParsedRepoConfig } from "../../repo-config/repo-config.schema.js";
import { diagnosticLines } from "../repo-config-loader.js";

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
