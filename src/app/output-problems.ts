import { sql } from "kysely";
import type { Db } from "../storage/tables.js";
import type { ConfigDiagnostic } from "../repo-config/repo-config.schema.js";

/**
 * Problems the App's outputs met (a board it cannot reach, labels it may not write), per repository and output,
 * kept until that output works again. Maintainers read them in the answer to `/score` and `/score help`. With a
 * database every instance of a fleet shares them, so the answer lists them whichever instance met them; without
 * one they live in this process.
 */
export interface OutputProblems {
  /** Remember a problem; true when it is new or its message changed (then it is logged, once). */
  note(repository: string, output: string, message: string): Promise<boolean>;
  /** The output works again. */
  clear(repository: string, output: string): Promise<void>;
  list(repository: string): Promise<ConfigDiagnostic[]>;
}

const REPOS_KEPT = 1000;

export class MemoryOutputProblems implements OutputProblems {
  private readonly problems = new Map<string, Map<string, string>>();

  async note(repository: string, output: string, message: string): Promise<boolean> {
    const repo = repository.toLowerCase();
    const mine = this.problems.get(repo) ?? new Map<string, string>();
    const changed = mine.get(output) !== message;
    mine.set(output, message);
    if (!this.problems.has(repo) && this.problems.size >= REPOS_KEPT)
      this.problems.delete(this.problems.keys().next().value!);
    this.problems.set(repo, mine);
    return changed;
  }

  async clear(repository: string, output: string): Promise<void> {
    this.problems.get(repository.toLowerCase())?.delete(output);
  }

  async list(repository: string): Promise<ConfigDiagnostic[]> {
    const mine = this.problems.get(repository.toLowerCase());
    if (!mine) return [];
    return [...mine].sort(([a], [b]) => (a < b ? -1 : 1)).map(([key, message]) => ({ key, message }));
  }
}

export class DatabaseOutputProblems implements OutputProblems {
  constructor(private readonly db: Db) {}

  async note(repository: string, output: string, message: string): Promise<boolean> {
    // A row comes back only when it was inserted or its message changed: the first instance to see a problem
    // logs it, the others (and later deliveries) do not.
    const r = await sql<{ output: string }>`
      INSERT INTO output_problems (repository, output, message) VALUES (${repository.toLowerCase()}, ${output}, ${message})
      ON CONFLICT (repository, output) DO UPDATE SET message = excluded.message, noted_at = now()
      WHERE output_problems.message IS DISTINCT FROM excluded.message
      RETURNING output`.execute(this.db);
    return r.rows.length > 0;
  }

  async clear(repository: string, output: string): Promise<void> {
    await this.db
      .deleteFrom("output_problems")
      .where("repository", "=", repository.toLowerCase())
      .where("output", "=", output)
      .execute();
  }

  async list(repository: string): Promise<ConfigDiagnostic[]> {
    const rows = await this.db
      .selectFrom("output_problems")
      .select(["output", "message"])
      .where("repository", "=", repository.toLowerCase())
      .orderBy("output")
      .execute();
    return rows.map((r) => ({ key: r.output, message: r.message }));
  }
}
