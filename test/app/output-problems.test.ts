import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import {
  DatabaseOutputProblems,
  MemoryOutputProblems,
  type OutputProblems,
} from "../../src/app/output-problems.js";
import { outputProblems, writeOutputs } from "../../src/app/outputs.js";
import { NO_OUTPUTS } from "../../src/repo-config/resolve-outputs.js";
import { scoreOffline } from "../../src/core/offline/offline-scorer.js";
import { buildReport } from "../../src/core/score-task.js";
import { openDatabase, type Database } from "../../src/storage/database.js";
import { freshDatabase } from "../helpers/postgres.js";
import { describeUnless, missingEnv } from "../helpers/skip.js";

/** What every store does: a problem logged once, listed until the output works again, by repository. */
function behaves(make: () => Promise<[OutputProblems, OutputProblems]>) {
  it("a problem is new once, listed (any spelling of the repository) until that output works again", async () => {
    const [a, b] = await make();
    const board = "`project`: the App cannot reach that board";
    expect(await a.note("Acme/Widgets", "project", board)).toBe(true);
    expect(await a.note("acme/widgets", "project", board)).toBe(false); // the same: not logged again
    expect(await b.note("acme/widgets", "project", board)).toBe(false);
    expect(
      await a.note("acme/widgets", "check", "the check run could not be written (GitHub answered 403)"),
    ).toBe(true);
    expect(await b.list("ACME/widgets")).toEqual([
      { key: "check", message: "the check run could not be written (GitHub answered 403)" },
      { key: "project", message: board },
    ]);
    expect(await b.list("acme/other")).toEqual([]);
    // A changed message is new again; a cleared output is gone for everyone.
    expect(await b.note("acme/widgets", "project", "`project`: GitHub answered 404")).toBe(true);
    await b.clear("acme/widgets", "check");
    expect(await a.list("acme/widgets")).toEqual([
      { key: "project", message: "`project`: GitHub answered 404" },
    ]);
  });
}

describe("output problems in one process (no database)", () => {
  behaves(async () => {
    const one = new MemoryOutputProblems();
    return [one, one];
  });
});

describe("output problems in the embedded database", () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ dataDir: "memory://" });
  });
  afterAll(async () => database?.close());
  behaves(async () => [new DatabaseOutputProblems(database.db), new DatabaseOutputProblems(database.db)]);
});

describeUnless(missingEnv(["DATABASE_URL"]), "output problems shared by a fleet on PostgreSQL", () => {
  let fresh: Awaited<ReturnType<typeof freshDatabase>>;
  let one: Database;
  let two: Database;
  beforeAll(async () => {
    fresh = await freshDatabase();
    // Two instances, each with its own connections: what one met, the other lists.
    one = await openDatabase({ url: fresh.url });
    two = await openDatabase({ url: fresh.url });
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await fresh?.drop();
  });
  behaves(async () => [new DatabaseOutputProblems(one.db), new DatabaseOutputProblems(two.db)]);
});

const task = { task: "Add CSV export", description: "" };
const { report } = buildReport(task, scoreOffline(task), new Date("2026-11-25T00:00:00Z"));

describe("a store that fails (the database is down)", () => {
  const failing: OutputProblems = {
    note: async () => {
      throw new Error("Connection terminated");
    },
    clear: async () => {
      throw new Error("Connection terminated");
    },
    list: async () => {
      throw new Error("Connection terminated");
    },
  };

  /** A pull request's check run written with the failing store: what writeOutputs answers and logs. */
  async function writeCheckRun(github: { request: (route: string) => Promise<unknown> }) {
    const warnings: unknown[] = [];
    const met = await writeOutputs(
      github as never,
      { ...NO_OUTPUTS, check: true },
      { "kind-labels": {} },
      {
        repository: "acme/widgets",
        ref: { owner: "acme", repo: "widgets", issue_number: 3 },
        isPullRequest: true,
        nodeId: undefined,
        labels: [],
        headSha: "abc1234",
      },
      report,
      { log: { info: () => undefined, warn: (o) => warnings.push(o) }, problems: failing },
    );
    return { met, warnings };
  }

  it("an output that worked is not reported as a problem, and the job's list of problems is empty", async () => {
    const requests: string[] = [];
    const github = {
      request: async (route: string) => {
        requests.push(route);
        return { data: { id: 7 } };
      },
    };
    const { met, warnings } = await writeCheckRun(github);
    expect(requests).toEqual(["POST /repos/{owner}/{repo}/check-runs"]);
    expect(met).toEqual([]);
    expect(warnings).toEqual([]);
    expect(await outputProblems("acme/widgets", failing)).toEqual([]);
  });

  it("a real problem is still told in the answer and logged, although it cannot be remembered", async () => {
    const github = {
      request: async () => {
        throw Object.assign(new Error("Forbidden"), { status: 403 });
      },
    };
    const { met, warnings } = await writeCheckRun(github);
    expect(met.map((m) => m.key)).toEqual(["check"]);
    expect(met[0]!.message).toMatch(/GitHub answered 403.*Checks: write/);
    expect(warnings).toHaveLength(1);
  });
});
