/** An ILIKE pattern (escape character `\`) matching values that contain `search` literally, `%` and `_` included. */
export function containsPattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}
