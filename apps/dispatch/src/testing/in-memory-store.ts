import type { Phone, Task } from '../generated/prisma/client.js';

/** The rows of the dispatch schema, in memory, shared by the fake repositories of one test. */
export class InMemoryStore {
  phones: Phone[] = [];
  tasks: Task[] = [];
  voidedKeys = new Set<string>();
  /** Phones routing should pass by as if silent or at their daily limit; every other active phone is usable. */
  silentPhoneIds = new Set<number>();
  private nextPhoneId = 1;
  private nextTaskId = 1;
  private clock = Date.parse('2026-01-01T00:00:00Z');

  addPhone(phone: Pick<Phone, 'kind'> & Partial<Phone>): Phone {
    const row: Phone = {
      id: this.nextPhoneId++,
      clientId: null,
      name: `phone ${this.nextPhoneId}`,
      url: null,
      deviceId: null,
      active: true,
      lastAssignedAt: null,
      lastSeenAt: null,
      createdAt: this.now(),
      batteryPercent: null,
      charging: null,
      connection: null,
      healthReportedAt: null,
      lastContactAt: new Date(),
      silentSince: null,
      dailyLimit: null,
      perMinute: null,
      timeZone: null,
      dayOf: null,
      daySends: 0,
      monthlyRecipients: null,
      jitter: null,
      sims: 1,
      pausedUntil: null,
      pauseReason: null,
      pauseStep: 0,
      pausedAt: null,
      number: null,
      ...phone,
    };
    this.phones.push(row);
    return row;
  }

  addTask(
    task: Omit<Task, 'id' | 'status' | 'attempts' | 'claimedByTokenId' | 'claimExpiresAt' | 'sentAt' | 'deliveredAt' | 'failedAt' | 'error' | 'expiresAt' | 'createdAt' | 'firstPhoneId' | 'pinned' | 'retryAfter' | 'highPriority' | 'receipts' | 'parts' | 'sim' | 'reroutedBecause' | 'encrypted' | 'partsKnown'> &
      Partial<Pick<Task, 'expiresAt' | 'pinned' | 'highPriority' | 'parts' | 'sim' | 'encrypted'>>,
  ): Task {
    const row: Task = {
      id: this.nextTaskId++,
      firstPhoneId: null,
      pinned: false,
      retryAfter: null,
      status: 'pending',
      attempts: 0,
      claimedByTokenId: null,
      claimExpiresAt: null,
      sentAt: null,
      deliveredAt: null,
      failedAt: null,
      error: null,
      createdAt: this.now(),
      highPriority: false,
      receipts: false,
      parts: 1,
      sim: null,
      reroutedBecause: null,
      encrypted: false,
      ...task,
      partsKnown: task.encrypted !== true,
      expiresAt: task.expiresAt ?? null,
    };
    this.tasks.push(row);
    return row;
  }

  phone(id: number): Phone {
    const phone = this.phones.find((candidate) => candidate.id === id);
    if (!phone) throw new Error(`no phone ${id} in the store`);
    return phone;
  }

  /** A strictly increasing clock, so assignment order is never a tie. */
  now(): Date {
    this.clock += 1_000;
    return new Date(this.clock);
  }

  /** What a rolled-back transaction restores. */
  snapshot(): () => void {
    const phones = this.phones.map((phone) => ({ ...phone }));
    const tasks = [...this.tasks];
    const voidedKeys = new Set(this.voidedKeys);
    return () => {
      this.phones = phones;
      this.tasks = tasks;
      this.voidedKeys = voidedKeys;
    };
  }
}
