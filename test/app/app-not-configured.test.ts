import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import pino from "pino";
import { composeService, type Service } from "../../src/compose-service.js";
import { loadServiceConfig } from "../../src/config/service-config.js";
import { payload, sign } from "../helpers/app-harness.js";

/**
 * A delivery (or someone pointing GitHub at this server) reaching the webhook path while the App has no
 * credentials: the answer says the App is not configured here and how to configure it, not "the API is
 * POST /score-task".
 */
const silent = pino({ level: "silent" });

async function serve(env: Record<string, string>): Promise<{ service: Service; base: string }> {
  const service = await composeService(loadServiceConfig({ SCORER: "offline", ...env }), {
    logger: silent,
    envFile: "/nonexistent/task-scorer-test.env",
  });
  await service.server.listen({ port: 0, host: "127.0.0.1" });
  const { port } = service.server.server.address() as { port: number };
  return { service, base: `http://127.0.0.1:${port}` };
}

function deliver(base: string, path = "/api/github/webhooks") {
  const body = JSON.stringify(payload("issues", "opened"));
  return fetch(`${base}${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-github-event": "issues",
      "x-github-delivery": "d-1",
      "x-hub-signature-256": sign(body),
    },
    body,
  });
}

describe("the webhook path without App credentials", () => {
  describe("on loopback, where registration is offered", () => {
    let s: { service: Service; base: string };
    beforeAll(async () => {
      s = await serve({ HOST: "127.0.0.1" });
    });
    afterAll(() => s.service.close());

    it("answers 404 app_not_configured, naming the variables and the start page's registration", async () => {
      const res = await deliver(s.base);
      expect(res.status).toBe(404);
      const { error } = (await res.json()) as { error: { code: string; message: string } };
      expect(error.code).toBe("app_not_configured");
      expect(error.message).toContain("The GitHub App is not configured on this server");
      for (const word of ["APP_ID", "PRIVATE_KEY", "WEBHOOK_SECRET", "restart", "Register the GitHub App"])
        expect(error.message).toContain(word);
      expect(error.message).not.toContain("/score-task");
      // Any method: the same sentence.
      const get = await fetch(`${s.base}/api/github/webhooks`);
      expect(get.status).toBe(404);
      expect(((await get.json()) as { error: { code: string } }).error.code).toBe("app_not_configured");
    });
  });

  it("elsewhere (no registration offered), names the variables only; a custom WEBHOOK_PATH is covered", async () => {
    const s = await serve({ HOST: "0.0.0.0", WEBHOOK_PATH: "/hooks/github" });
    try {
      const res = await deliver(s.base, "/hooks/github");
      expect(res.status).toBe(404);
      const { error } = (await res.json()) as { error: { code: string; message: string } };
      expect(error.code).toBe("app_not_configured");
      expect(error.message).toContain("APP_ID, PRIVATE_KEY (or PRIVATE_KEY_PATH) and WEBHOOK_SECRET");
      expect(error.message).not.toContain("Register the GitHub App");
      // Other unknown paths keep the general answer.
      const other = await fetch(`${s.base}/nothing-here`);
      expect(((await other.json()) as { error: { code: string } }).error.code).toBe("not_found");
    } finally {
      await s.service.close();
    }
  });
});
