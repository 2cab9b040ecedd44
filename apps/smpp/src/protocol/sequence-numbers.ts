const FIRST = 1;
const LAST = 0x7fffffff;

/** sequence_number values for PDUs smsq originates: 1..0x7FFFFFFF, then round again (SMPP 3.4 section 5.1.4). */
export class SequenceNumbers {
  private last: number;

  constructor(start: number = FIRST) {
    this.last = start - 1;
  }

  next(): number {
    this.last = this.last >= LAST ? FIRST : this.last + 1;
    return this.last;
  }
}
