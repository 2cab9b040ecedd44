import { countSegments } from '@smsq/contracts';
import { PassphraseKeyring } from '@smsq/message-crypto';
import { median } from './failover-scenario.js';

export interface SealedSettings {
  /** Sealed messages a worker opens in a round, after its first. */
  messages: number;
  rounds: number;
}

export interface SealedResult {
  messages: number;
  /** Each round's first open (the key derived, then the message opened), ms. */
  firstOpenMs: number[];
  /** Each round's mean per message after the first, ms. */
  perMessageMs: number[];
  /** The medians over the rounds, and the median of (per message / first open): the baseline is the derivation of the same run. */
  medianFirstOpenMs: number;
  medianPerMessageMs: number;
  ratio: number;
}

const round2 = (value: number) => Math.round(value * 100) / 100;
const round4 = (value: number) => Math.round(value * 10_000) / 10_000;

/**
 * Scenario 7: what the worker does with each encrypted task before its phone sends it, opening the
 * sealed text and counting its parts, as a worker that just started: one keyring for the run, whose
 * first message derives the key (PBKDF2, on purpose slow) and whose others only decrypt. The
 * messages are sealed beforehand, by a sender's keyring of the same passphrase, untimed.
 */
export async function sealedScenario(settings: SealedSettings, log: (line: string) => void): Promise<SealedResult> {
  const firstOpenMs: number[] = [];
  const perMessageMs: number[] = [];
  for (let round = 0; round < settings.rounds; round++) {
    const passphrase = `bench passphrase ${round} ${Math.random()}`;
    const sender = new PassphraseKeyring(passphrase);
    const texts = Array.from({ length: settings.messages + 1 }, (_, index) => `Your code is ${100_000 + index}; it is valid for 10 minutes. Ref ${round}-${index}`);
    const sealed = await Promise.all(texts.map((text) => sender.seal(text)));
    const worker = new PassphraseKeyring(passphrase);

    let startedAt = performance.now();
    countSegments(await worker.open(sealed[0]!));
    firstOpenMs.push(performance.now() - startedAt);
    startedAt = performance.now();
    for (const message of sealed.slice(1)) countSegments(await worker.open(message));
    perMessageMs.push((performance.now() - startedAt) / settings.messages);
    log(`sealed: round ${round + 1}: first open ${round2(firstOpenMs.at(-1)!)} ms, then ${round4(perMessageMs.at(-1)!)} ms a message over ${settings.messages}`);
  }
  const medianFirstOpenMs = median(firstOpenMs);
  const medianPerMessageMs = median(perMessageMs);
  return {
    messages: settings.messages,
    firstOpenMs: firstOpenMs.map(round2),
    perMessageMs: perMessageMs.map(round4),
    medianFirstOpenMs: round2(medianFirstOpenMs),
    medianPerMessageMs: round4(medianPerMessageMs),
    ratio: round4(median(perMessageMs.map((perMessage, index) => perMessage / firstOpenMs[index]!))),
  };
}
