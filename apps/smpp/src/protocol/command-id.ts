/** SMPP 3.4 command_id values of the operations smsq speaks (section 5.1.2). */
export const CommandId = {
  generic_nack: 0x80000000,
  bind_receiver: 0x00000001,
  bind_receiver_resp: 0x80000001,
  bind_transmitter: 0x00000002,
  bind_transmitter_resp: 0x80000002,
  query_sm: 0x00000003,
  query_sm_resp: 0x80000003,
  submit_sm: 0x00000004,
  submit_sm_resp: 0x80000004,
  deliver_sm: 0x00000005,
  deliver_sm_resp: 0x80000005,
  unbind: 0x00000006,
  unbind_resp: 0x80000006,
  cancel_sm: 0x00000008,
  cancel_sm_resp: 0x80000008,
  bind_transceiver: 0x00000009,
  bind_transceiver_resp: 0x80000009,
  enquire_link: 0x00000015,
  enquire_link_resp: 0x80000015,
} as const;

export type CommandName = keyof typeof CommandId;

const RESPONSE_BIT = 0x80000000;

const namesById = new Map<number, CommandName>(Object.entries(CommandId).map(([name, id]) => [id, name as CommandName]));

/** The command smsq knows by this id, or undefined (answered with generic_nack ESME_RINVCMDID). */
export function knownCommand(commandId: number): CommandName | undefined {
  return namesById.get(commandId);
}

/** The command's name for logs and metric labels; an unknown id is shown in hex. */
export function commandName(commandId: number): string {
  return namesById.get(commandId) ?? `0x${commandId.toString(16).padStart(8, '0')}`;
}

export function isResponse(commandId: number): boolean {
  return (commandId & RESPONSE_BIT) !== 0;
}

/** The id of the response to a request (the request's id with the high bit set). */
export function responseIdOf(commandId: number): number {
  return (commandId | RESPONSE_BIT) >>> 0;
}
