import { generateKeyPairSync, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A stand-in for GitHub's side of the App manifest flow, on 127.0.0.1: the "New GitHub App" form
 * (personal or organisation) that receives the manifest, its confirm button that sends the person
 * back with a code, and the API's code conversion (POST /api/v3/app-manifests/{code}/conversions),
 * which answers once per code, as GitHub does.
 */
export class FakeGitHubManifest {
  /** Manifests received, with the account they were posted for ("personal" or the organisation). */
  readonly received: { owner: string; state: string; manifest: Record<string, any> }[] = [];
  readonly conversions: string[] = [];
  readonly pem = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    privateKeyEncoding: { type: "pkcs1", format: "pem" },
    publicKeyEncoding: { type: "spki", format: "pem" },
  }).privateKey;
  readonly webhookSecret = randomBytes(20).toString("hex");
  /** The App's OAuth client, which GitHub returns with the credentials (sign-in uses it). */
  readonly clientId = `Iv1.${randomBytes(8).toString("hex")}`;
  readonly clientSecret = randomBytes(20).toString("hex");
  private readonly codes = new Map<string, { redirect: string; state: string }>();
  private server: Server | undefined;
  url = "";
  host = "";

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    const { port } = this.server.address() as AddressInfo;
    this.url = `http://127.0.0.1:${port}`;
    this.host = `127.0.0.1:${port}`;
    return this;
  }

  async close(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", this.url);
    const html = (status: number, body: string) => {
      res.writeHead(status, { "content-type": "text/html; charset=utf-8" });
      res.end(`<!doctype html><html lang="en"><head><title>GitHub</title></head><body>${body}</body></html>`);
    };

    const form = url.pathname.match(/^(?:\/organizations\/([^/]+))?\/settings\/apps\/new$/);
    if (req.method === "POST" && form) {
      const manifest = JSON.parse(new URLSearchParams(raw).get("manifest") ?? "{}") as Record<string, any>;
      const state = url.searchParams.get("state") ?? "";
      const owner = form[1] ? decodeURIComponent(form[1]) : "personal";
      this.received.push({ owner, state, manifest });
      const code = randomBytes(10).toString("hex");
      this.codes.set(code, { redirect: String(manifest.redirect_url), state });
      return html(
        200,
        `<h1>Create GitHub App ${escape(String(manifest.name))}</h1>
         <form method="post" action="/settings/apps/new/confirm"><input type="hidden" name="code" value="${code}">
         <button type="submit">Create GitHub App for ${escape(owner)}</button></form>`,
      );
    }
    if (req.method === "POST" && url.pathname === "/settings/apps/new/confirm") {
      const code = new URLSearchParams(raw).get("code") ?? "";
      const pending = this.codes.get(code);
      if (!pending) return html(404, "unknown code");
      const back = new URL(pending.redirect);
      back.searchParams.set("code", code);
      back.searchParams.set("state", pending.state);
      res.writeHead(302, { location: back.href });
      res.end();
      return;
    }
    const conversion = url.pathname.match(/^\/api\/v3\/app-manifests\/([^/]+)\/conversions$/);
    if (req.method === "POST" && conversion) {
      const code = decodeURIComponent(conversion[1]!);
      this.conversions.push(code);
      res.setHeader("content-type", "application/json; charset=utf-8");
      if (!this.codes.delete(code)) {
        res.writeHead(404);
        res.end(JSON.stringify({ message: "Not Found" }));
        return;
      }
      res.writeHead(201);
      res.end(
        JSON.stringify({
          id: 4242,
          slug: "task-scorer",
          name: "task-scorer",
          html_url: `${this.url}/apps/task-scorer`,
          client_id: this.clientId,
          client_secret: this.clientSecret,
          webhook_secret: this.webhookSecret,
          pem: this.pem,
          owner: { login: "octocat" },
        }),
      );
      return;
    }
    html(404, "Not Found");
  }
}

function escape(text: string): string {
  return text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}
