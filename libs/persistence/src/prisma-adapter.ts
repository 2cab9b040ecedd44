import { PrismaPg } from '@prisma/adapter-pg';

export interface PgAdapterOptions {
  /** Upper bound of the adapter's connection pool. */
  maxConnections?: number;
  /** Shown in pg_stat_activity, so a connection can be traced to its service. */
  applicationName?: string;
}

/**
 * The driver adapter a Prisma 7 client talks to Postgres through. Its sessions run in UTC: the
 * adapter writes a DateTime as a UTC wall-clock time without offset and reads a timestamptz as if
 * its offset were +00:00, so on a server whose default time zone is another, every stored instant
 * would be shifted against `now()` (a task due at 10:00 UTC would come due at 10:00 local time).
 */
export function createPgAdapter(databaseUrl: string, options: PgAdapterOptions = {}): PrismaPg {
  return new PrismaPg({
    connectionString: databaseUrl,
    max: options.maxConnections,
    application_name: options.applicationName,
    options: '-c TimeZone=UTC',
  });
}
