import { Injectable } from '@nestjs/common';
import type { PhoneState } from '@smsq/contracts';
import { DispatchConfig } from '../config/dispatch-config.js';
import { Prisma } from '../generated/prisma/client.js';

/**
 * What makes a phone usable, as conditions on a `dispatch.phones` row under `alias`, in one place
 * for routing, claims, failover and the views: in contact within the silent window, not paused by
 * the carrier's word, and not yet at its daily limit.
 */
@Injectable()
export class PhoneConditions {
  private readonly silentS: number;
  private readonly defaultTimeZone: string;

  constructor(config: DispatchConfig) {
    this.silentS = config.phoneSilentS;
    this.defaultTimeZone = config.timeZone;
  }

  /** Its last contact is within the silent window; says nothing of whether it is enabled. */
  inContact(alias: string): Prisma.Sql {
    return Prisma.sql`${column(alias, 'last_contact_at')} > now() - ${this.silentS}::int * interval '1 second'`;
  }

  /** Today in the phone's owner's zone: the day its daily limit counts. */
  localToday(alias: string): Prisma.Sql {
    return Prisma.sql`(now() AT TIME ZONE COALESCE(${column(alias, 'time_zone')}, ${this.defaultTimeZone}))::date`;
  }

  /** This calendar month in the phone's owner's zone, as its first day: the month its recipient cap counts. */
  localMonth(alias: string): Prisma.Sql {
    return Prisma.sql`date_trunc('month', now() AT TIME ZONE COALESCE(${column(alias, 'time_zone')}, ${this.defaultTimeZone}))::date`;
  }

  /** Paused on the carrier's word, and the pause not over yet. */
  isPaused(alias: string): Prisma.Sql {
    return Prisma.sql`(${column(alias, 'paused_until')} IS NOT NULL AND ${column(alias, 'paused_until')} > now())`;
  }

  /** It has been handed as many SMS parts today as its daily limit allows (a limit of 0: none at all). */
  dayIsFull(alias: string): Prisma.Sql {
    return Prisma.sql`(${column(alias, 'daily_limit')} IS NOT NULL
      AND ${column(alias, 'daily_limit')} <= CASE WHEN ${column(alias, 'day_of')} = ${this.localToday(alias)} THEN ${column(alias, 'day_sends')} ELSE 0 END)`;
  }

  /** Enabled, in contact, not paused and with room left today: where routing and failover send tasks first. */
  usable(alias: string): Prisma.Sql {
    return Prisma.sql`(${column(alias, 'active')} AND ${this.inContact(alias)} AND NOT ${this.dayIsFull(alias)} AND NOT ${this.isPaused(alias)})`;
  }

  /** The parts it may still be handed today; null without a daily limit. */
  roomToday(alias: string): Prisma.Sql {
    return Prisma.sql`GREATEST(${column(alias, 'daily_limit')} - CASE WHEN ${column(alias, 'day_of')} = ${this.localToday(alias)} THEN ${column(alias, 'day_sends')} ELSE 0 END, 0)`;
  }

  /** The state a phone is in at `now` (DESIGN §3): never online while disabled. */
  stateOf(phone: { active: boolean; lastContactAt: Date }, now = new Date()): PhoneState {
    if (!phone.active) return 'disabled';
    return now.getTime() - phone.lastContactAt.getTime() < this.silentS * 1000 ? 'online' : 'silent';
  }
}

function column(alias: string, name: string): Prisma.Sql {
  return Prisma.raw(`${alias}.${name}`);
}
