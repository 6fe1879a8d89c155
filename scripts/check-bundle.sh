#!/usr/bin/env bash
# Fails when the committed Action bundle (dist/) differs from a fresh `npm run bundle`.
# Builds into a temporary directory, so the working tree is never touched.
set -euo pipefail
cd "$(dirname "$0")/.."

fresh="$(mktemp -d)"
trap 'rm -rf "$fresh"' EXIT
node scripts/bundle-action.mjs --outdir "$fresh" >/dev/null

if ! diff -r -q dist "$fresh" >/dev/null 2>&1; then
  echo "dist/ is out of date with the sources: run \`npm run bundle\` and commit dist/." >&2
  diff -r -q dist "$fresh" >&2 || true
  diff -u dist/index.js "$fresh/index.js" 2>/dev/null | head -n 40 >&2 || true
  exit 1
fi
echo "dist/ matches a fresh bundle."
