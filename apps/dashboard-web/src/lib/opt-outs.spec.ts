import { describe, expect, it } from 'vitest';
import { parseCsv } from './bulk-send';
import { chunksOf, numbersOfTable, entriesOfText, optOutsCsv } from './opt-outs';

describe('opt-out numbers', () => {
  it('reads typed numbers one per line or separated by commas or semicolons, once each', () => {
    expect(entriesOfText('+381641234567\n 0641234568 ;+381641234567,, +1 202 555 0100\n')).toEqual(['+381641234567', '0641234568', '+1 202 555 0100']);
  });

  it("reads an imported CSV's number column, or a file of bare numbers, and says what is missing", () => {
    expect(numbersOfTable(parseCsv('name;Phone\nAna;+381641234567\nBo;+381641234568\nAna again;+381641234567\n'))).toEqual({ numbers: ['+381641234567', '+381641234568'] });
    expect(numbersOfTable(parseCsv('+381641234567\n+381641234568\n'))).toEqual({ numbers: ['+381641234567', '+381641234568'] });
    expect(numbersOfTable(parseCsv('number\n+381641234567\n'))).toEqual({ numbers: ['+381641234567'] });
    expect(numbersOfTable(parseCsv('name,city\nAna,Novi Sad\n'))).toEqual({ problem: expect.stringContaining('name, city') });
  });

  it('exports what it imports', () => {
    const csv = optOutsCsv([{ number: '+381641234567', optedOutAt: '2026-11-27T10:00:00.000Z', source: 'reply' }]);
    expect(csv).toBe('number,opted_out_at,source\r\n+381641234567,2026-11-27T10:00:00.000Z,reply\r\n');
    expect(numbersOfTable(parseCsv(csv))).toEqual({ numbers: ['+381641234567'] });
    expect(chunksOf([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
  });
});
