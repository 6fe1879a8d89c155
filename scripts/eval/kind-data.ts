import type { KindExample } from "./fit-kind.js";
import { loadNlbse } from "./nlbse.js";

/**
 * The kind model's training data: the NLBSE'24 training split only. The labelled corpus was tried as extra
 * data and lowered the cross-validated macro-F1 (0.77 to 0.60: it is mostly feature requests from many small
 * projects), so it is not used.
 */
export function kindExamples(): KindExample[] | undefined {
  return loadNlbse("train")?.map((r) => ({ repo: r.repo, title: r.title, body: r.body, label: r.label }));
}
