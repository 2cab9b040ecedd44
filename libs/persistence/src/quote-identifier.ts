/** Quotes a Postgres identifier (database, schema, table) for use in SQL text. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
