/**
 * Pure rules: whether an event scores a subject under a repository's config (no GitHub, no I/O).
 */
import type { Subject, Trigger } from "./types.js";
import type { RepoConfig } from "../repo-config/repo-config.schema.js";
import { compileTitlePattern } from "../repo-config/title-pattern.js";
import { resolveOutputs } from "../repo-config/resolve-outputs.js";

export function skippedBy(config: RepoConfig, subject: Subject): string | undefined {
  const skipLabel = subject.labels.find((l) => config["skip-labels"].includes(l));
  if (skipLabel) return `skip label ${skipLabel}`;
  const pattern = config["skip-title-patterns"].find((p) =>
    compileTitlePattern(p).matcher(subject.title).find(),
  );
  if (pattern) return `title matches skip pattern ${pattern}`;
  return undefined;
}

/** Why this trigger does not score the subject under this config, or undefined when it does. */
export function skipReason(config: RepoConfig, trigger: Trigger, subject: Subject): string | undefined {
  if (!config.enabled) return "disabled by repository config";
  const hasTriggerLabel = subject.labels.includes(config["trigger-label"]);
  switch (trigger.kind) {
    case "command":
      if (!config.triggers["score-command"]) return "score command disabled";
      break;
    case "label-added":
      if (config.trigger !== "label" || trigger.label !== config["trigger-label"])
        return `label ${trigger.label} does not ask for a score`;
      break;
    case "head-pushed": {
      const outputs = resolveOutputs(config);
      if (!outputs.comment && !outputs.check && !outputs.sizeLabels)
        return "nothing follows new commits (no comment, check or size label)";
      if (config.triggers["pull-requests"].length === 0) return "pull request triggers disabled";
      if (config.trigger === "command") return "trigger mode command";
      if (config.trigger === "label" && !hasTriggerLabel) return "trigger label absent";
      break;
    }
    case "label-removed":
      if (!config["skip-labels"].includes(trigger.label)) return `label ${trigger.label} is not a skip label`;
      if (config.trigger === "command") return "trigger mode command";
      if (config.trigger === "label" && !hasTriggerLabel) return "trigger label absent";
      break;
    default: {
      if (config.trigger === "command") return "trigger mode command";
      if (config.trigger === "label" && !hasTriggerLabel) return "trigger label absent";
      const enabled = config.triggers[trigger.kind] as readonly string[];
      if (!enabled.includes(trigger.action)) return `trigger ${trigger.kind}.${trigger.action} disabled`;
    }
  }
  if (trigger.kind !== "command" && subject.draft && config.drafts === "skip") return "draft pull request";
  return skippedBy(config, subject);
}

export function labelsOf(item: { labels?: unknown }): string[] {
  const labels = Array.isArray(item.labels) ? (item.labels as unknown[]) : [];
  return labels
    .map((l) => (typeof l === "string" ? l : typeof l === "object" && l && "name" in l ? String(l.name) : ""))
    .filter(Boolean);
}
