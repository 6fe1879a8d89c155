import { isUtf8 } from "node:buffer";
import type { FastifyInstance } from "fastify";
import { TaskScorerError } from "../../core/errors.js";

/**
 * JSON bodies, strictly: invalid UTF-8 is refused rather than silently repaired with U+FFFD, and prototype
 * keys (`__proto__`, `constructor`) are dropped like any other unknown field, so they never pollute an object.
 */
export function strictJsonBodies(app: FastifyInstance): void {
  const defaultJson = app.getDefaultJsonParser("remove", "remove");
  app.removeContentTypeParser(["application/json", "text/plain"]);
  app.addContentTypeParser("application/json", { parseAs: "buffer" }, (req, body, done) => {
    const bytes = body as Buffer;
    if (!isUtf8(bytes)) {
      done(
        new TaskScorerError("invalid_json", "The body is not valid UTF-8 text; send JSON encoded as UTF-8."),
        undefined,
      );
      return;
    }
    defaultJson(req, bytes.toString("utf8"), done);
  });
}
