import { AsyncLocalStorage } from "node:async_hooks";

/**
 * A configuration read went over what the App reads: one file over the per-file cap, the files of one
 * `_extends` chain over the total, or a chain longer than the App follows. Nothing over the cap was parsed.
 */
export class ConfigTooLargeError extends Error {
  constructor(
    readonly maxBytes: number,
    message = `is larger than ${Math.round(maxBytes / 1024)} KB, the most the App reads`,
    /** What the maintainer has to do, for the diagnostic. */
    readonly remedy = "it is smaller",
  ) {
    super(message);
    this.name = "ConfigTooLargeError";
  }
}

interface RequestOptions {
  url?: string;
  owner?: unknown;
  repo?: unknown;
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

/** What one configuration load (the file and every file it draws on) may still read. */
interface ChainBudget {
  /** "owner/repo:path" of the repository's own file, which the diagnostic does not name. */
  own: string;
  files: number;
  bytes: number;
  maxFiles: number;
  maxTotalBytes: number;
}

const budgets = new AsyncLocalStorage<ChainBudget>();
const limited = new WeakSet<object>();

const KB = (n: number) => `${Math.round(n / 1024)} KB`;

/**
 * Any read of a repository file, whatever the repository and the path: in this App they are all reads
 * of configuration (the repository's file, its organisation's `.github` file, any `_extends` target).
 * Matched on the route template and on an expanded URL alike.
 */
const isContentsRead = (o: RequestOptions) =>
  typeof o.url === "string" &&
  (o.url === "/repos/{owner}/{repo}/contents/{path}" ||
    /^(?:[a-z]+:\/\/[^/]+)?(?:\/api\/v3)?\/repos\/[^/]+\/[^/]+\/contents(?:\/|$)/i.test(o.url));

const fileName = (o: RequestOptions) =>
  typeof o.owner === "string" && typeof o.repo === "string" && typeof o.path === "string"
    ? `${o.owner}/${o.repo}:${o.path}`
    : "a file";

/**
 * Runs `load` (one repository's configuration, with its `_extends` chain) under a budget: at most
 * `maxFiles` files read and `maxTotalBytes` across them, on top of the per-file cap of limitConfigReads.
 */
export function withConfigBudget<T>(
  own: { owner: string; repo: string; path: string },
  limits: { maxFiles: number; maxTotalBytes: number },
  load: () => Promise<T>,
): Promise<T> {
  return budgets.run({ own: `${own.owner}/${own.repo}:${own.path}`, files: 0, bytes: 0, ...limits }, load);
}

/**
 * Every repository file read through this Octokit (the repository's own config, its organisation's
 * `.github` config and any `_extends` base, whatever its repository and path) stops after `maxBytes`:
 * a larger file is neither held in memory whole nor parsed. The size is checked from the answer's
 * Content-Length and `size` (when GitHub sends them), then on the bytes as they arrive: the body is read
 * as a stream up to the limit, so it holds for a body without a Content-Length too. Under
 * withConfigBudget, the files of one chain also share a file count and a total. The refusal is raised
 * outside Octokit's retry layer, so an oversized file is fetched once, not retried.
 */
export function limitConfigReads(octokit: unknown, maxBytes: number): void {
  const o = octokit as HookedOctokit;
  if (!o?.hook?.wrap || limited.has(o)) return;
  limited.add(o);
  o.hook.wrap("request", async (request, options) => {
    if (!isContentsRead(options)) return request(options);
    const budget = budgets.getStore();
    const name = fileName(options);
    const foreign = budget !== undefined && name !== budget.own;
    const fileTooLarge = () =>
      new ConfigTooLargeError(
        maxBytes,
        foreign
          ? `draws on ${name} (through \`_extends\` or the organisation's \`.github\` repository), which is larger than ${KB(maxBytes)}, the most the App reads`
          : undefined,
      );
    if (budget && budget.files >= budget.maxFiles)
      throw new ConfigTooLargeError(
        maxBytes,
        `draws on more than ${budget.maxFiles} files through \`_extends\`, the most the App reads for one repository`,
        "the chain is shorter",
      );
    const remaining = budget ? budget.maxTotalBytes - budget.bytes : Infinity;
    const cap = Math.min(maxBytes, remaining);
    const tooLarge = (size: number) =>
      size > maxBytes
        ? fileTooLarge()
        : new ConfigTooLargeError(
            maxBytes,
            `and the files it draws on through \`_extends\` come to more than ${KB(budget!.maxTotalBytes)}, the most the App reads for one repository`,
          );

    // The body is taken as a stream and read up to the limit here, before anything parses it. The
    // options are changed in place: the hooks inside this one are bound to this very object.
    options.request = { ...options.request, parseSuccessResponseBody: false };
    const response = (await request(options)) as {
      data: unknown;
      headers: Record<string, string | undefined>;
    };
    const counted = (size: number) => {
      if (size > cap) throw tooLarge(size);
      if (budget) {
        budget.files += 1;
        budget.bytes += size;
      }
    };
    const body = response.data as ReadableStream<Uint8Array> | string | undefined;
    // Duck-typed: the stream may come from another realm's ReadableStream (undici's, a test runner's).
    if (typeof body !== "object" || body === null || typeof body.getReader !== "function") {
      // Already read by something else (no stream): still not parsed here, so refuse it by its length.
      counted(typeof body === "string" ? Buffer.byteLength(body) : sizeField(body));
      return response;
    }
    const declared = Number(response.headers["content-length"] ?? 0);
    if (declared > cap) {
      await body.cancel().catch(() => {});
      throw tooLarge(declared);
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader = body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > cap) {
        await reader.cancel().catch(() => {});
        throw tooLarge(size);
      }
      chunks.push(value);
    }
    const text = Buffer.concat(chunks).toString("utf8");
    // As Octokit would have parsed it: JSON for a JSON answer (a directory listing, or a file's
    // metadata with its content in base64), text otherwise.
    const json = /application\/json/i.test(response.headers["content-type"] ?? "");
    const data = json && text ? (JSON.parse(text) as unknown) : text;
    // A file's metadata says how large the file is; its base64 content decodes to that many bytes.
    counted(Math.max(size, sizeField(data)));
    return { ...response, data };
  });
}

/** The larger of a contents answer's `size` and its base64 `content` decoded (0 for anything else). */
function sizeField(data: unknown): number {
  if (typeof data !== "object" || data === null || Array.isArray(data)) return 0;
  const { size, content, encoding } = data as { size?: unknown; content?: unknown; encoding?: unknown };
  const declared = typeof size === "number" && Number.isFinite(size) ? size : 0;
  const decoded =
    typeof content === "string" && encoding === "base64" ? Buffer.byteLength(content, "base64") : 0;
  return Math.max(declared, decoded);
}
