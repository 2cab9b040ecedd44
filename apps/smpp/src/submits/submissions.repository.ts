import { Injectable } from '@nestjs/common';
import { SmppDatabase } from '../database/smpp-database.js';
import type { Submission } from '../generated/prisma/client.js';

/** What a submit_sm left for its task's receipts and queries. */
@Injectable()
export class SubmissionsRepository {
  constructor(private readonly db: SmppDatabase) {}

  /** Recorded after the task exists; a repeat (the same task again) keeps the first. */
  async record(submission: Omit<Submission, 'submittedAt' | 'finalEvent'>): Promise<void> {
    await this.db.submission.createMany({ data: [submission], skipDuplicates: true });
  }

  find(taskId: number): Promise<Submission | null> {
    return this.db.submission.findUnique({ where: { taskId } });
  }
}
