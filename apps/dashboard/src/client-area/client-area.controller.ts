import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, UseGuards } from '@nestjs/common';
import type { ApiKeyRow, CheckResult, ConversationPage, ConversationThread, CreatedApiKey, CreatedSmppCredential, CreatedWebhook, InboxRow, OptOutPage, OptOutSettings, OptOutsAdded, Overview, Page, PhoneRow, SendResult, SmppCredentials, TaskRow, TemplateRow, WebhookDeliveryRow, WebhookRow, WebhooksAnswer } from '@smsq/dashboard-api';
import { SessionGuard } from '../auth/session.guard.js';
import { ActingClientId } from '../auth/signed-in.decorators.js';
import { bigIdOf, entityIdOf, queryPage, queryText } from '../http/request-values.js';
import { ConversationReplyBody } from './dto/conversation-reply.body.js';
import { KeyCreateBody } from './dto/key-create.body.js';
import { OptOutSettingsBody, OptOutsAddBody } from './dto/opt-outs.body.js';
import { PhoneUpdateBody } from './dto/phone-update.body.js';
import { SendBody, SendCheckBody } from './dto/send.body.js';
import { SmppCredentialCreateBody } from './dto/smpp-credential-create.body.js';
import { TemplateBodyDto } from './dto/template.body.js';
import { WebhookCreateBody } from './dto/webhook-create.body.js';
import { ConversationsService } from './conversations.service.js';
import { InboxService } from './inbox.service.js';
import { KeysService } from './keys.service.js';
import { OptOutsService } from './opt-outs.service.js';
import { OverviewService } from './overview.service.js';
import { PhonesService } from './phones.service.js';
import { SendService } from './send.service.js';
import { SmppCredentialsService } from './smpp-credentials.service.js';
import { TasksService } from './tasks.service.js';
import { TemplatesService } from './templates.service.js';
import { WebhooksService } from './webhooks.service.js';

/** A signed-in user's own client: every service call carries its client id, so another client's rows are not found. */
@Controller('api')
@UseGuards(SessionGuard)
export class ClientAreaController {
  constructor(
    private readonly overviews: OverviewService,
    private readonly keys: KeysService,
    private readonly phones: PhonesService,
    private readonly tasks: TasksService,
    private readonly inbox: InboxService,
    private readonly sending: SendService,
    private readonly webhooks: WebhooksService,
    private readonly optOuts: OptOutsService,
    private readonly templates: TemplatesService,
    private readonly conversations: ConversationsService,
    private readonly smppCredentials: SmppCredentialsService,
  ) {}

  @Get('overview')
  overview(@ActingClientId() clientId: number): Promise<Overview> {
    return this.overviews.overview(clientId);
  }

  @Get('keys')
  listKeys(@ActingClientId() clientId: number): Promise<ApiKeyRow[]> {
    return this.keys.list(clientId);
  }

  @Post('keys')
  @HttpCode(201)
  createKey(@ActingClientId() clientId: number, @Body() body: KeyCreateBody): Promise<CreatedApiKey> {
    return this.keys.create(clientId, body.name);
  }

  @Delete('keys/:id')
  @HttpCode(204)
  revokeKey(@ActingClientId() clientId: number, @Param('id') id: string): Promise<void> {
    return this.keys.revoke(clientId, entityIdOf(id, 'key'));
  }

  @Get('smpp-credentials')
  listSmppCredentials(@ActingClientId() clientId: number): Promise<SmppCredentials> {
    return this.smppCredentials.list(clientId);
  }

  @Post('smpp-credentials')
  @HttpCode(201)
  createSmppCredential(@ActingClientId() clientId: number, @Body() body: SmppCredentialCreateBody): Promise<CreatedSmppCredential> {
    return this.smppCredentials.create(clientId, body);
  }

  @Delete('smpp-credentials/:id')
  @HttpCode(204)
  revokeSmppCredential(@ActingClientId() clientId: number, @Param('id') id: string): Promise<void> {
    return this.smppCredentials.revoke(clientId, entityIdOf(id, 'SMPP credential'));
  }

  @Get('phones')
  listPhones(@ActingClientId() clientId: number): Promise<PhoneRow[]> {
    return this.phones.list(clientId);
  }

  @Patch('phones/:id')
  updatePhone(@ActingClientId() clientId: number, @Param('id') id: string, @Body() body: PhoneUpdateBody): Promise<PhoneRow> {
    return this.phones.update(clientId, entityIdOf(id, 'phone'), body);
  }

  @Post('phones/:id/resume')
  @HttpCode(200)
  resumePhone(@ActingClientId() clientId: number, @Param('id') id: string): Promise<PhoneRow> {
    return this.phones.resume(clientId, entityIdOf(id, 'phone'));
  }

  @Get('tasks')
  listTasks(@ActingClientId() clientId: number, @Query() query: unknown): Promise<Page<TaskRow>> {
    return this.tasks.list(clientId, {
      status: queryText(query, 'status', 16),
      from: queryText(query, 'from', 10),
      to: queryText(query, 'to', 10),
      recipient: queryText(query, 'recipient', 32),
      page: queryPage(query),
    });
  }

  @Get('tasks/:id')
  getTask(@ActingClientId() clientId: number, @Param('id') id: string): Promise<TaskRow> {
    return this.tasks.get(clientId, entityIdOf(id, 'task'));
  }

  @Post('tasks/:id/resend')
  @HttpCode(201)
  resendTask(@ActingClientId() clientId: number, @Param('id') id: string): Promise<TaskRow> {
    return this.tasks.resend(clientId, entityIdOf(id, 'task'));
  }

  @Post('send')
  @HttpCode(200)
  send(@ActingClientId() clientId: number, @Body() body: SendBody): Promise<{ results: SendResult[] }> {
    return this.sending.send(clientId, body);
  }

  @Post('send/check')
  @HttpCode(200)
  checkSend(@ActingClientId() clientId: number, @Body() body: SendCheckBody): Promise<{ results: CheckResult[] }> {
    return this.sending.check(clientId, body);
  }

  @Get('webhooks')
  listWebhooks(@ActingClientId() clientId: number): Promise<WebhooksAnswer> {
    return this.webhooks.list(clientId);
  }

  @Post('webhooks')
  @HttpCode(201)
  createWebhook(@ActingClientId() clientId: number, @Body() body: WebhookCreateBody): Promise<CreatedWebhook> {
    return this.webhooks.create(clientId, body);
  }

  @Delete('webhooks/:id')
  @HttpCode(204)
  deleteWebhook(@ActingClientId() clientId: number, @Param('id') id: string): Promise<void> {
    return this.webhooks.delete(clientId, entityIdOf(id, 'webhook endpoint'));
  }

  @Post('webhooks/:id/rotate')
  @HttpCode(200)
  rotateWebhookSecret(@ActingClientId() clientId: number, @Param('id') id: string): Promise<CreatedWebhook> {
    return this.webhooks.rotate(clientId, entityIdOf(id, 'webhook endpoint'));
  }

  @Post('webhooks/:id/enable')
  @HttpCode(200)
  enableWebhook(@ActingClientId() clientId: number, @Param('id') id: string): Promise<WebhookRow> {
    return this.webhooks.enable(clientId, entityIdOf(id, 'webhook endpoint'));
  }

  @Get('webhooks/:id/deliveries')
  webhookDeliveries(@ActingClientId() clientId: number, @Param('id') id: string): Promise<WebhookDeliveryRow[]> {
    return this.webhooks.deliveries(clientId, entityIdOf(id, 'webhook endpoint'));
  }

  @Post('webhooks/:id/test')
  @HttpCode(201)
  sendTestEvent(@ActingClientId() clientId: number, @Param('id') id: string): Promise<WebhookDeliveryRow> {
    return this.webhooks.sendTest(clientId, entityIdOf(id, 'webhook endpoint'));
  }

  @Post('webhooks/deliveries/:deliveryId/redeliver')
  @HttpCode(200)
  redeliverWebhook(@ActingClientId() clientId: number, @Param('deliveryId') deliveryId: string): Promise<WebhookDeliveryRow> {
    return this.webhooks.redeliver(clientId, bigIdOf(deliveryId, 'webhook delivery'));
  }

  @Get('conversations')
  listConversations(@ActingClientId() clientId: number, @Query() query: unknown): Promise<ConversationPage> {
    return this.conversations.list(clientId, { search: queryText(query, 'search', 200), cursor: queryText(query, 'cursor', 200) });
  }

  @Get('conversations/:number')
  conversation(@ActingClientId() clientId: number, @Param('number') number: string, @Query() query: unknown): Promise<ConversationThread> {
    return this.conversations.thread(clientId, number, queryText(query, 'before', 40));
  }

  @Post('conversations/:number/read')
  @HttpCode(204)
  readConversation(@ActingClientId() clientId: number, @Param('number') number: string): Promise<void> {
    return this.conversations.read(clientId, number);
  }

  @Post('conversations/:number/reply')
  @HttpCode(200)
  replyInConversation(@ActingClientId() clientId: number, @Param('number') number: string, @Body() body: ConversationReplyBody): Promise<SendResult> {
    return this.conversations.reply(clientId, number, body);
  }

  @Get('templates')
  listTemplates(@ActingClientId() clientId: number): Promise<TemplateRow[]> {
    return this.templates.list(clientId);
  }

  @Post('templates')
  @HttpCode(201)
  createTemplate(@ActingClientId() clientId: number, @Body() body: TemplateBodyDto): Promise<TemplateRow> {
    return this.templates.save(clientId, undefined, body);
  }

  @Put('templates/:id')
  updateTemplate(@ActingClientId() clientId: number, @Param('id') id: string, @Body() body: TemplateBodyDto): Promise<TemplateRow> {
    return this.templates.save(clientId, entityIdOf(id, 'template'), body);
  }

  @Delete('templates/:id')
  @HttpCode(204)
  deleteTemplate(@ActingClientId() clientId: number, @Param('id') id: string): Promise<void> {
    return this.templates.delete(clientId, entityIdOf(id, 'template'));
  }

  @Get('opt-outs')
  listOptOuts(@ActingClientId() clientId: number, @Query() query: unknown): Promise<OptOutPage> {
    return this.optOuts.list(clientId, { limit: queryText(query, 'limit', 4), cursor: queryText(query, 'cursor', 200), search: queryText(query, 'search', 32) });
  }

  @Post('opt-outs')
  @HttpCode(200)
  addOptOuts(@ActingClientId() clientId: number, @Body() body: OptOutsAddBody): Promise<OptOutsAdded> {
    return this.optOuts.add(clientId, body.numbers);
  }

  @Delete('opt-outs/:number')
  @HttpCode(204)
  removeOptOut(@ActingClientId() clientId: number, @Param('number') number: string): Promise<void> {
    return this.optOuts.remove(clientId, number);
  }

  @Get('opt-out-settings')
  optOutSettings(@ActingClientId() clientId: number): Promise<OptOutSettings> {
    return this.optOuts.settings(clientId);
  }

  @Put('opt-out-settings')
  updateOptOutSettings(@ActingClientId() clientId: number, @Body() body: OptOutSettingsBody): Promise<OptOutSettings> {
    return this.optOuts.updateSettings(clientId, body);
  }

  @Get('inbox')
  listInbox(@ActingClientId() clientId: number, @Query() query: unknown): Promise<Page<InboxRow>> {
    return this.inbox.list(clientId, queryPage(query), queryText(query, 'search', 200));
  }
}
