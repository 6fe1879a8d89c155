import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** One NLBSE'24 issue (../shared/benchmarks/nlbse24): read at run time, never copied into the project. */
export interface NlbseIssue {
  repo: string;
  label: "bug" | "feature" | "question";
  title: string;
  body: string;
}

const here = dirname(fileURLToPath(import.meta.url));
export const NLBSE_DIR = resolve(here, "../../../shared/benchmarks/nlbse24");

/** RFC 4180 CSV: quoted fields may hold commas, quotes ("") and newlines. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += c;
  }
  if (field !== "" || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

export function loadNlbse(split: "train" | "test"): NlbseIssue[] | undefined {
  const path = resolve(NLBSE_DIR, `issues_${split}.csv`);
  if (!existsSync(path)) return undefined;
  const [header, ...rows] = parseCsv(readFileSync(path, "utf8"));
  const col = (name: string) => header!.indexOf(name);
  const [repo, label, title, body] = ["repo", "label", "title", "body"].map(col);
  return rows
    .filter((r) => r.length >= header!.length)
    .map((r) => ({
      repo: r[repo!]!,
      label: r[label!] as NlbseIssue["label"],
      title: r[title!]!,
      body: r[body!] ?? "",
    }));
}
