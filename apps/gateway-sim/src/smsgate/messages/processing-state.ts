/** The app's ProcessingState, for a message and for each of its recipients. */
export const PROCESSING_STATES = ['Pending', 'Cancelling', 'Cancelled', 'Processed', 'Sent', 'Delivered', 'Failed'] as const;
export type ProcessingState = (typeof PROCESSING_STATES)[number];

export function isProcessingState(value: string): value is ProcessingState {
  return (PROCESSING_STATES as readonly string[]).includes(value);
}
