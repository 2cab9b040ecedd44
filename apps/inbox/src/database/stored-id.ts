const MAX_INTEGER = 2_147_483_647;

/** Whether a number fits the INTEGER columns that hold client and phone ids; any other number names nothing. */
export function isStoredId(value: number): boolean {
  return Number.isInteger(value) && value >= 1 && value <= MAX_INTEGER;
}
