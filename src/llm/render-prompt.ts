const VARIABLE = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

export class PromptRenderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PromptRenderError";
  }
}

/** The `{{names}}` a template uses, in order of first use. */
export function templateVariables(template: string): string[] {
  return [...new Set([...template.matchAll(VARIABLE)].map((m) => m[1]!))];
}

/**
 * Fill `{{name}}` placeholders in one pass. Values are inserted as they are and never scanned
 * again, so a task that contains "{{rubric}}" stays text. A missing value is a bug in the prompt
 * data, so it throws instead of sending the model a literal placeholder.
 */
export function renderPrompt(template: string, variables: Readonly<Record<string, string>>): string {
  const missing = templateVariables(template).filter((name) => !Object.hasOwn(variables, name));
  if (missing.length > 0) {
    throw new PromptRenderError(
      `The prompt uses ${missing.map((n) => `{{${n}}}`).join(", ")} but no value was given for ${missing.length === 1 ? "it" : "them"}.`,
    );
  }
  return template.replace(VARIABLE, (_match, name: string) => variables[name]!);
}
