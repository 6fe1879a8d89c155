import pino from "pino";
import { composeService } from "../src/compose-service.js";
import { loadServiceConfig } from "../src/config/service-config.js";
import { PRIVATE_KEY, TestOctokit, deliver, payload } from "../test/helpers/app-harness.js";
import { startFakeGitHub } from "../test/helpers/fake-github.js";

/**
 * A pull request of 3,000 files, GitHub's most, end to end (issue 31, phase 2): a signed `pull_request.opened`
 * delivery to the App, its files listed from a stand-in GitHub on loopback in 30 pages of 100 (each file the shape
 * and size GitHub gives it: URLs, sha, a 20-line patch), the report scored by the offline scorer and its comment
 * written. Timed from the delivery to the comment; GitHub's own latency is not counted (the stand-in answers at
 * once), so the figure is this service's cost: 30 listing requests, about 5 MB of JSON read and dropped page by page,
 * the change read, the comment rendered.
 */
const REPO = "acme/widgets";

function githubFile(i: number) {
  const filename = `src/module${Math.floor(i / 50)}/file${i}.ts`;
  const blob = "0123456789abcdef0123456789abcdef0123".slice(0, 4) + String(i).padStart(36, "0");
  const lines = Array.from(
    { length: 10 },
    (_, k) => `+export const value${i}_${k} = compute(${k}, "${filename}");`,
  );
  return {
    sha: blob,
    filename,
    status: i % 10 === 0 ? "added" : "modified",
    additions: 10,
    deletions: i % 10 === 0 ? 0 : 10,
    changes: i % 10 === 0 ? 10 : 20,
    blob_url: `https://github.com/${REPO}/blob/${blob}/${filename}`,
    raw_url: `https://github.com/${REPO}/raw/${blob}/${filename}`,
    contents_url: `https://api.github.com/repos/${REPO}/contents/${filename}?ref=${blob}`,
    patch: [
      "@@ -1,10 +1,10 @@",
      ...(i % 10 === 0 ? [] : lines.map((l) => `-${l.slice(1)}_old`)),
      ...lines,
    ].join("\n"),
  };
}

export async function runPullChangeBench(options: { rounds: number }): Promise<Record<string, number>> {
  const github = await startFakeGitHub();
  const service = await composeService(
    loadServiceConfig({
      APP_ID: "1",
      PRIVATE_KEY,
      WEBHOOK_SECRET: "test-webhook-secret",
      GHE_HOST: github.host,
      GHE_PROTOCOL: "http",
      LOG_LEVEL: "silent",
      SCORER: "offline",
    }),
    // Octokit's write pacing off, as in the webhook benchmark: the figure is this service's time, not GitHub's.
    { logger: pino({ level: "silent" }), Octokit: TestOctokit },
  );
  const files = Array.from({ length: 3500 }, (_, i) => githubFile(i));
  const pageBytes = Buffer.byteLength(JSON.stringify(files.slice(0, 100)));
  const times: number[] = [];
  let pages = 0;
  let lastComment = "";
  try {
    for (let round = 1; round <= options.rounds; round++) {
      const number = 100 + round;
      github.pullFiles.set(`${REPO}#${number}`, files);
      const body = payload("pull_request", "opened", (p) => {
        p.repository.owner.login = "acme";
        p.repository.name = "widgets";
        p.repository.full_name = REPO;
        p.pull_request.number = number;
        p.pull_request.title = "Split the reports module into one file per report";
        p.pull_request.body = "Each report gets its own module so they can be loaded lazily.\n\nCloses #42";
        p.pull_request.draft = false;
        p.pull_request.changed_files = files.length;
        p.sender.type = "User";
      });
      const before = github.requests.length;
      const started = performance.now();
      const res = await deliver(service, "pull_request", body, `bench-pr-${round}`);
      if (res.statusCode >= 300) throw new Error(`the delivery was answered ${res.statusCode}`);
      await service.queue!.drain();
      times.push(performance.now() - started);
      pages = github.requests
        .slice(before)
        .filter((r) => r.path === `/repos/${REPO}/pulls/${number}/files`).length;
      lastComment = github.commentsOn(`${REPO}#${number}`)[0]?.body ?? "";
    }
  } finally {
    await service.close();
    await github.close();
  }
  if (!lastComment.includes("in 3,000 files")) throw new Error("the comment does not state the 3,000 files");
  times.sort((a, b) => a - b);
  return {
    "change.pr_3000_files_end_to_end_ms": Math.round(times[Math.floor(times.length / 2)]!),
    "change.pr_3000_files_pages": pages,
    "change.pr_3000_files_page_kb": Math.round(pageBytes / 1024),
  };
}
