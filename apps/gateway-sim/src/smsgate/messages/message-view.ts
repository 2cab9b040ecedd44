import type { PhoneClock } from '../phone/phone-clock.js';
import type { OutgoingMessage } from './outgoing-message.js';

/**
 * A message as the app's Local Server writes it (its `Message` class through Gson): fields in the
 * class's order, null ones left out, `textMessage` only with the content.
 */
export function messageView(message: OutgoingMessage, deviceId: string, includeContent: boolean, clock: PhoneClock): Record<string, unknown> {
  return {
    id: message.id,
    deviceId,
    state: message.state,
    isHashed: false,
    isEncrypted: message.order.isEncrypted,
    ...(message.order.scheduleAt === null ? {} : { scheduleAt: clock.format(message.order.scheduleAt) }),
    ...(includeContent ? { textMessage: { text: message.order.text } } : {}),
    recipients: message.recipients.map(({ phoneNumber, state, error }) => ({ phoneNumber, state, ...(error === null ? {} : { error }) })),
    states: Object.fromEntries([...message.states].map(([state, at]) => [state, clock.format(at)])),
  };
}
