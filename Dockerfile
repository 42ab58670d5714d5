# Build: compile the TypeScript with the dev tools, which stay in this stage. The platform stub's
# package (packages/stub) is not copied: the product's build leaves it out.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/build.mjs scripts/
COPY src src
COPY jobs jobs
COPY db db
RUN node scripts/build.mjs

# The built-in platform stub (packages/stub), for docker-compose.yml's `stub` service only
# (`--target stub`): TypeScript run through tsx, as in a clone. It is not in the run stage below:
# the product's image neither contains nor needs it (`ledgersync stub` there exits 69).
FROM node:20-bookworm-slim AS stub
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/stub/package.json packages/stub/
RUN npm ci --omit=dev --omit=optional --no-audit --no-fund --ignore-scripts && npm cache clean --force
COPY tsconfig.json ./
COPY bin bin
COPY src src
COPY jobs jobs
COPY db db
COPY packages/stub packages/stub
USER node
ENTRYPOINT ["node", "bin/ledgersync.js"]
CMD ["stub", "--host", "0.0.0.0", "--port", "4010"]

# Run: the compiled JavaScript with production dependencies only: no dev tools, and no embedded
# PostgreSQL (an optional dependency left out here), since DATABASE_URL and REDIS_URL are set.
# tsx is installed but unused (bin/ledgersync.js runs the TypeScript through it in a clone; the
# image runs dist/). pino-pretty is used: logs to a terminal (`docker compose exec`) go through it.
FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --omit=optional --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
# `migrate prepare` writes its chart backup to .ledgersync/backups under the working folder (its
# --backup-dir default). /app stays root's; this folder is the run user's, and a volume, so the
# backups outlive the container (docker-compose.yml mounts the named volume `backups` here).
RUN mkdir -p /app/.ledgersync/backups && chown -R node:node /app/.ledgersync
VOLUME ["/app/.ledgersync/backups"]
USER node
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.SERVER_PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# Heap settings: src/infra/heap-flags.ts (kept equal by test/unit/infra/heap-flags.unit.test.ts).
ENTRYPOINT ["node", "--max-semi-space-size=16", "--max-old-space-size=192", "--heap-growing-percent=100", "dist/src/cli.js"]
CMD ["worker"]
