import { Inject, Injectable } from '@nestjs/common';
import { Patterns, type TemplateDeleteCommand, type TemplateSaveCommand, type TemplateView } from '@smsq/contracts';
import type { TemplateBody, TemplateRow } from '@smsq/dashboard-api';
import { ServiceClient, serviceClientToken } from '@smsq/platform';
import { ClientDirectory } from '../shared/client-directory.js';

/** The client's message templates, kept by the gateway, which fills them in for create-task. */
@Injectable()
export class TemplatesService {
  constructor(
    private readonly directory: ClientDirectory,
    @Inject(serviceClientToken('gateway')) private readonly gateway: ServiceClient,
  ) {}

  async list(clientId: number): Promise<TemplateRow[]> {
    const [templates, timeZone] = await Promise.all([this.gateway.send<TemplateView[]>(Patterns.gateway.templateList, { clientId }), this.directory.timeZoneOf(clientId)]);
    return templates.map((template) => rowOf(template, timeZone));
  }

  async save(clientId: number, id: number | undefined, body: TemplateBody): Promise<TemplateRow> {
    const command: TemplateSaveCommand = { clientId, ...(id === undefined ? {} : { id }), name: body.name, body: body.body };
    const [template, timeZone] = await Promise.all([this.gateway.send<TemplateView>(Patterns.gateway.templateSave, command), this.directory.timeZoneOf(clientId)]);
    return rowOf(template, timeZone);
  }

  async delete(clientId: number, id: number): Promise<void> {
    const command: TemplateDeleteCommand = { clientId, id };
    await this.gateway.send(Patterns.gateway.templateDelete, command);
  }
}

function rowOf(template: TemplateView, timeZone: string): TemplateRow {
  return { id: template.id, name: template.name, body: template.body, placeholders: template.placeholders, updatedAt: template.updatedAt, timeZone };
}
