/** message_state values of query_sm_resp and of a receipt's message_state parameter (SMPP 3.4 section 5.2.28). */
export const MessageState = {
  ENROUTE: 1,
  DELIVERED: 2,
  EXPIRED: 3,
  DELETED: 4,
  UNDELIVERABLE: 5,
  ACCEPTED: 6,
  UNKNOWN: 7,
  REJECTED: 8,
} as const;

export type MessageStateName = keyof typeof MessageState;
export type MessageStateValue = (typeof MessageState)[MessageStateName];
