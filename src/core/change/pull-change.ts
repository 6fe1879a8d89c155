import type { ChangeReading } from "./change.schema.js";
import { parseUnifiedDiff, type ChangedFile } from "./parse-diff.js";
import { summarizeChange } from "./read-change.js";

/**
 * Where a pull request's change came from, as the adapters hand it to scoreTask: the files GitHub listed (the
 * App and the Action, `GET …/pulls/{n}/files`, mapped with fromGitHub as each page arrives so no patch text is
 * kept), or only the pull request's own totals (the Action's fallback when its token cannot list files).
 */
export type ChangeSource =
  | { kind: "files"; files: readonly ChangedFile[]; truncated: boolean }
  | { kind: "totals"; additions: number; deletions: number; files: number };

/** The reading of a change and, where they are known, its files (the personas' statements read them). */
export interface ReadChangeSource {
  reading: ChangeReading;
  files: readonly ChangedFile[] | undefined;
}

/** A unified diff (REST `diff`, the CLI's `--diff`) as a source: its files, never cut. */
export function diffSource(diff: string): ChangeSource {
  return { kind: "files", files: parseUnifiedDiff(diff), truncated: false };
}

/**
 * The contract's `reading.change` of a source. From totals, only the counts are known: tests, docs and generated
 * files read 0, dependencies none, the size band counts every line (generated ones included), and `totalsOnly`
 * says so, so no surface states "no test files" from a list it never saw.
 */
export function readChangeSource(source: ChangeSource): ReadChangeSource {
  if (source.kind === "files")
    return { reading: summarizeChange(source.files, source.truncated), files: source.files };
  const whole = (n: number) => (Number.isInteger(n) && n > 0 ? n : 0);
  const files = whole(source.files);
  const additions = whole(source.additions);
  const deletions = whole(source.deletions);
  const counted = summarizeChange(
    [{ path: "", status: "modified", additions, deletions, binary: false, markedGenerated: false }],
    false,
  );
  return {
    reading: {
      ...counted,
      files,
      tests: { files: 0 },
      docs: 0,
      generated: 0,
      dependencies: [],
      totalsOnly: true,
    },
    files: undefined,
  };
}
