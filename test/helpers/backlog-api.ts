import type { Service } from "../../src/compose-service.js";

/**
 * The tasks API of a service in this process (`service` gives the one the test started), and a wait for a
 * repository's silent backfill to be done: the backlog suites' one way to read the board's data.
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
    const { query = "", closedIssues, tries = 400 } = options;
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

  return { tasks, untilDone };
}
