import { placeholdersIn, type DomainError } from '@smsq/contracts';
import { describe, expect, it } from 'vitest';
import { parseCreateTaskRequest } from './create-task-request.js';
import { messageFromTemplate } from './template-message.js';

const TEMPLATES = new Map([[7, { id: 7, name: 'appointment', body: 'Hi {first_name}, see you {day} at {time}. {first_name}, reply STOP to opt out.' }]]);
const CONTEXT = { profile: 'A' as const, defaultRegion: undefined, timeZone: 'Europe/Belgrade', now: new Date('2026-11-22T10:00:00Z'), templates: TEMPLATES };

function refusal(fields: Record<string, unknown>): DomainError {
  try {
    messageFromTemplate(fields, TEMPLATES);
  } catch (error) {
    return error as DomainError;
  }
  throw new Error('not refused');
}

describe('a message from a template', () => {
  it('fills every placeholder, each use of it, from variables given as text or numbers; other variables are ignored', () => {
    expect(messageFromTemplate({ template_id: 7, variables: { first_name: 'Ana', day: 'Friday', time: 9.5, extra: 'x' } }, TEMPLATES)).toBe('Hi Ana, see you Friday at 9.5. Ana, reply STOP to opt out.');
    expect(placeholdersIn(TEMPLATES.get(7)!.body)).toEqual(['first_name', 'day', 'time']);
  });

  it('names a missing variable, or one that is not text or a number', () => {
    expect(refusal({ template_id: 7, variables: { first_name: 'Ana', day: 'Friday' } })).toMatchObject({ code: 'invalid_request', detail: expect.stringContaining('variables.time is missing') });
    expect(refusal({ template_id: 7, variables: { first_name: 'Ana', day: ['Friday'], time: '9' } }).detail).toContain('variables.day is not text or a number');
    expect(refusal({ template_id: 7 }).detail).toContain('variables.first_name is missing');
    expect(refusal({ template_id: 7, variables: 'Ana' }).detail).toContain('variables must be an object');
  });

  it("refuses a template that is not the client's, and a body with both message and template_id", () => {
    expect(refusal({ template_id: 8, variables: {} }).detail).toContain('none of your templates');
    expect(refusal({ template_id: 0, variables: {} }).detail).toContain('none of your templates');
    expect(refusal({ template_id: 7, message: 'hi', variables: {} }).detail).toContain('not both');
  });

  it('refuses a template_id that is not a whole number, saying so rather than that no template has it', () => {
    for (const id of ['7', '1', 7.5, null, true, [7], { id: 7 }]) {
      expect(refusal({ template_id: id, variables: {} }), JSON.stringify(id)).toMatchObject({ code: 'invalid_request', detail: expect.stringContaining('template_id must be a number') });
    }
    expect(() => parseCreateTaskRequest({ recipient: '064 123 4567', template_id: '1', variables: {} }, CONTEXT)).toThrow(/template_id must be a number/);
  });

  it('goes through create-task’s own rules once filled: recipient, length and the rest', () => {
    const request = parseCreateTaskRequest({ recipient: '064 123 4567', template_id: 7, variables: { first_name: 'Ana', day: 'Friday', time: '9:30' } }, CONTEXT);
    expect(request).toMatchObject({ recipient: '+381641234567', message: 'Hi Ana, see you Friday at 9:30. Ana, reply STOP to opt out.' });
    expect(() => parseCreateTaskRequest({ recipient: '064 123 4567', template_id: 7, variables: { first_name: 'A'.repeat(2000), day: 'x', time: 'y' } }, CONTEXT)).toThrow(/the most is/);
    expect(() => parseCreateTaskRequest({ recipient: '064 123 4567' }, CONTEXT)).toThrow(/message \(or template_id\) is required/);
  });
});
