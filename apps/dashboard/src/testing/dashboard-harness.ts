import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { InvalidRequestError, NotFoundError, Patterns, type ClientDetails, type ClientPage, type ClientView } from '@smsq/contracts';
import { RETENTION_DEFAULTS, startService } from '@smsq/platform';
import { createTestDatabase, type TestDatabase } from '@smsq/testing';
import { Redis } from 'ioredis';
import { AppModule } from '../app.module.js';
import { DashboardConfig } from '../config/dashboard-config.js';
import { configureDashboardHttp, dashboardFastify } from '../http/dashboard-http.js';
import { fakeServiceClients, type FakeServices } from './fake-services.js';
import { TestBrowser } from './test-browser.js';

export const DASHBOARD_MIGRATIONS_DIR = fileURLToPath(new URL('../../prisma/migrations', import.meta.url));

export function testDashboardConfig(overrides: Partial<DashboardConfig> = {}): DashboardConfig {
  return Object.assign(new DashboardConfig(), {
    profile: 'A',
    namespace: `dashtest_${randomBytes(4).toString('hex')}`,
    databaseUrl: 'postgresql://postgres@127.0.0.1:5432/unused',
    amqpUrl: 'amqp://guest:guest@127.0.0.1:5672',
    queueType: 'classic',
    redisUrl: 'redis://127.0.0.1:6379',
    logFormat: 'text',
    logLevel: 'info',
    rpcTimeoutMs: 2_000,
    port: 0,
    secret: randomBytes(32).toString('base64url'),
    publicApiUrl: 'https://sms.example.test',
    publicApiUrlIsLoopback: false,
    smppPort: 2775,
    defaultTimeZone: 'Europe/Belgrade',
    workerFile: '/nonexistent/worker/dist/smsq-worker.mjs',
    webDir: '/nonexistent/dashboard-web/dist',
    publicUrl: 'https://dash.example.test',
    resetLinksInLog: true,
    sessionIdleS: 3_600,
    sessionMaxS: 86_400,
    // bcrypt's cheapest: the specs check what is hashed and compared, not how slowly (password-hasher.spec.ts checks the cost).
    passwordCost: 4,
    retentionIntervalS: RETENTION_DEFAULTS.intervalS,
    passwordResetRetentionS: RETENTION_DEFAULTS.passwordResetS,
    ...overrides,
  } satisfies Partial<DashboardConfig>);
}

export interface TestDashboard {
  app: NestFastifyApplication;
  config: DashboardConfig;
  services: FakeServices;
  baseUrl: string;
  browser(): TestBrowser;
  close(): Promise<void>;
}

/**
 * The dashboard's whole HTTP app in-process on a free port, against a database and a Redis
 * namespace of its own; the services it would reach over the broker are fakes. The gateway fake
 * creates clients with increasing ids and shows any of them.
 */
export async function startTestDashboard(label: string, overrides: Partial<DashboardConfig> = {}): Promise<TestDashboard> {
  Logger.overrideLogger(['warn', 'error', 'fatal']);
  const testDatabase: TestDatabase = await createTestDatabase(label, [{ schema: 'dashboard', migrationsDir: DASHBOARD_MIGRATIONS_DIR }]);
  const config = testDashboardConfig({ databaseUrl: testDatabase.url, ...overrides });
  const fakes = fakeServiceClients();
  cannedGateway(fakes.services);
  const app = await startService({
    name: 'dashboard',
    module: AppModule.register(config, { serviceClients: fakes.module }),
    config,
    port: 0,
    fastify: dashboardFastify(config),
    bodyParser: false,
    configureHttp: configureDashboardHttp(config),
  });
  const baseUrl = await app.getUrl();
  return {
    app,
    config,
    services: fakes.services,
    baseUrl,
    browser: () => new TestBrowser(baseUrl),
    close: async () => {
      await app.close();
      await deleteNamespace(config);
      await testDatabase.drop();
    },
  };
}

export interface FakeClient {
  id: number;
  name: string;
  timezone: string;
  disabledAt: string | null;
}

/** The gateway's client registry, as far as the dashboard uses it. */
function cannedGateway(services: FakeServices): void {
  const clients = new Map<number, FakeClient>();
  const find = (clientId: number): FakeClient => {
    const client = clients.get(clientId);
    if (!client) throw new NotFoundError('client');
    return client;
  };
  const viewOf = (client: FakeClient): ClientView => ({ ...client, createdAt: '2026-11-22T10:00:00.000Z' });
  services.gateway
    .on(Patterns.gateway.clientCreate, (command: { name: string; timezone?: string }) => {
      const client = { id: clients.size + 1, name: command.name, timezone: command.timezone ?? 'Europe/Belgrade', disabledAt: null };
      clients.set(client.id, client);
      return { clientId: client.id };
    })
    .on(Patterns.gateway.clientList, ({ page, pageSize }: { page: number; pageSize: number }): ClientPage => {
      const all = [...clients.values()].map(viewOf);
      return { items: all.slice((page - 1) * pageSize, page * pageSize), total: all.length, page, pageSize };
    })
    .on(Patterns.gateway.clientGet, ({ clientId }: { clientId: number }): ClientView => viewOf(find(clientId)))
    .on(Patterns.gateway.clientShow, ({ clientId }: { clientId: number }): ClientDetails => ({
      client: viewOf(find(clientId)),
      account: { clientId, plan: 'free', dailyAllowance: 30, phoneLimit: 2, dailyRemaining: 30, bonusRemaining: 0, creditsRemaining: 30, periodEndsAt: '2026-11-23T10:00:00.000Z' },
    }))
    .on(Patterns.gateway.clientSetDisabled, ({ clientId, disabled }: { clientId: number; disabled: boolean }): ClientView => {
      const client = find(clientId);
      client.disabledAt = disabled ? (client.disabledAt ?? new Date().toISOString()) : null;
      return viewOf(client);
    })
    .on(Patterns.gateway.clientSetTimezone, ({ clientId, timezone }: { clientId: number; timezone: string }): ClientView => {
      const client = find(clientId);
      try {
        new Intl.DateTimeFormat('en', { timeZone: timezone });
      } catch {
        throw new InvalidRequestError(`${timezone} is not an IANA time zone`);
      }
      client.timezone = timezone;
      return viewOf(client);
    });
}

async function deleteNamespace(config: DashboardConfig): Promise<void> {
  const redis = new Redis(config.redisUrl);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${config.namespace}:*`, 'COUNT', 500);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
