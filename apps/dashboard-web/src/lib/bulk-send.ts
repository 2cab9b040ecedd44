import type { OutgoingSms } from '@smsq/dashboard-api';

/** Column names read as the recipient, in order of preference (compared without case). */
const RECIPIENT_COLUMNS = ['recipient', 'phone', 'number', 'mobile', 'to'];
const SCHEDULE_COLUMN = 'scheduled_at';
const PLACEHOLDER = /\{([^{}]+)\}/g;

export interface CsvTable {
  columns: string[];
  rows: string[][];
}

/**
 * RFC 4180 text: quoted fields may hold the delimiter, line breaks and doubled quotes. The
 * delimiter is what the header line uses most of comma, semicolon and tab (spreadsheets in
 * much of Europe write semicolons). Blank lines are skipped; a byte order mark is dropped.
 */
export function parseCsv(text: string): CsvTable {
  const source = text.replace(/^\uFEFF/, '');
  const delimiter = delimiterOf(source.split(/\r?\n/, 1)[0] ?? '');
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!;
    if (quoted) {
      if (char === '"' && source[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"' && field === '') quoted = true;
    else if (char === delimiter) {
      record.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && source[i + 1] === '\n') i++;
      record.push(field);
      records.push(record);
      record = [];
      field = '';
    } else field += char;
  }
  if (field !== '' || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  const [header = [], ...rows] = records.filter((row) => row.some((cell) => cell.trim() !== ''));
  return { columns: header.map((name) => name.trim()), rows };
}

function delimiterOf(headerLine: string): string {
  const counts = [',', ';', '\t'].map((delimiter) => [delimiter, headerLine.split(delimiter).length] as const);
  return counts.reduce((best, candidate) => (candidate[1] > best[1] ? candidate : best))[0];
}

/** The index of the column read as the recipient, by RECIPIENT_COLUMNS' preference; -1 when there is none. */
export function recipientColumnOf(columns: readonly string[]): number {
  const lower = columns.map((name) => name.toLowerCase());
  return RECIPIENT_COLUMNS.map((name) => lower.indexOf(name)).find((index) => index >= 0) ?? -1;
}

/** A row the page can send, or why it cannot (a row is numbered as the spreadsheet shows it: the header is row 1). */
export type BulkRow = { row: number; sms: OutgoingSms } | { row: number; problem: string };

/**
 * The messages of a table: the recipient from its recipient (or phone, number, mobile, to)
 * column, the text from the template with each `{column}` filled from the row, the time from a
 * scheduled_at column when there is one, else `scheduledAt` for all.
 */
export function messagesOf(table: CsvTable, template: string, scheduledAt?: string): { rows: BulkRow[]; problem?: string } {
  const lower = table.columns.map((name) => name.toLowerCase());
  const recipientColumn = recipientColumnOf(table.columns);
  if (recipientColumn < 0) return { rows: [], problem: `the file needs a column named ${RECIPIENT_COLUMNS.slice(0, -1).join(', ')} or ${RECIPIENT_COLUMNS.at(-1)}` };
  const unknown = placeholdersOf(template).filter((name) => !lower.includes(name.toLowerCase()));
  if (unknown.length > 0) return { rows: [], problem: `the message names ${unknown.map((name) => `{${name}}`).join(', ')}, which the file has no column for` };
  const scheduleColumn = lower.indexOf(SCHEDULE_COLUMN);
  return {
    rows: table.rows.map((cells, index): BulkRow => {
      const row = index + 2;
      if (cells.length > table.columns.length) return { row, problem: `it has ${cells.length} fields; the header has ${table.columns.length}` };
      const valueOf = (column: number) => (cells[column] ?? '').trim();
      const message = template.replace(PLACEHOLDER, (_, name: string) => valueOf(lower.indexOf(name.trim().toLowerCase())));
      const when = scheduleColumn >= 0 && valueOf(scheduleColumn) !== '' ? valueOf(scheduleColumn) : scheduledAt;
      return { row, sms: { recipient: valueOf(recipientColumn), message, ...(when ? { scheduledAt: when } : {}) } };
    }),
  };
}

export function placeholdersOf(template: string): string[] {
  return [...new Set([...template.matchAll(PLACEHOLDER)].map((match) => match[1]!.trim()))];
}
