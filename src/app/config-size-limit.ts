import { REPO_CONFIG_FILE } from "./repo-config.schema.js";

/** The repository's config file is larger than the App reads; it was not parsed. */
export class ConfigTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`is larger than ${Math.round(maxBytes / 1024)} KB`);
    this.name = "ConfigTooLargeError";
  }
}

type Fetch = typeof globalThis.fetch;
interface RequestOptions {
  url?: string;
  path?: unknown;
  request?: { fetch?: Fetch };
  [key: string]: unknown;
}
interface HookedOctokit {
  hook: {
    wrap: (
      name: "request",
      fn: (request: (o: RequestOptions) => Promise<unknown>, options: RequestOptions) => Promise<unknown>,
    ) => void;
  };
}

const limited = new WeakSet<object>();

const isConfigRead = (o: RequestOptions) =>
  o.url === "/repos/{owner}/{repo}/contents/{path}" &&
  typeof o.path === "string" &&
  o.path.endsWith(REPO_CONFIG_FILE);

/**
 * Reads of the repository config (the repository's own file and any `_extends` base) stop after
 * `maxBytes`: a larger file is neither held in memory whole nor parsed. The limit is applied in the
 * fetch itself, so it holds for a body without a Content-Length too; the refusal is raised outside
 * Octokit's retry layer, so an oversized file is fetched once, not retried.
 */
export function limitConfigReads(octokit: unknown, maxBytes: number): void {
  const o = octokit as HookedOctokit;
  if (!o?.hook?.wrap || limited.has(o)) return;
  limited.add(o);
  o.hook.wrap("request", async (request, options) => {
    if (!isConfigRead(options)) return request(options);
    let tooLarge = false;
    const inner: Fetch = options.request?.fetch ?? globalThis.fetch;
    const refused = () => {
      tooLarge = true;
      return new Response("", { status: 200, headers: { "content-type": "text/plain" } });
    };
    const limitedFetch: Fetch = async (input, init) => {
      const res = await inner(input, init);
      if (!res.ok || !res.body) return res;
      if (Number(res.headers.get("content-length") ?? 0) > maxBytes) {
        await res.body.cancel().catch(() => {});
        return refused();
      }
      const chunks: Uint8Array[] = [];
      let size = 0;
      const reader = res.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > maxBytes) {
          await reader.cancel().catch(() => {});
          return refused();
        }
        chunks.push(value);
      }
      return new Response(Buffer.concat(chunks), {
        status: res.status,
        statusText: res.statusText,
        headers: res.headers,
      });
    };
    const response = await request({ ...options, request: { ...options.request, fetch: limitedFetch } });
    if (tooLarge) throw new ConfigTooLargeError(maxBytes);
    return response;
  });
}
