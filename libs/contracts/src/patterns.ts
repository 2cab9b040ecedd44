/** Every message pattern on the broker, versioned: a breaking change gets a new name. */
export const Patterns = {
  gateway: {
    clientCreate: 'gateway.client.create.v1',
    clientShow: 'gateway.client.show.v1',
    clientSetDisabled: 'gateway.client.set-disabled.v1',
    clientGet: 'gateway.client.get.v1',
    clientSetTimezone: 'gateway.client.set-timezone.v1',
    keyCreate: 'gateway.key.create.v1',
    keyRevoke: 'gateway.key.revoke.v1',
    phoneRegister: 'gateway.phone.register.v1',
    workerTokenCreate: 'gateway.worker-token.create.v1',
    workerTokenRevoke: 'gateway.worker-token.revoke.v1',
    clientList: 'gateway.client.list.v1',
    keyList: 'gateway.key.list.v1',
    workerTokenList: 'gateway.worker-token.list.v1',
    tasksSend: 'gateway.tasks.send.v1',
    tasksCheck: 'gateway.tasks.check.v1',
  },
  billing: {
    accountOpen: 'billing.account.open.v1',
    accountShow: 'billing.account.show.v1',
    accountsShow: 'billing.accounts.show.v1',
    debit: 'billing.debit.v1',
    debitBatch: 'billing.debit-batch.v1',
    refund: 'billing.refund.v1',
    creditsGrant: 'billing.credits.grant.v1',
    planSet: 'billing.plan.set.v1',
  },
  dispatch: {
    webhookCreate: 'dispatch.webhook.create.v1',
    webhookList: 'dispatch.webhook.list.v1',
    webhookDelete: 'dispatch.webhook.delete.v1',
    webhookRotate: 'dispatch.webhook.rotate.v1',
    webhookEnable: 'dispatch.webhook.enable.v1',
    webhookDeliveries: 'dispatch.webhook.deliveries.v1',
    webhookRedeliver: 'dispatch.webhook.redeliver.v1',
    webhookTest: 'dispatch.webhook.test.v1',
    webhookReplyReceived: 'dispatch.webhook.reply-received.v1',
    taskCreate: 'dispatch.task.create.v1',
    taskCreateBatch: 'dispatch.task.create-batch.v1',
    taskSettle: 'dispatch.task.settle.v1',
    taskSettleBatch: 'dispatch.task.settle-batch.v1',
    taskGet: 'dispatch.task.get.v1',
    taskCancel: 'dispatch.task.cancel.v1',
    phoneRegister: 'dispatch.phone.register.v1',
    phoneGet: 'dispatch.phone.get.v1',
    phoneSetActive: 'dispatch.phone.set-active.v1',
    gatewayCreate: 'dispatch.gateway.create.v1',
    taskClaim: 'dispatch.task.claim.v1',
    taskClaimBatch: 'dispatch.task.claim-batch.v1',
    taskRelease: 'dispatch.task.release.v1',
    taskReport: 'dispatch.task.report.v1',
    taskReportBatch: 'dispatch.task.report-batch.v1',
    replyOwner: 'dispatch.reply.owner.v1',
    taskList: 'dispatch.task.list.v1',
    taskFeed: 'dispatch.task.feed.v1',
    taskResend: 'dispatch.task.resend.v1',
    taskDailyStats: 'dispatch.task.daily-stats.v1',
    systemStats: 'dispatch.system.stats.v1',
    phoneList: 'dispatch.phone.list.v1',
    phoneRename: 'dispatch.phone.rename.v1',
    phoneSetLimits: 'dispatch.phone.set-limits.v1',
    phoneHealthReport: 'dispatch.phone.health-report.v1',
    clientTimezoneChanged: 'dispatch.client.timezone-changed.v1',
  },
  dashboard: {
    adminCreate: 'dashboard.admin.create.v1',
  },
  inbox: {
    messagesStore: 'inbox.messages.store.v1',
    messagesList: 'inbox.messages.list.v1',
  },
} as const;

/** The services that consume a queue of their own on the broker. */
export type ServiceName = keyof typeof Patterns | 'inbox';

/** Every consuming service answers this with `{ ok: true }`; the gateway's readiness asks each one. */
export function pingPattern(service: ServiceName): string {
  return `${service}.ping.v1`;
}
