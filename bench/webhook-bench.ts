import { scoreOffline } from "../src/core/offline/offline-scorer.js";
import { appProcessEnv, payload, sign, startService } from "../test/helpers/app-harness.js";
import { startFakeGitHub } from "../test/helpers/fake-github.js";

export interface WebhookBenchOptions {
  /** Distinct issues, one issues.opened delivery each. */
  issues: number;
  /** Extra deliveries that repeat earlier ones (same delivery id, or same text under a new id). */
  repeats: number;
  concurrency: number;
  scorerDelayMs: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/**
 * Signed deliveries against the running app (REST server + Probot + queue) with a stand-in GitHub
 * API on loopback and a scorer that takes `scorerDelayMs`: how fast deliveries are acknowledged,
 * how many comments are written, duplicates (target 0), and the time to drain the queue.
 */
export async function runWebhookBench(options: WebhookBenchOptions): Promise<Record<string, number>> {
  const github = await startFakeGitHub();
  // The App as the tests start it (app-harness.ts): silent, and with Octokit's write throttling (one write a
  // second, GitHub's guidance) off, so the figure measures this service, not the pacing it rightly applies
  // against github.com.
  const service = await startService(
    {
      ...appProcessEnv(github),
      APP_QUEUE_CONCURRENCY: "8",
      // Every delivery here comes from one installation: the per-installation cap (a tenant-safety
      // limit) would otherwise turn the burst into 503s instead of measuring the queue.
      APP_QUEUE_MAX_PENDING_PER_INSTALLATION: "1000",
    },
    {
      description: "offline+delay",
      scorer: {
        name: "delayed",
        score: async (input) => {
          await new Promise((r) => setTimeout(r, options.scorerDelayMs));
          return scoreOffline(input);
        },
      },
    },
  );
  await service.server.listen({ port: 0, host: "127.0.0.1" });
  const addr = service.server.server.address();
  const url = `http://127.0.0.1:${typeof addr === "object" && addr ? addr.port : 0}/api/github/webhooks`;

  const deliveries: { id: string; body: string }[] = [];
  for (let i = 1; i <= options.issues; i++) {
    const body = JSON.stringify(payload("issues", "opened", (p) => (p.issue.number = i)));
    deliveries.push({ id: `bench-${i}`, body });
  }
  for (let i = 0; i < options.repeats; i++) {
    const original = deliveries[i % options.issues]!;
    // Half redeliveries (same id), half the same event under a new id (GitHub retries, double clicks).
    deliveries.push({ id: i % 2 === 0 ? original.id : `${original.id}-again-${i}`, body: original.body });
  }

  const latencies: number[] = [];
  let failed = 0;
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      while (next < deliveries.length) {
        const d = deliveries[next++]!;
        const t0 = performance.now();
        const res = await fetch(url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "x-github-event": "issues",
            "x-github-delivery": d.id,
            "x-hub-signature-256": sign(d.body),
          },
          body: d.body,
        });
        await res.arrayBuffer();
        latencies.push(performance.now() - t0);
        if (res.status >= 300) failed++;
      }
    }),
  );
  const acked = performance.now();
  await service.queue!.drain();
  const drained = performance.now();

  const perIssue = new Map<string, number>();
  for (const c of github.comments) perIssue.set(c.issue, (perIssue.get(c.issue) ?? 0) + 1);
  const duplicates = [...perIssue.values()].reduce((sum, n) => sum + Math.max(0, n - 1), 0);
  await service.close();
  await github.close();
  latencies.sort((a, b) => a - b);
  return {
    "webhook.deliveries": deliveries.length,
    "webhook.ack_p50_ms": Math.round(percentile(latencies, 50) * 10) / 10,
    "webhook.ack_p99_ms": Math.round(percentile(latencies, 99) * 10) / 10,
    "webhook.non2xx": failed,
    "webhook.comments_written": github.comments.length,
    "webhook.issues": options.issues,
    "webhook.duplicates": duplicates,
    "webhook.scorer_delay_ms": options.scorerDelayMs,
    "webhook.all_acked_s": Math.round((acked - started) / 10) / 100,
    "webhook.drain_after_acks_s": Math.round((drained - acked) / 10) / 100,
  };
}
