# The whole smsq stack in one image; `docker compose up` runs it beside Postgres, RabbitMQ and Redis.
FROM node:22-bookworm-slim
WORKDIR /smsq
COPY package.json package-lock.json ./
COPY libs/contracts/package.json libs/contracts/
COPY libs/platform/package.json libs/platform/
COPY libs/persistence/package.json libs/persistence/
COPY libs/testing/package.json libs/testing/
COPY libs/admin-commands/package.json libs/admin-commands/
COPY libs/dashboard-api/package.json libs/dashboard-api/
COPY libs/client/package.json libs/client/
COPY scripts ./scripts
COPY apps ./apps
RUN npm ci --no-audit --no-fund
COPY . .
RUN NX_DAEMON=false npx nx run-many -t build
ENV NODE_ENV=production SMSQ_LOG_FORMAT=text
EXPOSE 3000 3001 2775
CMD ["npm", "start"]
