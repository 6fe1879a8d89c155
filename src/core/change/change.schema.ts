import { z } from "zod";
import { SIZE_BANDS } from "./size-bands.js";

/** The contract's `reading.change`: what a pull request's change holds, every figure exact and checkable. */
export const ChangeSchema = z
  .object({
    files: z
      .number()
      .int()
      .min(0)
      .meta({ description: "Files in the change (binary files count, with no lines)." }),
    additions: z.number().int().min(0).meta({ description: "Lines added: hunk lines starting with “+”." }),
    deletions: z.number().int().min(0).meta({ description: "Lines removed: hunk lines starting with “-”." }),
    tests: z.object({ files: z.number().int().min(0) }).meta({
      description:
        "Test files: a path segment test, tests, __tests__, spec or specs, or a name *.test.*, *.spec.*, *_test.*, test_*.py.",
    }),
    docs: z
      .number()
      .int()
      .min(0)
      .meta({ description: "Documentation files: *.md, *.mdx, *.rst, *.adoc, or under docs/." }),
    generated: z.number().int().min(0).meta({
      description:
        "Generated files: lockfiles, files under dist/, build/ or vendor/, minified files, and files whose first lines mark them generated (“Code generated … DO NOT EDIT”, “@generated”).",
    }),
    dependencies: z.array(z.string()).meta({
      description:
        "Dependency manifests and lockfiles touched, by path (package.json, go.mod, Cargo.lock, …).",
      example: ["package.json", "package-lock.json"],
    }),
    size: z.enum(SIZE_BANDS).meta({
      description:
        "XS, S, M, L or XL by lines changed outside generated files and lockfiles; the bands are percentiles of real pull requests (docs/api.md).",
    }),
    truncated: z.boolean().meta({
      description:
        "True where GitHub's file list was cut (it lists at most 3,000 files); false for a `diff`.",
    }),
    totalsOnly: z.literal(true).optional().meta({
      description:
        "Present (true) only where the files could not be listed (the Action's token may not read them) and the figures are the pull request's own totals: `files`, `additions` and `deletions` are exact; `tests`, `docs` and `generated` read 0 and `dependencies` is empty because no file was seen, and `size` counts every line.",
    }),
  })
  .meta({ id: "Change" });

export type ChangeReading = z.infer<typeof ChangeSchema>;
