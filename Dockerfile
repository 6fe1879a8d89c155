# syntax=docker/dockerfile:1
# task-scorer: the REST API, the try-it page and (with credentials) the GitHub App, in one process.
#   docker build -t task-scorer .
#   docker run --rm -p 3000:3000 --env-file .env task-scorer
# test/deploy/production-start.test.ts repeats these steps without Docker (a built tree, a pruned install,
# start, /healthz): keep the two in step.

# --- build: all dependencies, compile TypeScript, then drop the development dependencies ---
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# A stand-in for an optional native accelerator (see stubs/msgpackr-extract/package.json).
COPY stubs ./stubs
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

# --- runtime: compiled code, production dependencies, the page and the App manifest; no compiler ---
FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/stubs ./stubs
COPY --from=build /app/build/src ./build/src
COPY web ./web
COPY app.yml ./
# Plain SQL migrations, applied at start when a database is configured (AUTH=keys, DATA_DIR, DATABASE_URL).
COPY migrations ./migrations
# The embedded database's pre-initialised folder (npm run seed): a first start unpacks it instead of running
# initdb, which would take the process past 800 MB.
COPY assets ./assets
# The node image's unprivileged user; /app stays root-owned and read-only to it, except the embedded
# database's folder (DATA_DIR=/app/data), which a volume should hold: docker run -v task-scorer-data:/app/data
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM drains in-flight requests and the webhook queue (up to 25 s): give `docker stop` -t 30.
CMD ["node", "--max-old-space-size=256", "build/src/main.js"]
