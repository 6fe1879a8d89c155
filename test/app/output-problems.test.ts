import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import {
  DatabaseOutputProblems,
  MemoryOutputProblems,
  type OutputProblems,
} from "../../src/app/output-problems.js";
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
