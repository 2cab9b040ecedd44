import { describe, expect, it } from 'vitest';
import { keywordIntent, OPT_IN_KEYWORDS, OPT_OUT_KEYWORDS, ownKeyword, ownKeywordsConflict } from './keywords.js';

const NONE = { optOutWords: [], optInWords: [] };

describe('opt-out keywords', () => {
  it('reads a reply whose whole text is a standard keyword, whatever its case and surrounding spaces', () => {
    for (const text of ['STOP', 'stop', ' Stop ', '\tSTOPALL\n', 'unsubscribe', 'Cancel', 'end', 'QUIT']) expect(keywordIntent(text, NONE), text).toBe('opt_out');
    for (const text of ['START', ' start', 'Unstop ']) expect(keywordIntent(text, NONE), text).toBe('opt_in');
  });

  it('ignores punctuation around the keyword, but not a keyword inside a sentence or with words around it', () => {
    for (const text of ['Stop.', 'STOP!', '"stop"', '¡STOP!', '...stop...', 'START!']) expect(keywordIntent(text, NONE), text).not.toBeNull();
    for (const text of ['STOP sending', 'please stop', "don't stop", 'STOP STOP', 'STOPP', 'S.T.O.P', 'stop-it', 'starting', '']) expect(keywordIntent(text, NONE), text).toBeNull();
  });

  it("counts the client's own words, in any script, besides the standard ones", () => {
    const own = { optOutWords: ['СТОП', 'ODJAVA'], optInWords: ['PRIJAVA'] };
    expect(keywordIntent('стоп', own)).toBe('opt_out');
    expect(keywordIntent(' Odjava! ', own)).toBe('opt_out');
    expect(keywordIntent('prijava', own)).toBe('opt_in');
    expect(keywordIntent('STOP', own)).toBe('opt_out');
    expect(keywordIntent('стоп', NONE)).toBeNull();
  });

  it('keeps an own word in the form replies are compared in, and refuses what is not one word', () => {
    expect(ownKeyword(' arrêt ')).toBe('ARRÊT');
    expect(ownKeyword('стоп!')).toBe('СТОП');
    expect(ownKeyword('no more')).toBeNull();
    expect(ownKeyword('!!')).toBeNull();
    expect(ownKeyword('x'.repeat(33))).toBeNull();
  });

  it('refuses own words that would both opt out and opt in, the standard words counted, naming the word', () => {
    for (const word of [...OPT_IN_KEYWORDS, 'start', ' Unstop! ']) expect(ownKeywordsConflict({ optOutWords: ['ODJAVA', word], optInWords: [] }), word).toMatch(/standard opt-in word/);
    for (const word of [...OPT_OUT_KEYWORDS, 'stop']) expect(ownKeywordsConflict({ optOutWords: [], optInWords: [word] }), word).toMatch(/standard opt-out word/);
    expect(ownKeywordsConflict({ optOutWords: ['START'], optInWords: [] })).toContain('START');
    expect(ownKeywordsConflict({ optOutWords: ['odjava'], optInWords: ['PRIJAVA', 'Odjava'] })).toContain('ODJAVA is in both');
    expect(ownKeywordsConflict({ optOutWords: ['ODJAVA', 'STOP'], optInWords: ['PRIJAVA', 'START'] })).toBeNull();
    expect(ownKeywordsConflict({ optOutWords: [], optInWords: [] })).toBeNull();
  });

  it('reads a standard keyword as its own kind even when own words saved before that rule say otherwise', () => {
    const wrong = { optOutWords: ['START'], optInWords: ['STOP'] };
    expect(keywordIntent('start', wrong)).toBe('opt_in');
    expect(keywordIntent('STOP', wrong)).toBe('opt_out');
  });
});
