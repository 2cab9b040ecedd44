const MAX_SERIAL = 2_147_483_647;

/** Whether a number can be the id of a stored row (a SERIAL); any other number names nothing. */
export function isStoredId(value: number): boolean {
  return Number.isInteger(value) && value >= 1 && value <= MAX_SERIAL;
}
