import { describe, expect, it } from "@jest/globals";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { getOctokit } from "@actions/github";
import { httpStatus } from "../../src/github/github-request.js";

/** What a message says of a GitHub call that failed: GitHub's answer, or that GitHub was not reached. */
describe("httpStatus of an Octokit error", () => {
  const failure = async (baseUrl: string) => {
    try {
      await getOctokit("t", { baseUrl, retry: { enabled: false } }).request("GET /repos/{owner}/{repo}", {
        owner: "o",
        repo: "r",
      });
    } catch (error) {
      return error;
    }
    throw new Error("expected the call to fail");
  };

  it("is undefined when nothing answered (Octokit says 500, which read 'GitHub answered 500')", async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    expect(httpStatus(await failure(`http://127.0.0.1:${port}`))).toBeUndefined();
  });

  it("is GitHub's status when GitHub answered, 500 included", async () => {
    const server = createServer((_req, res) => {
      res.writeHead(500, { "content-type": "application/json" }).end('{"message":"oops"}');
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      expect(httpStatus(await failure(`http://127.0.0.1:${port}`))).toBe(500);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
