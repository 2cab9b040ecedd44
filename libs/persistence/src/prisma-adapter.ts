import { PrismaPg } from '@prisma/adapter-pg';

export interface PgAdapterOptions {
  /** Upper bound of the adapter's connection pool. */
  maxConnections?: number;
  /** Shown in pg_stat_activity, so a connection can be traced to its service. */
  applicationName?: string;
}

/** The driver adapter a Prisma 7 client talks to Postgres through. */
export function createPgAdapter(databaseUrl: string, options: PgAdapterOptions = {}): PrismaPg {
  return new PrismaPg({
    connectionString: databaseUrl,
    max: options.maxConnections,
    application_name: options.applicationName,
  });
}
