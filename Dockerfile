# One image for hub-api, certifier-worker, agent-runtime and the migration job.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# The CLI's workspace package (its manifest and bin), so npm ci installs and links what the lock says.
COPY apps/cli/package.json apps/cli/
COPY apps/cli/bin apps/cli/bin
RUN npm ci --no-audit --no-fund
COPY tsconfig*.json nest-cli.json ./
COPY apps apps
COPY libs libs
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
ENV NODE_ENV=production
# bubblewrap: the certifier starts each pinned MCP server in it to record its live tools, and the
# runtime runs every skill server in it (docs/security.md, C13). strace and python3: the certifier
# detonates what each skill would run in it, traced (docs/detonation.md, C16).
RUN apt-get update && apt-get install -y --no-install-recommends bubblewrap strace python3 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
# node_modules/.bin/skillhub links to the workspace's bin: operators can run `npx skillhub` in the image.
COPY --from=build /app/apps/cli/package.json apps/cli/
COPY --from=build /app/apps/cli/bin apps/cli/bin
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/dist dist
USER node
EXPOSE 3000
# Node flags as `npm run start:hub-api` has them (the heap limit: docs/architecture.md, "Memory").
CMD ["node", "--max-old-space-size=256", "dist/apps/hub-api/src/main.js"]
