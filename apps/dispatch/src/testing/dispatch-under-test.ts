import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { Profile } from '@smsq/contracts';
import { createRedis, loadConfig, type ServiceClient } from '@smsq/platform';
import { createTestDatabase, type TestDatabase } from '@smsq/testing';
import { ClaimsRepository } from '../claims/claims.repository.js';
import { TaskClaimsService } from '../claims/task-claims.service.js';
import { TaskReportsRepository } from '../claims/task-reports.repository.js';
import { TaskReportsService } from '../claims/task-reports.service.js';
import { readDispatchConfig, type DispatchConfig } from '../config/dispatch-config.js';
import { DispatchDatabase } from '../database/dispatch-database.js';
import { DueSignals } from '../due-signals/due-signals.js';
import { LeaseExpiry } from '../leases/lease-expiry.js';
import { LeasesRepository } from '../leases/leases.repository.js';
import { TaskExpiry } from '../leases/task-expiry.js';
import { WebhookDeliverer, type DelivererOptions } from '../webhooks/webhook-deliverer.js';
import { WebhookDeliveriesRepository } from '../webhooks/webhook-deliveries.repository.js';
import { WebhookEndpointsRepository } from '../webhooks/webhook-endpoints.repository.js';
import { WebhooksService } from '../webhooks/webhooks.service.js';
import { OutboxRelay } from '../outbox/outbox-relay.js';
import { ConversationsRepository } from '../conversations/conversations.repository.js';
import { ConversationsService } from '../conversations/conversations.service.js';
import { OptOutsRepository } from '../opt-outs/opt-outs.repository.js';
import { OptOutsService } from '../opt-outs/opt-outs.service.js';
import { OutboxRepository } from '../outbox/outbox.repository.js';
import { FailoverRepository } from '../failover/failover.repository.js';
import { PhoneFailover } from '../failover/phone-failover.js';
import { PhoneConditions } from '../phones/phone-conditions.js';
import { PhoneEvents } from '../phones/phone-events.js';
import { PhonePauses } from '../phones/phone-pauses.js';
import { SendingRulesRepository } from '../sending-rules/sending-rules.repository.js';
import { SendingRulesService } from '../sending-rules/sending-rules.service.js';
import { PhoneHealthService } from '../phones/phone-health.service.js';
import { PhoneStateWatch } from '../phones/phone-state-watch.js';
import { PhonesRepository } from '../phones/phones.repository.js';
import { PhonesService } from '../phones/phones.service.js';
import { RepliesRepository } from '../replies/replies.repository.js';
import { ReplyOwnerService } from '../replies/reply-owner.service.js';
import { RoutingRepository } from '../routing/routing.repository.js';
import { RoutingService } from '../routing/routing.service.js';
import { StatsRepository } from '../stats/stats.repository.js';
import { TaskStatsService } from '../stats/task-stats.service.js';
import { ClientTimezoneService } from '../tasks/client-timezone.service.js';
import { TaskCancelService } from '../tasks/task-cancel.service.js';
import { TaskCreationService } from '../tasks/task-creation.service.js';
import { TaskListRepository } from '../tasks/task-list.repository.js';
import { TaskListService } from '../tasks/task-list.service.js';
import { TaskLookupService } from '../tasks/task-lookup.service.js';
import { TaskResendService } from '../tasks/task-resend.service.js';
import { TaskSettlementService } from '../tasks/task-settlement.service.js';
import { TasksRepository } from '../tasks/tasks.repository.js';
import { FakeBillingClient } from './fake-billing.client.js';
import { standIn } from './stand-in.js';

/** The SMPP service as the outbox relay sees it. */
export interface SmppStandIn {
  send(pattern: string, payload: unknown): Promise<unknown>;
}

export const DISPATCH_MIGRATIONS = fileURLToPath(new URL('../../prisma/migrations', import.meta.url));
export const DISPATCH_PRISMA_SCHEMA = fileURLToPath(new URL('../../prisma/schema.prisma', import.meta.url));

/** A database of its own, migrated like a real start. */
export function createDispatchTestDatabase(): Promise<TestDatabase> {
  return createTestDatabase('dispatch', [{ schema: 'dispatch', migrationsDir: DISPATCH_MIGRATIONS }]);
}

export interface DispatchTestOptions {
  claimTimeoutS?: number;
  maxAttempts?: number;
  taskMaxAgeS?: number;
  webhookAllowPrivate?: boolean;
  phoneSilentS?: number;
  /** Default: a fresh one, so due signals of parallel suites never mix. */
  namespace?: string;
}

export interface DispatchUnderTest {
  config: DispatchConfig;
  db: DispatchDatabase;
  billing: FakeBillingClient;
  creation: TaskCreationService;
  cancel: TaskCancelService;
  settlement: TaskSettlementService;
  lookup: TaskLookupService;
  list: TaskListService;
  resend: TaskResendService;
  timezones: ClientTimezoneService;
  stats: TaskStatsService;
  phones: PhonesService;
  health: PhoneHealthService;
  claims: TaskClaimsService;
  reports: TaskReportsService;
  failover: PhoneFailover;
  pauses: PhonePauses;
  rules: SendingRulesService;
  phoneWatch: PhoneStateWatch;
  leases: LeaseExpiry;
  expiry: TaskExpiry;
  outbox: OutboxRepository;
  /** A relay of its own each time: several relays at once stand for several dispatch instances. */
  /** `smpp` takes what the relay sends the SMPP service; absent, the SMPP service is away. */
  newRelay(billing?: FakeBillingClient, smpp?: SmppStandIn): OutboxRelay;
  replies: ReplyOwnerService;
  webhooks: WebhooksService;
  optOuts: OptOutsService;
  conversations: ConversationsService;
  /** A deliverer of its own each time: several at once stand for several dispatch instances. */
  newDeliverer(options?: Partial<DelivererOptions>): WebhookDeliverer;
  close(): Promise<void>;
}

export function testNamespace(): string {
  return `dispatchtest_${randomBytes(4).toString('hex')}`;
}

/**
 * The dispatch services wired as the app wires them, on real Postgres and Redis. Only billing,
 * another service reached over the broker, is a fake. Nothing runs on a timer: tests call
 * `leases.sweepOnce()` and `newRelay().relayOnce()` themselves.
 */
export async function dispatchUnderTest(databaseUrl: string, profile: Profile, options: DispatchTestOptions = {}): Promise<DispatchUnderTest> {
  const config = loadConfig(readDispatchConfig, {
    DATABASE_URL: databaseUrl,
    SMSQ_PROFILE: profile,
    SMSQ_NAMESPACE: options.namespace ?? testNamespace(),
    SMSQ_CLAIM_TIMEOUT_S: options.claimTimeoutS?.toString(),
    SMSQ_MAX_ATTEMPTS: options.maxAttempts?.toString(),
    SMSQ_TASK_MAX_AGE_S: options.taskMaxAgeS?.toString(),
    SMSQ_PHONE_SILENT_S: options.phoneSilentS?.toString(),
    // The receivers of the tests listen on loopback.
    SMSQ_WEBHOOK_ALLOW_PRIVATE: String(options.webhookAllowPrivate ?? true),
  });
  const db = new DispatchDatabase(config);
  await db.onModuleInit();
  const redis = createRedis(config);
  const signals = new DueSignals(redis, config);
  const conditions = new PhoneConditions(config);
  const tasks = new TasksRepository(db, conditions);
  const routing = new RoutingService(config, new RoutingRepository(db, conditions));
  const billing = new FakeBillingClient(1_000);
  const settlement = new TaskSettlementService(tasks, standIn(billing));
  const outbox = new OutboxRepository(db);
  const optOutsRepository = new OptOutsRepository(db);
  const conversationsRepository = new ConversationsRepository(db);
  const creation = new TaskCreationService(tasks, routing, standIn(billing), settlement, signals, config, optOutsRepository, conversationsRepository);
  const phones = new PhonesRepository(db, conditions);
  const claims = new TaskClaimsService(config, new ClaimsRepository(db, conditions), signals);
  const failover = new PhoneFailover(db, new FailoverRepository(db, conditions), routing, outbox, signals);
  const deliveries = new WebhookDeliveriesRepository(db);
  const leasesRepository = new LeasesRepository(db);
  const phoneEvents = new PhoneEvents(phones, deliveries, conditions);
  const pauses = new PhonePauses(config, phones, phoneEvents, conditions, failover, signals);
  return {
    config,
    db,
    billing,
    creation,
    cancel: new TaskCancelService(db, tasks, outbox),
    settlement,
    lookup: new TaskLookupService(tasks),
    list: new TaskListService(new TaskListRepository(db)),
    resend: new TaskResendService(tasks, creation),
    timezones: new ClientTimezoneService(db),
    stats: new TaskStatsService(new StatsRepository(db)),
    phones: new PhonesService(config, phones, signals, conditions, failover),
    health: new PhoneHealthService(config, phones),
    claims,
    reports: new TaskReportsService(config, new TaskReportsRepository(db, conditions), outbox, routing, signals, claims, pauses),
    failover,
    pauses,
    rules: new SendingRulesService(new SendingRulesRepository(db)),
    phoneWatch: new PhoneStateWatch(phones, phoneEvents, signals),
    leases: new LeaseExpiry(db, leasesRepository, outbox, signals, config),
    expiry: new TaskExpiry(db, leasesRepository, outbox),
    outbox,
    newRelay: (relayBilling = billing, smpp: SmppStandIn = { send: () => Promise.reject(new Error('the SMPP service is not running')) }) =>
      new OutboxRelay(db, standIn(relayBilling), config, smpp as unknown as ServiceClient),
    replies: new ReplyOwnerService(config, new RepliesRepository(db)),
    webhooks: new WebhooksService(new WebhookEndpointsRepository(db), deliveries),
    optOuts: new OptOutsService(db, optOutsRepository, outbox, deliveries),
    conversations: new ConversationsService(conversationsRepository),
    newDeliverer: (delivererOptions = {}) => new WebhookDeliverer(deliveries, config).withOptions(delivererOptions),
    close: async () => {
      await db.onModuleDestroy();
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
