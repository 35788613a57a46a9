# syntax=docker/dockerfile:1
#
# The gateway's image. Node 24 runs the TypeScript sources directly (type stripping), so an
# image is the sources plus production dependencies; nothing is compiled.
#
#   docker build -t openpm-gateway .                     # production (the default, last stage)
#   docker build --target sandbox -t openpm-sandbox .    # self-contained demo on the sandbox
#
# The production image holds no sandbox, no fixtures and no tests: it needs UPSTREAM_URL and
# UPSTREAM_SERVICE_TOKEN (docs/deployment.md).
ARG NODE_IMAGE=node:24-slim

# Production dependencies only, installed from the lockfile; lifecycle scripts are not run.
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force

# What both images share: the gateway's code, owned by root and read-only to the process.
FROM ${NODE_IMAGE} AS runtime
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json ./
COPY src ./src
COPY mappers ./mappers
COPY bin ./bin
# The MCP guide is served on /docs beside the API reference.
COPY docs/mcp.md ./docs/mcp.md
# Listen on every interface: a container's loopback is unreachable from the port mapping and
# from the kubelet's probes. The admin port (metrics, kill switch) stays on loopback unless
# ADMIN_HOST says otherwise (the chart sets it, with a NetworkPolicy and ADMIN_TOKEN).
# V8's young generation capped at 16 MB per semi-space (Node 24 lets it grow to 64 MB):
# about a quarter less memory at the peak for no CPU the benchmark can measure
# (docs/performance.md#memory). With CMD's flag, the same flags as `npm start`; a NODE_OPTIONS
# set at deployment replaces this one, so keep it in it.
ENV HOST=0.0.0.0 \
    PORT=8080 \
    ADMIN_PORT=9090 \
    NODE_OPTIONS=--max-semi-space-size=16
EXPOSE 8080
# The unprivileged `node` user of the base image, by number so that Kubernetes can check
# runAsNonRoot without a passwd lookup.
USER 1000:1000
# node:24-slim has no curl: ask Node itself. Kubernetes ignores this and uses the chart's probes.
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/livez').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM drains in-flight requests, then exits 0 (docs/operations.md, "Shutdown").
STOPSIGNAL SIGTERM
# The young generation held at its cap while idle too, so that the old generation's limit set
# at a full collection keeps room for it and the next marking does not start after a
# megabyte or two of promotion (docs/performance.md, change 26). Node refuses this flag in
# NODE_OPTIONS; a lower cap given there still wins over it.
CMD ["node", "--min-semi-space-size=16", "src/server.ts"]

# The demo: the gateway with its built-in sandbox backend and public demo keys, no other
# service needed (`docker run -p 8080:8080 openpm-sandbox`). Never for production.
FROM runtime AS sandbox
COPY sandbox ./sandbox
COPY fixtures ./fixtures
ENV NODE_ENV=development

# The production image: the last stage, so a plain `docker build` makes it.
FROM runtime AS production
ENV NODE_ENV=production
