import { describe, expect, it } from 'vitest';
import { messagesOf, parseCsv } from './bulk-send';

describe('parseCsv', () => {
  it('reads quoted fields with delimiters, doubled quotes and line breaks, and CRLF lines', () => {
    expect(parseCsv('\uFEFFrecipient,name\r\n+381641234567,"Petrović, Ana"\r\n"+381 64 765 4321","say ""hi""\nthere"\r\n\r\n')).toEqual({
      columns: ['recipient', 'name'],
      rows: [
        ['+381641234567', 'Petrović, Ana'],
        ['+381 64 765 4321', 'say "hi"\nthere'],
      ],
    });
  });

  it('takes the delimiter the header uses: semicolons from a European spreadsheet, or tabs', () => {
    expect(parseCsv('phone;name\n064 123 4567;Marko, Jr.\n').rows).toEqual([['064 123 4567', 'Marko, Jr.']]);
    expect(parseCsv('phone\tname\n0641234567\tAna').rows).toEqual([['0641234567', 'Ana']]);
  });
});

describe('messagesOf', () => {
  const table = parseCsv('Name,Phone,code\nAna,+381641234567,4711\nMarko,0641234568,\n');

  it('fills each {column} of the template from the row, matching names without case', () => {
    expect(messagesOf(table, 'Hi {name}, your code is {CODE}.', '2026-12-01 09:00')).toEqual({
      rows: [
        { row: 2, sms: { recipient: '+381641234567', message: 'Hi Ana, your code is 4711.', scheduledAt: '2026-12-01 09:00' } },
        { row: 3, sms: { recipient: '0641234568', message: 'Hi Marko, your code is .', scheduledAt: '2026-12-01 09:00' } },
      ],
    });
  });

  it('reads a placeholder with spaces inside its braces as the column it names', () => {
    expect(messagesOf(table, 'Hi { Name }').rows[0]).toEqual({ row: 2, sms: { recipient: '+381641234567', message: 'Hi Ana' } });
  });

  it('takes a row’s own scheduled_at over the form’s time', () => {
    const scheduled = parseCsv('recipient,scheduled_at\n+381641234567,2026-12-24 18:00\n+381641234568,\n');
    expect(messagesOf(scheduled, 'x').rows.map((row) => ('sms' in row ? row.sms.scheduledAt : undefined))).toEqual(['2026-12-24 18:00', undefined]);
  });

  it('names what is missing: the recipient column, a placeholder’s column, or a row with more fields than the header', () => {
    expect(messagesOf(parseCsv('name\nAna'), 'x').problem).toContain('column named recipient');
    expect(messagesOf(table, 'Hi {first name}').problem).toBe('the message names {first name}, which the file has no column for');
    expect(messagesOf(parseCsv('recipient\n+381641234567,extra'), 'x').rows).toEqual([{ row: 2, problem: 'it has 2 fields; the header has 1' }]);
  });
});
