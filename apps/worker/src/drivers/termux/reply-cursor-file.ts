import { isInteger, objectParser, StateFile } from '../../state/state-file.js';

interface ReplyCursorState {
  /** The highest inbox `_id` smsq has stored. */
  lastInboxId: number;
}

/** Where the reply watch resumes after a restart: a small private JSON file, replaced whole (state/state-file.ts). */
export class ReplyCursorFile {
  private readonly file: StateFile<ReplyCursorState>;

  constructor(path: string) {
    this.file = new StateFile(path, objectParser<ReplyCursorState>({ lastInboxId: isInteger }), 'a termux reply cursor (no lastInboxId)');
  }

  /** The last inbox id handed over; undefined when there is no state file yet. Throws when it is unreadable. */
  read(): number | undefined {
    return this.file.read()?.lastInboxId;
  }

  /** Replaces the file whole, so a crash leaves the old cursor or the new one. */
  write(lastInboxId: number): void {
    this.file.write({ lastInboxId });
  }
}
