import { describe, expect, it } from 'vitest';
import type { OwnReplyKeywords, Refusal, Unreachable } from '../smsq/smsq-client.js';
import { recordingLog } from '../testing/recording-log.js';
import { ReplyKeywords } from './reply-keywords.js';

type Answer = OwnReplyKeywords | Refusal | Unreachable;
const words = (optOutWords: string[], optInWords: string[] = []): Answer => ({ kind: 'words', optOutWords, optInWords });

/** smsq's answers in turn, the last one repeated. */
function smsqAnswering(...answers: Answer[]) {
  let asked = 0;
  return {
    get asked() {
      return asked;
    },
    getReplyKeywords: async () => answers[Math.min(asked++, answers.length - 1)]!,
  };
}

describe(ReplyKeywords.name, () => {
  it('reads the client\'s own words before the first reply is marked, in the form replies are compared in', async () => {
    const smsq = smsqAnswering(words(['odjava', ' Stani! ', 'two words'], ['prijava']));
    const sut = new ReplyKeywords(smsq, recordingLog().log);

    expect(await sut.current()).toEqual({ optOutWords: ['ODJAVA', 'STANI'], optInWords: ['PRIJAVA'] });
    expect(await sut.current()).toEqual({ optOutWords: ['ODJAVA', 'STANI'], optInWords: ['PRIJAVA'] });
    expect(smsq.asked).toBe(1);
  });

  it('reads them again every few minutes, keeps the last words while smsq cannot answer, and says so once', async () => {
    const smsq = smsqAnswering(words(['ODJAVA']), { kind: 'unreachable', reason: 'ECONNREFUSED' }, { kind: 'refused', status: 503, reason: 'unavailable' }, words(['KRAJ']));
    const { log, logger } = recordingLog();
    const stopping = new AbortController();
    const sut = new ReplyKeywords(smsq, log, 10);

    const running = sut.run(stopping.signal);
    await logger.waitForLine(/reply keywords read/);
    stopping.abort();
    await running;

    expect(await sut.current()).toEqual({ optOutWords: ['KRAJ'], optInWords: [] });
    expect(logger.lines.filter((line) => line.includes('reply keywords'))).toEqual([
      'warn reply keywords unavailable reason="smsq unreachable: ECONNREFUSED" note="sealed replies are marked by the own words last read, or wait for the first answer"',
      'log reply keywords read opt_out_words=1 opt_in_words=0',
    ]);
  });

  it('has no own words to tell from an smsq without reply keywords (404)', async () => {
    const sut = new ReplyKeywords(smsqAnswering({ kind: 'refused', status: 404, reason: 'not_found' }), recordingLog().log);

    expect(await sut.current()).toEqual({ optOutWords: [], optInWords: [] });
  });

  it('refuses to say while smsq never answered the words, asking again each time', async () => {
    const sut = new ReplyKeywords(smsqAnswering({ kind: 'refused', status: 500, reason: 'internal_error' }), recordingLog().log);

    await expect(sut.current()).rejects.toThrow("the client's own reply keywords are not known yet");
    await expect(sut.current()).rejects.toThrow("the client's own reply keywords are not known yet");
  });
});
