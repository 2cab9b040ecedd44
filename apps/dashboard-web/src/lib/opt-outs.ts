import type { OptOutRow } from '@smsq/dashboard-api';
import { recipientColumnOf, type CsvTable } from './bulk-send';

/** What was typed into a list box (numbers, or words): one per line, or separated by commas or semicolons; once each. */
export function entriesOfText(text: string): string[] {
  return [...new Set(text.split(/[\n,;]+/).map((part) => part.trim()).filter((part) => part !== ''))];
}

/** The numbers of an imported CSV: its recipient column (as Send to many reads it), or its only column. */
export function numbersOfTable(table: CsvTable): { numbers: string[] } | { problem: string } {
  const column = table.columns.length === 1 ? 0 : recipientColumnOf(table.columns);
  if (column < 0) return { problem: `the file needs a column named recipient, phone, number, mobile or to (its columns: ${table.columns.join(', ')})` };
  // A file of bare numbers has no header: its first line is a number too.
  const first = table.columns.length === 1 && /\d{5,}/.test(table.columns[0]!) ? [table.columns[0]!] : [];
  return { numbers: [...new Set([...first, ...table.rows.map((row) => (row[column] ?? '').trim()).filter((value) => value !== '')])] };
}

/** The list as a CSV a spreadsheet or another system reads: number, when it opted out (UTC), and how. */
export function optOutsCsv(rows: readonly Pick<OptOutRow, 'number' | 'optedOutAt' | 'source'>[]): string {
  return ['number,opted_out_at,source', ...rows.map((row) => `${row.number},${row.optedOutAt},${row.source}`)].join('\r\n') + '\r\n';
}

/** `items` in pieces of at most `size`, in order. */
export function chunksOf<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}
