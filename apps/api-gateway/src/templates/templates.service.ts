import { Injectable } from '@nestjs/common';
import { jsonObjectOf } from '@smsq/platform';
import { ConflictError, DomainError, InvalidRequestError, MAX_TEMPLATES, MESSAGE_MAX_CODE_POINTS, NotFoundError, TEMPLATE_NAME_MAX_LENGTH, type Ok, type TemplateView } from '@smsq/contracts';
import { isNameTaken, TemplatesRepository } from './templates.repository.js';

/** A template as the public API shows it. */
export function templateBody(template: TemplateView) {
  return { id: template.id, name: template.name, body: template.body, placeholders: template.placeholders, created_at: template.createdAt, updated_at: template.updatedAt };
}

/**
 * A client's saved messages, `{placeholders}` and all: create-task and create-tasks fill one in
 * from `variables` instead of taking a `message` (template-message.ts).
 */
@Injectable()
export class TemplatesService {
  constructor(private readonly templates: TemplatesRepository) {}

  list(clientId: number): Promise<TemplateView[]> {
    return this.templates.list(clientId);
  }

  async get(clientId: number, id: number): Promise<TemplateView> {
    const template = await this.templates.find(clientId, id);
    if (!template) throw new NotFoundError('template');
    return template;
  }

  /** Creates, or with `id` replaces, a template; a name the client already uses is 409. */
  async save(clientId: number, id: number | undefined, fields: { name: unknown; body: unknown }): Promise<TemplateView> {
    const name = nameOf(fields.name);
    const body = bodyOf(fields.body);
    try {
      if (id !== undefined) {
        const updated = await this.templates.update(clientId, id, name, body);
        if (!updated) throw new NotFoundError('template');
        return updated;
      }
      if ((await this.templates.count(clientId)) >= MAX_TEMPLATES) throw new ConflictError(`a client has at most ${MAX_TEMPLATES} templates; delete one first`);
      return await this.templates.create(clientId, name, body);
    } catch (error) {
      if (isNameTaken(error)) throw new ConflictError(`you have a template named "${name}" already`);
      throw error;
    }
  }

  /** The body of POST or PUT /smsapi/templates: `{ name, body }`. */
  saveFromRequest(clientId: number, id: number | undefined, request: unknown): Promise<TemplateView> {
    const fields = jsonObjectOf(request, 'a JSON object with name and body');
    return this.save(clientId, id, { name: fields['name'], body: fields['body'] });
  }

  async delete(clientId: number, id: number): Promise<Ok> {
    if (!(await this.templates.delete(clientId, id))) throw new NotFoundError('template');
    return { ok: true };
  }
}

function nameOf(value: unknown): string {
  const name = typeof value === 'string' ? value.trim() : '';
  if (name.length === 0 || name.length > TEMPLATE_NAME_MAX_LENGTH || name.includes('\u0000')) {
    throw new InvalidRequestError(`name is required: text of 1 to ${TEMPLATE_NAME_MAX_LENGTH} characters`);
  }
  return name;
}

/** As create-task checks a message; its placeholders are filled later, so its length is checked again once filled. */
function bodyOf(value: unknown): string {
  if (typeof value !== 'string' || value.trim().length === 0) throw new InvalidRequestError('body is required: the message, with {placeholders} where values go');
  if (value.includes('\u0000') || !value.isWellFormed()) throw new DomainError('invalid_message', 'body contains characters that cannot be sent');
  if ([...value].length > MESSAGE_MAX_CODE_POINTS) throw new DomainError('invalid_message', `body is ${[...value].length} characters; the most is ${MESSAGE_MAX_CODE_POINTS}`);
  return value;
}
