import { readJsonFile, writePrivateJson } from '../../state/private-file.js';

interface ReplyCursorState {
  /** The highest inbox `_id` smsq has stored. */
  lastInboxId: number;
}

/** Where the reply watch resumes after a restart: a small JSON file, readable by its owner only, replaced whole (state/private-file.ts). */
export class ReplyCursorFile {
  constructor(private readonly path: string) {}

  /** The last inbox id handed over; undefined when there is no state file yet. Throws when it is unreadable. */
  read(): number | undefined {
    const state = readJsonFile(this.path) as Partial<ReplyCursorState> | null | undefined;
    if (state === undefined) return undefined;
    if (typeof state?.lastInboxId !== 'number' || !Number.isInteger(state.lastInboxId)) throw new Error(`${this.path} holds no lastInboxId`);
    return state.lastInboxId;
  }

  /** Replaces the file whole, so a crash leaves the old cursor or the new one. */
  write(lastInboxId: number): void {
    const state: ReplyCursorState = { lastInboxId };
    writePrivateJson(this.path, state);
  }
}
