/** Maximum sizes of C-octet string fields, NUL included (SMPP 3.4 section 4). */
export const FieldSize = {
  systemId: 16,
  password: 9,
  systemType: 13,
  addressRange: 41,
  serviceType: 6,
  address: 21,
  time: 17,
  messageId: 65,
} as const;

/** short_message holds at most 254 octets; longer text goes in message_payload. */
export const SHORT_MESSAGE_MAX = 254;

export const HEADER_SIZE = 16;
