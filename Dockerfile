# The service image: Node 20 on Debian slim (glibc, for the KurrentDB client's native
# bridge), production dependencies only, run as the image's unprivileged `node` user.
FROM node:20-slim

ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080
WORKDIR /app

COPY package.json package-lock.json ./
# tsx is a runtime dependency: the service runs its TypeScript sources directly
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

COPY tsconfig.json ./
COPY src ./src
# the data directory holds generated secrets when the settings give none (sandbox only)
RUN mkdir -p /app/.data && chown node:node /app/.data

USER node
EXPOSE 8080

# ready = the read models caught up with the event store at start (GET /readyz answers 200)
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

# node itself (not npm) is PID 1, so SIGTERM reaches the graceful shutdown
CMD ["node", "--import", "tsx", "src/cli/main.ts", "serve"]
