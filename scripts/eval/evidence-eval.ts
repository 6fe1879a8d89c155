import { createHash } from "node:crypto";
import { EVIDENCE_TYPES, readEvidence, type EvidenceType } from "../../src/core/offline/read-evidence.js";
import { EVIDENCE_ANNOTATIONS } from "./evidence-annotations.js";
import { loadLabeled } from "./labeled-corpus.js";
import { loadNlbse } from "./nlbse.js";

/** A third of the annotated descriptions, chosen by a seeded hash before the finders were tuned: the held-out third. */
export const isHeldOutThird = (ref: string) =>
  createHash("sha256").update(`evidence-holdout-2026-11-24:${ref}`).digest()[0]! < 86;

/** The annotated descriptions with their text (from ../shared), or undefined where it is absent. */
export function annotatedTexts():
  { ref: string; title: string; body: string; types: Set<EvidenceType> }[] | undefined {
  const train = loadNlbse("train");
  const corpus = loadLabeled();
  if (!train || !corpus) return undefined;
  const byId = new Map(corpus.map((r) => [r.id, r]));
  return EVIDENCE_ANNOTATIONS.map(([ref, types]) => {
    const [source, key] = ref.split(":") as [string, string];
    const row =
      source === "nlbse-train"
        ? { title: train[Number(key)]!.title, body: train[Number(key)]!.body }
        : { title: byId.get(key)!.task, body: byId.get(key)!.description ?? "" };
    return { ref, ...row, types: new Set(types) };
  });
}

/** Precision and recall of each evidence finder on the annotated descriptions, as "P / R (n annotated)". */
export function evidenceFigures(part: "development" | "held-out"): Record<EvidenceType, string> | undefined {
  const rows = annotatedTexts()?.filter((r) => isHeldOutThird(r.ref) === (part === "held-out"));
  if (!rows) return undefined;
  const out = {} as Record<EvidenceType, string>;
  for (const type of EVIDENCE_TYPES) {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    for (const r of rows) {
      const found = readEvidence(r.title, r.body).some((e) => e.type === type);
      const truth = r.types.has(type);
      if (found && truth) tp++;
      else if (found) fp++;
      else if (truth) fn++;
    }
    const p = tp + fp ? (tp / (tp + fp)).toFixed(2) : "n/a";
    const rc = tp + fn ? (tp / (tp + fn)).toFixed(2) : "n/a";
    out[type] = `${p} / ${rc} (${tp + fn} of ${rows.length})`;
  }
  return out;
}

/** Each disagreement on the development part, for tuning (never the held-out third). */
export function evidenceMisses(): string[] {
  const rows = annotatedTexts()?.filter((r) => !isHeldOutThird(r.ref)) ?? [];
  const out: string[] = [];
  for (const r of rows) {
    const found = new Map(readEvidence(r.title, r.body).map((e) => [e.type, e.quote]));
    for (const type of EVIDENCE_TYPES) {
      if (found.has(type) && !r.types.has(type)) out.push(`FP ${type} ${r.ref}: ${found.get(type)}`);
      if (!found.has(type) && r.types.has(type)) out.push(`FN ${type} ${r.ref}`);
    }
  }
  return out;
}
