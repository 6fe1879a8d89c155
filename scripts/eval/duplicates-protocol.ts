/**
 * The Hadoop duplicates benchmark's protocol (../shared/benchmarks/duplicates/README.md), shared by
 * duplicates.ts (the variants and the figures) and duplicates-rerank.ts (fitting the re-ranker on the development
 * part): loading the reports and pairs, the seeded held-out split, ranks, recall and MRR, and the claims.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import {
  isDuplicate,
  isSeries,
  SimilarIndex,
  type SimilarMethod,
} from "../../src/core/similar/similar-index.js";
import { parseCsv } from "./nlbse.js";

export const DIR = resolve(import.meta.dirname, "../../../shared/benchmarks/duplicates");
const SEED = "task-scorer-duplicates-holdout-2026-11-27";

export interface Report {
  id: number;
  title: string;
  body: string;
  created: number;
  /** Jira's resolution: "Duplicate" for a report closed as one (of a partner not always in the pairs file). */
  resolution: string;
}

const MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split(" ");
/** "08/Sep/21 11:49" → epoch ms (UTC; the order is what matters). */
function jiraDate(s: string): number {
  const m = /^(\d\d)\/(\w{3})\/(\d\d) (\d\d):(\d\d)$/.exec(s.trim());
  if (!m) throw new Error(`unreadable date: ${s}`);
  return Date.UTC(2000 + Number(m[3]), MONTHS.indexOf(m[2]!), Number(m[1]), Number(m[4]), Number(m[5]));
}

/**
 * Jira's markup as GitHub's markdown says the same: {code}/{noformat} blocks as fences, {{x}} as x, [text|url]
 * links as text, -deleted- as ~~deleted~~, !image.png|…! as ![](image.png), {color:…}text{color} as text. A format's conversion only: no word of Hadoop's is special-cased.
 */
export function jiraToMarkdown(text: string): string {
  return (
    text
      .replace(/\{(code|noformat)(?::[^}]*)?\}([\s\S]*?)(?:\{\1\}|$)/g, "\n```\n$2\n```\n")
      .replace(/\{\{([^}]*)\}\}/g, "$1")
      .replace(/\[([^|\]\n]+)\|[^\]\n]+\]/g, "$1")
      // {color:#de350b}text{color} (Jira's colour) as the text alone.
      .replace(/\{color(?::[^}\n]{0,40})?\}/gi, "")
      // !picture.png|width=562! (Jira's image) as GitHub's ![](picture.png).
      .replace(
        /!([^!|\n\s][^!|\n]{0,200}?\.(?:png|jpe?g|gif|bmp|svg|webp))(?:\|[^!\n]{0,200})?!/gi,
        "![]($1)",
      )
      // -struck through- (Jira's deleted text, hyphens at a word's edges) as GitHub's ~~struck through~~.
      .replace(/(^|[\s(])-(?=[^\s-])([^\n]*?[^\s-])-(?=$|[\s.,;:!?)])/gm, "$1~~$2~~")
  );
}

export function load(): { reports: Report[]; pairs: [number, number][] } | undefined {
  if (!existsSync(resolve(DIR, "hadoop-issues.csv"))) return undefined;
  const [head, ...rows] = parseCsv(readFileSync(resolve(DIR, "hadoop-issues.csv"), "utf8"));
  const col = (name: string) => head!.indexOf(name);
  const [ci, ct, cd, cc, cr] = [
    col("Issue id"),
    col("Summary"),
    col("Description"),
    col("Created"),
    col("Resolution"),
  ];
  const reports = rows
    .filter((r) => r.length > cc)
    .map((r) => ({
      id: Number(r[ci]),
      title: r[ct]!,
      body: jiraToMarkdown(r[cd] ?? ""),
      created: jiraDate(r[cc]!),
      resolution: r[cr] ?? "",
    }));
  const ids = new Set(reports.map((r) => r.id));
  const [, ...pairRows] = parseCsv(readFileSync(resolve(DIR, "hadoop-duplicate-pairs.csv"), "utf8"));
  const seen = new Set<string>();
  const pairs: [number, number][] = [];
  for (const [a, b] of pairRows.map((r) => r.map(Number))) {
    if (a === undefined || b === undefined || !ids.has(a) || !ids.has(b) || a === b) continue;
    const key = `${Math.min(a, b)}-${Math.max(a, b)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    pairs.push([Math.min(a, b), Math.max(a, b)]);
  }
  return { reports, pairs };
}

/** Each report's duplicate group, named by its lowest id (a lone report is its own). */
export function groupRoot(pairs: readonly (readonly [number, number])[]): (id: number) => number {
  const parent = new Map<number, number>();
  const find = (x: number): number => {
    const p = parent.get(x) ?? x;
    return p === x ? x : find(p);
  };
  for (const [a, b] of pairs) {
    const [ra, rb] = [find(a), find(b)];
    if (ra !== rb) parent.set(Math.max(ra, rb), Math.min(ra, rb));
  }
  return find;
}

/**
 * The benchmark and its held-out split, for a command line: exits with a message where the benchmark is absent
 * (it sits beside the clone, in ../shared).
 */
export function loadSplitOrExit(): {
  reports: Report[];
  pairs: [number, number][];
  held: (id: number) => boolean;
} {
  const data = load();
  if (!data) {
    console.error(`${DIR}/hadoop-issues.csv not found: the benchmark sits beside the clone (../shared).`);
    process.exit(2);
  }
  return { ...data, held: heldOutOf(data.reports, data.pairs) };
}

/** Held out: a duplicate group (its lowest id) or a lone report, by a seeded hash: about a third. */
export function heldOutOf(reports: Report[], pairs: [number, number][]): (id: number) => boolean {
  const find = groupRoot(pairs);
  const held = new Set<number>();
  for (const r of reports) {
    const root = find(r.id);
    if (createHash("sha256").update(`${SEED}:${root}`).digest()[0]! < 86) held.add(r.id);
  }
  return (id) => held.has(id);
}

export interface Figures {
  pairs: number;
  r1: number;
  r5: number;
  r10: number;
  mrr: number;
}

export interface Run {
  /** Per pair: the rank of the partner (1-based; Infinity when not found at all). */
  ranks: { pair: [number, number]; rank: number }[];
  /** Per report as a query: its top candidates with scores (for the claims at any threshold). */
  tops: { query: number; hits: { key: number; score: number }[]; series: boolean }[];
}

export function run(method: SimilarMethod, reports: Report[], pairs: [number, number][]): Run {
  const index = new SimilarIndex(method);
  const byId = new Map(reports.map((r) => [r.id, r]));
  const features = new Map(reports.map((r) => [r.id, index.features(r.title, r.body)]));
  for (const r of reports) index.set(r.id, features.get(r.id)!);
  const queryOf = (q: Report) => (key: number) => key !== q.id && byId.get(key)!.created <= q.created;
  const ranks = pairs.map((pair) => {
    const [a, b] = pair.map((id) => byId.get(id)!);
    // The later report asks; ties in time: the higher id (Jira numbers in order of creation).
    const [query, target] =
      a!.created > b!.created || (a!.created === b!.created && a!.id > b!.id) ? [a!, b!] : [b!, a!];
    const hits = index.query(features.get(query.id)!, reports.length, queryOf(query), query.id);
    const at = hits.findIndex((h) => h.key === target.id);
    return { pair, rank: at < 0 ? Infinity : at + 1 };
  });
  const tops = reports.map((q) => {
    const hits = index
      .query(features.get(q.id)!, 5, queryOf(q), q.id)
      .map(({ key, score }) => ({ key, score }));
    // Two titles of a series are never claimed (similar-index.ts, isSeries), whatever the rule.
    const first = hits[0] && features.get(hits[0].key);
    const series = !!method.rerank && !!first && isSeries(features.get(q.id)!.title, first.title);
    return { query: q.id, hits, series };
  });
  return { ranks, tops };
}

export function figures(ranks: Run["ranks"]): Figures {
  const n = ranks.length;
  const share = (k: number) => ranks.filter((r) => r.rank <= k).length / n;
  return {
    pairs: n,
    r1: share(1),
    r5: share(5),
    r10: share(10),
    mrr: ranks.reduce((s, r) => s + (Number.isFinite(r.rank) ? 1 / r.rank : 0), 0) / n,
  };
}

export interface Rule {
  duplicateAt: number;
  duplicateMargin: number;
}

/**
 * Claims under a rule: per query, its first candidate when it passes (see isDuplicate), and the share that
 * are real pairs.
 */
export function claims(tops: Run["tops"], rule: Rule, partners: Set<string>) {
  let made = 0;
  let right = 0;
  for (const t of tops) {
    const [h, next] = t.hits;
    if (!h || t.series || !isDuplicate(rule, h.score, next?.score ?? 0)) continue;
    made++;
    if (partners.has(`${Math.min(t.query, h.key)}-${Math.max(t.query, h.key)}`)) right++;
  }
  return { made, right, precision: made ? right / made : NaN };
}

/**
 * The rule with the most right development claims at a claim precision of at least `wanted` (and at least 5
 * claims), holding at every higher threshold for the same margin too (no lucky point). When no rule reaches
 * `wanted`: the rule of the highest development precision with at least 10 claims (ties: more right claims).
 */
export function chooseRule(tops: Run["tops"], partners: Set<string>, wanted: number): Rule {
  let best: Rule = { duplicateAt: 1.01, duplicateMargin: 0 };
  let bestRight = -1;
  for (const margin of [0, 0.02, 0.05, 0.1, 0.15, 0.2])
    for (let t = 20; t <= 100; t++) {
      const rule = { duplicateAt: t / 100, duplicateMargin: margin };
      const c = claims(tops, rule, partners);
      if (c.made < 5 || c.precision < wanted || c.right <= bestRight) continue;
      let stable = true;
      for (let u = t + 1; u <= 100 && stable; u++) {
        const d = claims(tops, { duplicateAt: u / 100, duplicateMargin: margin }, partners);
        if (d.made > 0 && d.precision < wanted - 1e-9) stable = false;
      }
      if (!stable) continue;
      best = rule;
      bestRight = c.right;
    }
  if (bestRight >= 0) return best;
  let bestPrecision = -1;
  for (const margin of [0, 0.02, 0.05, 0.1, 0.15, 0.2])
    for (let t = 20; t <= 100; t++) {
      const rule = { duplicateAt: t / 100, duplicateMargin: margin };
      const c = claims(tops, rule, partners);
      if (c.made < 10) continue;
      if (c.precision > bestPrecision || (c.precision === bestPrecision && c.right > bestRight)) {
        best = rule;
        bestPrecision = c.precision;
        bestRight = c.right;
      }
    }
  return best;
}
