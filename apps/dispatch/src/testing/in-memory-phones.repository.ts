import type { PrismaTransaction } from '../database/db-transaction.js';
import type { Phone, PhoneKind } from '../generated/prisma/client.js';
import type { NewPhone, PhoneCounts, PhonesRepository, PhoneTransition, ReportedHealth, SimLimits } from '../phones/phones.repository.js';
import { FakeTransactions } from './fake-transaction.js';
import type { PublicOf } from './stand-in.js';
import type { InMemoryStore } from './in-memory-store.js';

export class InMemoryPhonesRepository implements PublicOf<PhonesRepository> {
  private readonly transactions: FakeTransactions;

  constructor(private readonly store: InMemoryStore) {
    this.transactions = new FakeTransactions(store);
  }

  underClientLock<T>(clientId: number, work: (tx: PrismaTransaction) => Promise<T>): Promise<T> {
    return this.transactions.run(`client:${clientId}`, work);
  }

  async findById(id: number): Promise<Phone | null> {
    return this.store.phones.find((phone) => phone.id === id) ?? null;
  }

  async findOwnByDevice(clientId: number, deviceId: string): Promise<Phone | null> {
    return this.store.phones.find((phone) => phone.kind === 'own' && phone.clientId === clientId && phone.deviceId === deviceId) ?? null;
  }

  async countOwn(clientId: number): Promise<number> {
    return this.store.phones.filter((phone) => phone.kind === 'own' && phone.clientId === clientId).length;
  }

  async paired(id: number, url: string | undefined): Promise<Phone> {
    const phone = this.store.phone(id);
    phone.lastContactAt = new Date();
    if (url !== undefined) phone.url = url;
    return phone;
  }

  async setLimits(id: number, kind: PhoneKind, limits: SimLimits, clientId?: number): Promise<Phone | null> {
    const phone = this.store.phones.find((candidate) => candidate.id === id && candidate.kind === kind && ofClient(candidate, clientId));
    if (phone) for (const [field, value] of Object.entries(limits)) if (value !== undefined) Object.assign(phone, { [field]: value });
    return phone ?? null;
  }

  /** The fakes have no clock of contact: no phone ever changes state here. */
  async transitions<T>(work: (changes: { silent: PhoneTransition[]; back: PhoneTransition[] }, tx: PrismaTransaction) => Promise<T>): Promise<T> {
    return this.transactions.run('transitions', (tx: PrismaTransaction) => work({ silent: [], back: [] }, tx));
  }

  async findMany(ids: readonly number[]): Promise<Phone[]> {
    return this.store.phones.filter((phone) => ids.includes(phone.id)).sort((a, b) => a.id - b.id);
  }

  async insert(phone: NewPhone): Promise<Phone> {
    return this.store.addPhone(phone);
  }

  async hasDueTasks(phoneId: number): Promise<boolean> {
    const now = Date.now();
    return this.store.tasks.some((task) => task.phoneId === phoneId && task.status === 'pending' && task.scheduledAt.getTime() <= now);
  }

  async setActive(id: number, kind: PhoneKind, active: boolean, clientId?: number): Promise<boolean> {
    const phone = this.store.phones.find((candidate) => candidate.id === id && candidate.kind === kind && ofClient(candidate, clientId));
    if (phone) phone.active = active;
    return phone !== undefined;
  }

  async rename(id: number, name: string, clientId?: number): Promise<Phone | null> {
    const phone = this.store.phones.find((candidate) => candidate.id === id && ofClient(candidate, clientId));
    if (phone) phone.name = name;
    return phone ?? null;
  }

  async setNumber(id: number, kind: PhoneKind, number: string | null, clientId?: number): Promise<Phone | null> {
    const phone = this.store.phones.find((candidate) => candidate.id === id && candidate.kind === kind && ofClient(candidate, clientId));
    if (phone) phone.number = number;
    return phone ?? null;
  }

  async recordHealth(id: number, kind: PhoneKind, health: ReportedHealth): Promise<boolean> {
    const phone = this.store.phones.find((candidate) => candidate.id === id && candidate.kind === kind);
    if (phone) Object.assign(phone, health, { healthReportedAt: this.store.now() });
    return phone !== undefined;
  }

  async list(filter: { clientId?: number; kind?: PhoneKind }): Promise<Phone[]> {
    return this.store.phones.filter((phone) => ofClient(phone, filter.clientId) && (!filter.kind || phone.kind === filter.kind)).sort((a, b) => a.id - b.id);
  }

  /** Pauses are kept by the SQL repository alone (integration specs): the fakes' phones are never paused. */
  async pause(): Promise<null> {
    return null;
  }

  async resumeEnded(): Promise<[]> {
    return [];
  }

  async resume(): Promise<null> {
    return null;
  }

  inTransaction<T>(work: (tx: never) => Promise<T>): Promise<T> {
    return work(undefined as never);
  }

  async countsOf(phoneIds: readonly number[]): Promise<Map<number, PhoneCounts>> {
    const now = new Date();
    const since = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    const counts = new Map(phoneIds.map((id) => [id, { sentToday: 0, waitingTasks: 0, partsToday: 0, recipientsThisMonth: 0 }]));
    for (const task of this.store.tasks) {
      const count = counts.get(task.phoneId);
      if (!count) continue;
      if (task.sentAt && task.sentAt >= since) {
        count.sentToday++;
        count.partsToday += task.parts;
      }
      if (task.status === 'pending' && task.scheduledAt <= now) count.waitingTasks++;
    }
    return counts;
  }
}

function ofClient(phone: Phone, clientId: number | undefined): boolean {
  return clientId === undefined || phone.clientId === clientId;
}
