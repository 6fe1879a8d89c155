// Writes the published JSON Schemas, generated from the zod schemas so they cannot drift:
// - schemas/task-scorer-config.schema.json: .github/task-scorer.yml (the GitHub App)
// - schemas/openapi.json: the REST API (open, the default)
// - schemas/openapi-keys.json: the REST API with keys on (AUTH=keys)
// `npm run schemas` rewrites them; a test fails when the committed files differ from a fresh run.
import { writeFileSync } from "node:fs";
import { renderSchemas } from "./render-schemas.js";

for (const [path, text] of Object.entries(await renderSchemas())) {
  writeFileSync(new URL(`../${path}`, import.meta.url), text);
  console.log(`wrote ${path}`);
}
