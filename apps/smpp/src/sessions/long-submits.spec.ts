import { describe, expect, it } from 'vitest';
import { LongSubmits, type SubmitOptions } from './long-submits.js';

const part = (seq: number, text: string) => ({ clientId: 1, sourceAddr: 'Shop', destinationAddr: '381641234567', reference: 7, total: 2, seq, dataCoding: 0, userData: Buffer.from(text, 'ascii') });
const plain: SubmitOptions = { registeredDelivery: 0, priorityFlag: 0, scheduledAt: undefined, validUntil: undefined };

describe(LongSubmits.name, () => {
  it("joins the parts with what any of them asked: Kannel's receipt on the first part counts for the whole message", async () => {
    const sut = new LongSubmits(60_000);
    const until = new Date('2026-12-01T10:00:00Z');
    const first = sut.accept(part(1, 'Hello, '), { ...plain, registeredDelivery: 1, validUntil: until });
    const last = sut.accept(part(2, 'world'), plain);

    expect(first.kind).toBe('waiting');
    expect(last).toMatchObject({ kind: 'complete', text: 'Hello, world', options: { registeredDelivery: 1, priorityFlag: 0, validUntil: until } });
    sut.resolve(last.assemblyId, '42');
    await expect(first.taskId).resolves.toBe('42');
    sut.close();
  });

  it('refuses every part of a message whose last part never comes', async () => {
    const sut = new LongSubmits(50);
    const first = sut.accept(part(1, 'alone'), plain);
    await expect(first.taskId).rejects.toMatchObject({ reason: 'incomplete' });
    sut.close();
  });
});
