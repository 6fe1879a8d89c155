import { repoConfigJsonSchema } from "../src/repo-config/repo-config.schema.js";
import { DEFAULT_APPROVAL_POLICY } from "../src/core/approval.js";
import { offlineScorer } from "../src/core/offline/offline-scorer.js";
import { buildServer } from "../src/http/build-server.js";
import { AccountStore } from "../src/accounts/account-store.js";
import { KeyAccess } from "../src/accounts/key-access.js";
import { openDatabase } from "../src/storage/database.js";

export async function renderSchemas(): Promise<Record<string, string>> {
  const config = {
    $id: "https://github.com/task-scorer/task-scorer/schemas/task-scorer-config.schema.json",
    title: ".github/task-scorer.yml",
    ...(repoConfigJsonSchema() as object),
  };
  const server = await buildServer({ scorer: offlineScorer, policy: DEFAULT_APPROVAL_POLICY, version: "1" });
  const openapi = server.swagger();
  await server.close();
  // The same API with keys on (AUTH=keys): the bearer key, the error rows it adds, /usage and /reports.
  const database = await openDatabase({ dataDir: "memory://" });
  const keyed = await buildServer({
    scorer: offlineScorer,
    policy: DEFAULT_APPROVAL_POLICY,
    version: "1",
    access: new KeyAccess(new AccountStore(database.db)),
  });
  const openapiKeys = keyed.swagger();
  await keyed.close();
  await database.close();
  return {
    "schemas/task-scorer-config.schema.json": JSON.stringify(config, null, 2) + "\n",
    "schemas/openapi.json": JSON.stringify(openapi, null, 2) + "\n",
    "schemas/openapi-keys.json": JSON.stringify(openapiKeys, null, 2) + "\n",
  };
}
