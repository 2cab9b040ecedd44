import { InvalidRequestError, PLACEHOLDER, type TemplateView } from '@smsq/contracts';

const MAX_ID = 2_147_483_647;

/** The templates a create names, by id: read once per request, before its bodies are checked. */
export type TemplatesByIds = ReadonlyMap<number, Pick<TemplateView, 'id' | 'name' | 'body'>>;

/** A `template_id` as a body gives it: a whole number that can name a row, else undefined. */
export function templateIdOf(body: unknown): number | undefined {
  const id = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)['template_id'] : undefined;
  return typeof id === 'number' && Number.isInteger(id) && id >= 1 && id <= MAX_ID ? id : undefined;
}

/**
 * The message of a create that names a template instead of a message: its body with each
 * `{placeholder}` filled from `variables` (text, or a number written as JSON writes it). A
 * placeholder with no variable refuses the create, naming it; variables the template does not use are ignored.
 */
export function messageFromTemplate(fields: Record<string, unknown>, templates: TemplatesByIds): string {
  if (fields['message'] !== undefined) throw new InvalidRequestError('give message or template_id, not both');
  const raw = fields['template_id'];
  // A template's id is a JSON number, as phone_id is; "1" names no template, so it says what it should be.
  if (typeof raw !== 'number' || !Number.isInteger(raw)) throw new InvalidRequestError('template_id must be a number: the whole-number id of one of your templates');
  const id = templateIdOf(fields);
  const template = id === undefined ? undefined : templates.get(id);
  if (!template) throw new InvalidRequestError('template_id names none of your templates');
  const variables = fields['variables'] ?? {};
  if (typeof variables !== 'object' || variables === null || Array.isArray(variables)) throw new InvalidRequestError('variables must be an object of names and values');
  return template.body.replace(PLACEHOLDER, (_match, name: string) => {
    const value = (variables as Record<string, unknown>)[name];
    if (typeof value === 'string') return value;
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
    throw new InvalidRequestError(`variables.${name} is ${value === undefined ? 'missing' : 'not text or a number'}: template "${template.name}" has {${name}}`);
  });
}
