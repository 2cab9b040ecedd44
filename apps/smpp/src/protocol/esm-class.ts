/** esm_class bits smsq reads and writes (SMPP 3.4 section 5.2.12). */
export const EsmClass = {
  /** Message type: SMSC delivery receipt (deliver_sm). */
  deliveryReceipt: 0x04,
  /** The short_message (or message_payload) starts with a User Data Header. */
  udhi: 0x40,
  messageTypeMask: 0x3c,
} as const;
