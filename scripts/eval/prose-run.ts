import { scoreOffline } from "../../src/core/offline/offline-scorer.js";
import { ScoreRequestSchema } from "../../src/core/task-request.schema.js";
import { proseFigures, proseRows, type ProseInput } from "./prose.js";
import { loadPublicTexts, type PublicText } from "./public-texts.js";

/**
 * `npm run eval -- --prose`: the offline scorer's reports over the public texts (the labeled corpus's
 * development part and the NLBSE'24 train split), measured by scripts/eval/prose.ts. Each set is measured on its
 * own (boilerplate's 5% is of that set's reports), then both together.
 */
export function runProseEval(): void {
  const texts = loadPublicTexts();
  if (!texts) {
    console.log("prose eval skipped: ../shared (NLBSE'24 train split, labeled corpus) not found.");
    return;
  }
  const t0 = performance.now();
  const reportOf = (t: PublicText): ProseInput | undefined => {
    const parsed = ScoreRequestSchema.safeParse({ task: t.title, description: t.description });
    if (!parsed.success) return undefined;
    const verdicts = scoreOffline(parsed.data);
    return { title: t.title, description: t.description, reasoning: verdicts.map((v) => v.reasoning) };
  };
  const sets: [string, ProseInput[]][] = [
    ["corpus development", texts.filter((t) => t.source === "corpus-development")],
    ["NLBSE'24 train", texts.filter((t) => t.source === "nlbse24-train")],
  ].map(([name, xs]) => [name as string, (xs as PublicText[]).map(reportOf).filter((r) => r !== undefined)]);
  sets.push(["both", sets.flatMap(([, r]) => r)]);
  const figures = sets.map(([name, reports]) => [name, proseFigures(reports)] as const);
  const rows = figures.map(([, f]) => proseRows(f));
  const names = rows[0]!.map(([m]) => m);
  const w = Math.max(...names.map((n) => n.length)) + 2;
  const col = 34;
  console.log(`Prose of the offline scorer's reports (scripts/eval/prose.ts)\n`);
  console.log("".padEnd(w) + figures.map(([n]) => n.padEnd(col)).join("") + "target");
  names.forEach((n, i) =>
    console.log(n.padEnd(w) + rows.map((r) => r[i]![1].padEnd(col)).join("") + rows[0]![i]![2]),
  );
  const both = figures[figures.length - 1]![1];
  console.log(`\nmost common boilerplate sentences (both sets, ${both.reports} reports):`);
  for (const [s, n] of both.topBoilerplate) console.log(`  ${n} reports: ${s.slice(0, 120)}`);
  for (const m of both.misquoteExamples) console.log(`  misquote: “${m}”`);
  console.log(`${((performance.now() - t0) / 1000).toFixed(1)} s`);
}
