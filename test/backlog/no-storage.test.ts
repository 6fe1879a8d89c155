import { afterEach, describe, expect, it } from "@jest/globals";
import type { Service } from "../../src/compose-service.js";
import { capturingLogger, startService } from "../helpers/app-harness.js";

/** Without a database the backlog cannot work: the start log, the tasks API and the board say so. */
describe("the backlog without storage", () => {
  let service: Service | undefined;
  afterEach(async () => service?.close());

  it("says so at start, and the tasks API answers 503 storage_required with what to set", async () => {
    const { logger, lines } = capturingLogger();
    service = await startService({}, undefined, logger);
    expect(
      lines.filter((l) => /backlog.*needs storage: set DATA_DIR or DATABASE_URL/.test(l.msg)),
    ).toHaveLength(1);
    const res = await service.server.inject({ method: "GET", url: "/api/repos/acme/widgets/tasks" });
    expect(res.statusCode).toBe(503);
    expect(res.json().error.code).toBe("storage_required");
    expect(res.json().error.message).toMatch(/set DATA_DIR \(the embedded database\) or DATABASE_URL/);
    // The board is served; its script shows that same message in place of the list.
    const board = await service.server.inject({ method: "GET", url: "/board/acme/widgets" });
    expect(board.statusCode).toBe(200);
    expect(board.headers["content-security-policy"]).toMatch(/script-src 'self'/);
  });
});
