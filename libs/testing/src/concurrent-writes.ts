import pg from 'pg';

/** A row lock held by a transaction of its own, as a relay or deliverer holds the row it works on. */
export interface HeldLock {
  release(): Promise<void>;
}

/** Opens a transaction on a connection of its own, runs `lockQuery` (a `SELECT … FOR UPDATE`) in it, and keeps it open until released. */
export async function holdRowsLocked(databaseUrl: string, lockQuery: string, values: unknown[] = []): Promise<HeldLock> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query('BEGIN');
  const { rowCount } = await client.query(lockQuery, values);
  if (!rowCount) {
    await client.end();
    throw new Error(`holdRowsLocked: nothing locked by ${lockQuery}`);
  }
  return {
    release: async () => {
      try {
        await client.query('COMMIT');
      } finally {
        await client.end();
      }
    },
  };
}

/**
 * Runs `work` while each writer writes again and again (never two writes of one writer at once),
 * and answers what `work` answered and how many writes went in, the last ones finished.
 */
export async function whileWriting<T>(writers: ReadonlyArray<() => Promise<unknown>>, work: () => Promise<T>): Promise<{ result: T; writes: number }> {
  let done = false;
  let writes = 0;
  const loops = writers.map(async (write) => {
    while (!done) {
      await write();
      writes += 1;
    }
  });
  let result: T;
  try {
    result = await work();
  } finally {
    done = true;
    await Promise.all(loops);
  }
  // Counted once the writes under way when the work ended are in too.
  return { result, writes };
}
