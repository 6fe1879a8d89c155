import type { Service } from "../../src/compose-service.js";
import { deliver, installationCreated } from "./app-harness.js";

/**
 * The tasks API of a service in this process (`service` gives the one the test started), the App's
 * installation on a repository, and a wait for its silent backfill to be done: the backlog suites' one way to
 * install the App and read the board's data.
 */
export function backlogApi(service: () => Service, defaultRepo: string) {
  const tasks = (query = "", repo = defaultRepo) =>
    service().server.inject({ method: "GET", url: `/api/repos/${repo}/tasks${query}` });

  /**
   * The list (`query` asked, first page) once the backfill of `repo` is done and, when `closedIssues` is given,
   * the calibration was learned from that many closed issues; polled every 25 ms, `tries` times.
   */
  async function untilDone(
    repo = defaultRepo,
    options: { query?: string; closedIssues?: number | undefined; tries?: number } = {},
  ) {
    // 1,600 tries (40 s of polling at least): a backfill of a few hundred issues into PGlite has taken over 10 s
    // at the start of a CI run, beside three production builds; the test's own timeout still bounds it.
    const { query = "", closedIssues, tries = 1600 } = options;
    for (let i = 0; i < tries; i++) {
      const r = await tasks(query, repo);
      if (
        r.statusCode === 200 &&
        r.json().backfill.state === "done" &&
        (closedIssues === undefined || r.json().calibration.closedIssues === closedIssues)
      )
        return r.json();
      await new Promise((res) => setTimeout(res, 25));
    }
    throw new Error(`the backfill of ${repo} did not finish: ${(await tasks("", repo)).body}`);
  }

  /** GitHub's `installation.created` for `repo` (public unless said), delivered to the service: its backfill starts. */
  const install = (repo = defaultRepo, isPrivate = false) =>
    deliver(service(), "installation", installationCreated([{ full_name: repo, private: isPrivate }]));

  return { tasks, untilDone, install };
}
