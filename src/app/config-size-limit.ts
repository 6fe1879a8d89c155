import { REPO_CONFIG_FILE } from "./repo-config.schema.js";

/** The repository's config file is larger than the App reads; it was not parsed. */
export class ConfigTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`is larger than ${Math.round(maxBytes / 1024)} KB`);
    this.name = "ConfigTooLargeError";
  }
}

interface RequestOptions {
  url?: string;
  path?: unknown;
  request?: Record<string, unknown>;
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
 * `maxBytes`: a larger file is neither held in memory whole nor parsed. The body is read as a stream
 * up to the limit, so it holds for a body without a Content-Length too; the refusal is raised outside
 * Octokit's retry layer, so an oversized file is fetched once, not retried.
 */
export function limitConfigReads(octokit: unknown, maxBytes: number): void {
  const o = octokit as HookedOctokit;
  if (!o?.hook?.wrap || limited.has(o)) return;
  limited.add(o);
  o.hook.wrap("request", async (request, options) => {
    if (!isConfigRead(options)) return request(options);
    // The body is taken as a stream and read up to the limit here, before anything parses it. The
    // options are changed in place: the hooks inside this one are bound to this very object.
    options.request = { ...options.request, parseSuccessResponseBody: false };
    const response = (await request(options)) as {
      data: unknown;
      headers: Record<string, string | undefined>;
    };
    // Duck-typed: the stream may come from another realm's ReadableStream (undici's, a test runner's).
    const body = response.data as ReadableStream<Uint8Array> | undefined;
    if (typeof body?.getReader !== "function") return response;
    if (Number(response.headers["content-length"] ?? 0) > maxBytes) {
      await body.cancel().catch(() => {});
      throw new ConfigTooLargeError(maxBytes);
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader = body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => {});
        throw new ConfigTooLargeError(maxBytes);
      }
      chunks.push(value);
    }
    const text = Buffer.concat(chunks).toString("utf8");
    // As Octokit would have parsed it: JSON for a JSON answer (a directory listing), text otherwise.
    const json = /application\/json/i.test(response.headers["content-type"] ?? "");
    return { ...response, data: json && text ? (JSON.parse(text) as unknown) : text };
  });
}
