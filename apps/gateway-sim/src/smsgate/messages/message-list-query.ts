import { SmsGateBadRequest } from '../errors/smsgate-errors.js';
import { readQueryDate } from '../phone/app-dates.js';
import { queryText, toBooleanStrict, toIntOrNull } from '../phone/query-values.js';
import type { MessageFilter } from './message-store.js';
import { isProcessingState } from './processing-state.js';

/** Reads `GET /message`'s query as the app does: an unreadable date or number counts as absent, an unknown state is refused. */
export function readMessageListQuery(query: Record<string, unknown>, deviceId: string, now: Date): MessageFilter & { includeContent: boolean } {
  const rawState = queryText(query['state']);
  const state = rawState === undefined || rawState === '' ? undefined : rawState;
  if (state !== undefined && !isProcessingState(state)) throw new SmsGateBadRequest(`No enum constant me.capcom.smsgateway.domain.ProcessingState.${state}`);
  const limit = toIntOrNull(query['limit']) ?? 50;
  const offset = Math.max(0, toIntOrNull(query['offset']) ?? 0);
  let includeContent: boolean;
  try {
    includeContent = toBooleanStrict(query['includeContent']) ?? false;
  } catch {
    throw new SmsGateBadRequest('includeContent must be true or false');
  }
  const from = optionalDate(query['from']) ?? new Date(0);
  const to = optionalDate(query['to']) ?? now;
  const requestedDevice = queryText(query['deviceId']);
  if (requestedDevice !== undefined && requestedDevice !== deviceId) throw new SmsGateBadRequest('Invalid device ID');
  if (from.getTime() > to.getTime()) throw new SmsGateBadRequest('Start date cannot be after end date');
  return { state, limit, offset, from, to, includeContent };
}

function optionalDate(value: unknown): Date | undefined {
  const raw = queryText(value);
  return raw === undefined ? undefined : readQueryDate(raw);
}
