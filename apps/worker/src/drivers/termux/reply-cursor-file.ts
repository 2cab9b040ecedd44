import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

interface ReplyCursorState {
  /** The highest inbox `_id` smsq has stored. */
  lastInboxId: number;
}

/** Where the reply watch resumes after a restart: a small JSON file, readable by its owner only. */
export class ReplyCursorFile {
  constructor(private readonly path: string) {}

  /** The last inbox id handed over; undefined when there is no state file yet. Throws when it is unreadable. */
  async read(): Promise<number | undefined> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    const state = JSON.parse(text) as Partial<ReplyCursorState>;
    if (typeof state.lastInboxId !== 'number' || !Number.isInteger(state.lastInboxId)) throw new Error(`${this.path} holds no lastInboxId`);
    return state.lastInboxId;
  }

  /** Replaces the file whole (write, then rename), so a crash leaves the old cursor or the new one. */
  async write(lastInboxId: number): Promise<void> {
    const state: ReplyCursorState = { lastInboxId };
    const temporary = `${this.path}.${process.pid}.tmp`;
    await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    // A leftover from a crash keeps its old mode, so it goes first.
    await rm(temporary, { force: true });
    await writeFile(temporary, `${JSON.stringify(state)}\n`, { mode: 0o600, flag: 'wx' });
    await rename(temporary, this.path);
  }
}
