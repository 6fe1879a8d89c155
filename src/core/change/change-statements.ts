/**
 * What each persona can say about a pull request's change, exactly: short sentences of counts and fixed words,
 * at most one per persona, each persona's its own (no sentence is given to two). Nothing about the person who
 * opened the pull request: the report judges the change. Nothing where the change gives a persona nothing true
 * to say, and nothing from files no one listed (a change read from the pull request's totals only).
 *
 * - Technical Architect: integration against bulk: lines in new files against changes to existing ones, the
 *   generated or vendored share, tests among the files, the dependency manifests and lockfiles touched.
 * - Product Manager: the issues the description says it closes (GitHub's closing keywords), each with its
 *   report's average and verdict where the caller holds one (`linked`: the App's backlog, same repository only).
 * - UX Designer: the user-facing files it changes (templates, stylesheets, UI components), only when there are.
 */
import type { PersonaId } from "../personas.js";
import { pathFacts } from "./classify-path.js";
import { issueName, linkedIssues, type LinkedReports } from "./linked-issues.js";
import type { ChangeReading } from "./change.schema.js";
import type { ChangedFile } from "./parse-diff.js";
import type { ReadChangeSource } from "./pull-change.js";
import { isGeneratedFile } from "./read-change.js";

export type ChangeStatements = Partial<Record<PersonaId, string>>;

const count = (n: number) => n.toLocaleString("en");
const plural = (n: number, one: string, many = `${one}s`) => `${count(n)} ${n === 1 ? one : many}`;

/** "a", "a and b", "a, b and c", "a, b, c and 2 more" (at most three named). */
function listed(names: readonly string[], total = names.length): string {
  const shown = names.slice(0, 3);
  const more = total - shown.length;
  if (more > 0) return `${shown.join(", ")} and ${count(more)} more`;
  return shown.length <= 1 ? (shown[0] ?? "") : `${shown.slice(0, -1).join(", ")} and ${shown.at(-1)}`;
}

/** A file's name as it may be shown: plain letters, digits and ._+- only (no markup, no control characters). */
const SHOWABLE = /^[A-Za-z0-9._+-]{1,60}$/;

/** `reading` is the change's summary of the same files: its counts of tests and generated files are used as they are. */
function architect(files: readonly ChangedFile[], reading: ChangeReading) {
  const { dependencies, truncated, generated } = reading;
  const tests = reading.tests.files;
  let newFiles = 0;
  let newLines = 0;
  let oldFiles = 0;
  let oldLines = 0;
  let generatedLines = 0;
  for (const f of files) {
    const lines = f.additions + f.deletions;
    if (isGeneratedFile(f)) {
      generatedLines += lines;
    } else if (f.status === "added") {
      newFiles++;
      newLines += lines;
    } else {
      oldFiles++;
      oldLines += lines;
    }
  }
  const parts: string[] = [];
  // New against existing is read outside generated files, which are counted on their own.
  const scope = generated > 0 ? " outside generated or vendored files" : "";
  const changing = `${plural(oldLines, "line")} ${oldLines === 1 ? "changes" : "change"} ${plural(oldFiles, "existing file")}`;
  if (newFiles > 0 && oldFiles > 0)
    parts.push(
      `${plural(newLines, "line")} ${newLines === 1 ? "is" : "are"} in ${plural(newFiles, "new file")} and ${changing}${scope}`,
    );
  else if (newFiles > 0)
    parts.push(`every file${scope} is new (${plural(newLines, "line")} in ${plural(newFiles, "file")})`);
  else if (oldFiles > 0) parts.push(`no file${scope} is new (${changing})`);
  const total = newLines + oldLines + generatedLines;
  if (generated > 0)
    parts.push(
      total > 0
        ? `${plural(generated, "generated or vendored file")} ${generated === 1 ? "holds" : "hold"} ${share(generatedLines, total)} of the lines`
        : `${plural(generated, "file")} ${generated === 1 ? "is" : "are"} generated or vendored`,
    );
  if (tests > 0)
    parts.push(
      `${count(tests)} of the ${plural(files.length, "file")} ${tests === 1 ? "is a test" : "are tests"}`,
    );
  else if (oldFiles + newFiles > 0) parts.push(`none of the ${plural(files.length, "file")} is a test`);
  if (dependencies.length > 0) {
    const names = [...new Set(dependencies.map((p) => p.slice(p.lastIndexOf("/") + 1)))];
    const shown = names.filter((n) => SHOWABLE.test(n));
    parts.push(
      shown.length > 0
        ? `it touches ${listed(shown, names.length)}`
        : `it touches ${plural(names.length, "dependency manifest or lockfile", "dependency manifests or lockfiles")}`,
    );
  }
  if (parts.length === 0) return undefined;
  const where = truncated
    ? `Among the first ${plural(files.length, "file")} GitHub listed, `
    : "In the change, ";
  return `${where}${parts.join("; ")}.`;
}

/** A share as a whole percentage that is never 0 % or 100 % unless it is exactly that. */
function share(part: number, whole: number): string {
  const pct = Math.round((part / whole) * 100);
  return `${part === whole ? 100 : part === 0 ? 0 : Math.min(99, Math.max(1, pct))}%`;
}

const STYLE_EXTENSIONS = [".css", ".scss", ".sass", ".less", ".styl", ".pcss"];
const TEMPLATE_EXTENSIONS = [
  ".html",
  ".htm",
  ".hbs",
  ".handlebars",
  ".mustache",
  ".ejs",
  ".pug",
  ".jade",
  ".njk",
  ".jinja",
  ".jinja2",
  ".j2",
  ".erb",
  ".twig",
  ".liquid",
  ".cshtml",
  ".razor",
  ".jsp",
  ".gohtml",
  ".tmpl",
];
const COMPONENT_EXTENSIONS = [".vue", ".svelte", ".jsx", ".tsx", ".astro"];

type Facing = "template" | "stylesheet" | "component";

/** Whether a file is one users see: a template, a stylesheet or a UI component (by its name alone). */
export function userFacingKind(path: string): Facing | undefined {
  const facts = pathFacts(path);
  if (facts.test || facts.doc || facts.generated) return undefined;
  const lower = path.toLowerCase();
  const name = lower.slice(lower.lastIndexOf("/") + 1);
  const ends = (list: readonly string[]) => list.some((e) => name.endsWith(e));
  if (ends(STYLE_EXTENSIONS)) return "stylesheet";
  if (ends(TEMPLATE_EXTENSIONS)) return "template";
  if (ends(COMPONENT_EXTENSIONS) && !name.includes(".stories.")) return "component";
  return undefined;
}

function ux(files: readonly ChangedFile[]): string | undefined {
  const n = { template: 0, stylesheet: 0, component: 0 };
  for (const f of files) {
    const kind = isGeneratedFile(f) ? undefined : userFacingKind(f.path);
    if (kind) n[kind]++;
  }
  const parts = [
    n.template > 0 ? plural(n.template, "template") : "",
    n.stylesheet > 0 ? plural(n.stylesheet, "stylesheet") : "",
    n.component > 0 ? plural(n.component, "UI component") : "",
  ].filter(Boolean);
  if (parts.length === 0) return undefined;
  return `It changes what users see: ${listed(parts)}.`;
}

/** A score as the report comment shows one: "7", "7.4". */
const scoreText = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));

/** "#12", or "#12 (scored 7.4, approved)" when its report is known. */
function namedWithReport(name: string, linked: LinkedReports | undefined): string {
  const known = linked?.get(name);
  if (!known || !Number.isFinite(known.score)) return name;
  return `${name} (scored ${scoreText(known.score)}, ${known.approved ? "approved" : "below the approval bar"})`;
}

function product(description: string, linked: LinkedReports | undefined): string | undefined {
  const links = linkedIssues(description);
  if (links.length === 0) return undefined;
  const names = links.map((issue) => namedWithReport(issueName(issue), linked));
  return `Its description says it closes ${listed(names)}.`;
}

/**
 * `linked`: the reports of the issues the description closes, where the caller has them (see LinkedReports);
 * without it, or for an issue not in it, the issue is named only.
 */
export function changeStatements(
  read: ReadChangeSource,
  description: string,
  linked?: LinkedReports,
): ChangeStatements {
  const statements: ChangeStatements = {};
  const { files, reading } = read;
  const said = new Set<string>();
  const give = (persona: PersonaId, sentence: string | undefined) => {
    if (!sentence || said.has(sentence)) return;
    said.add(sentence);
    statements[persona] = sentence;
  };
  if (files) {
    give("architect", architect(files, reading));
    give("ux", ux(files));
  }
  give("product", product(description, linked));
  return statements;
}
