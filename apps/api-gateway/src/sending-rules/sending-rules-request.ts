import { CLOCK_TIME, InvalidRequestError, MAX_SEND_WINDOWS, MAX_STICKY_DAYS, ROUTING_MODES, WEEKDAYS, type RoutingMode, type SendWindow, type Weekday } from '@smsq/contracts';
import { jsonObjectOf } from '@smsq/platform';

/** What PATCH /smsapi/sending-rules changes; a field left out stays as it is. An empty `sendWindows` removes the windows. */
export interface SendingRulesRequest {
  routingMode?: RoutingMode;
  stickyDays?: number;
  sendWindows?: SendWindow[];
}

const FIELDS = ['routing_mode', 'sticky_days', 'send_windows'] as const;
const WINDOW_FIELDS = ['days', 'from', 'to'];
const quoted = (names: readonly string[]) => names.map((name) => `"${name}"`).join(', ');

/**
 * PATCH /smsapi/sending-rules: `{"routing_mode", "sticky_days", "send_windows"}`, at least one.
 * Any other field is refused, so a misspelt setting is never silently ignored.
 */
export function parseSendingRules(body: unknown): SendingRulesRequest {
  const fields = jsonObjectOf(body, 'a JSON object with routing_mode, sticky_days or send_windows');
  const unknown = Object.keys(fields).filter((name) => !(FIELDS as readonly string[]).includes(name));
  if (unknown.length > 0) throw new InvalidRequestError(`unknown field ${quoted(unknown)}: only routing_mode, sticky_days and send_windows can be set`);
  if (!FIELDS.some((name) => name in fields)) throw new InvalidRequestError('give routing_mode, sticky_days, send_windows or more than one');
  return {
    ...('routing_mode' in fields ? { routingMode: routingModeOf(fields['routing_mode']) } : {}),
    ...('sticky_days' in fields ? { stickyDays: stickyDaysOf(fields['sticky_days']) } : {}),
    ...('send_windows' in fields ? { sendWindows: sendWindowsOf(fields['send_windows']) } : {}),
  };
}

function routingModeOf(value: unknown): RoutingMode {
  if (typeof value !== 'string' || !(ROUTING_MODES as readonly string[]).includes(value)) throw new InvalidRequestError(`routing_mode must be one of ${quoted(ROUTING_MODES)}`);
  return value as RoutingMode;
}

function stickyDaysOf(value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_STICKY_DAYS) {
    throw new InvalidRequestError(`sticky_days must be a whole number of days from 1 to ${MAX_STICKY_DAYS}${typeof value === 'number' ? `, got ${value}` : ''}`);
  }
  return value;
}

/** `[]` or null: no windows, tasks go out at any hour. */
function sendWindowsOf(value: unknown): SendWindow[] {
  if (value === null) return [];
  if (!Array.isArray(value)) throw new InvalidRequestError('send_windows must be a list of {"days", "from", "to"} windows, or [] or null for none');
  if (value.length > MAX_SEND_WINDOWS) throw new InvalidRequestError(`send_windows may hold at most ${MAX_SEND_WINDOWS} windows; it holds ${value.length}`);
  return value.map((window, index) => sendWindowOf(window, `send_windows[${index}]`));
}

function sendWindowOf(value: unknown, name: string): SendWindow {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new InvalidRequestError(`${name} must be an object with days, from and to`);
  const fields = value as Record<string, unknown>;
  const unknown = Object.keys(fields).filter((field) => !WINDOW_FIELDS.includes(field));
  if (unknown.length > 0) throw new InvalidRequestError(`${name} has unknown field ${quoted(unknown)}: a window has only days, from and to`);
  return { days: daysOf(fields['days'], `${name}.days`), from: clockOf(fields['from'], `${name}.from`), to: clockOf(fields['to'], `${name}.to`) };
}

function daysOf(value: unknown, name: string): Weekday[] {
  const refused = () => new InvalidRequestError(`${name} must be a list of 1 to 7 different days out of ${quoted(WEEKDAYS)}`);
  if (!Array.isArray(value) || value.length === 0 || value.length > WEEKDAYS.length) throw refused();
  if (!value.every((day) => typeof day === 'string' && (WEEKDAYS as readonly string[]).includes(day))) throw refused();
  if (new Set(value).size !== value.length) throw refused();
  return value as Weekday[];
}

function clockOf(value: unknown, name: string): string {
  if (typeof value !== 'string' || !CLOCK_TIME.test(value)) throw new InvalidRequestError(`${name} must be a time of day "HH:MM", 00:00 to 24:00`);
  return value;
}
