# syntax=docker/dockerfile:1
# paperlist serve in a container: built from this repository, run as a non-root user with node
# as PID 1 (exec-form ENTRYPOINT), so SIGTERM from `docker stop` reaches the server and it shuts
# down gracefully. See docs/deploy.md.

FROM node:20-bookworm-slim AS build
WORKDIR /src
# pnpm through npx, as in the README (corepack is not relied on).
COPY . .
RUN npx -y pnpm@10 install --frozen-lockfile \
 && npx -y pnpm@10 build \
 && npx -y pnpm@10 --filter @paperlist/cli deploy --prod --legacy /app

FROM node:20-bookworm-slim
# GLIBC_TUNABLES: the index's large allocations get transparent huge pages (docs/deploy.md).
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8000 \
    GLIBC_TUNABLES=glibc.malloc.hugetlb=1
WORKDIR /app
COPY --from=build --chown=root:root /app /app
# Where --state-dir keeps its snapshot (PAPERLIST_STATE_DIR=/state), writable by the server.
RUN mkdir -p /state && chown node:node /state
USER node
EXPOSE 8000
VOLUME ["/state"]
HEALTHCHECK --interval=10s --timeout=3s --start-period=120s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["node", "/app/dist/bin.js"]
CMD ["serve"]
