import { Injectable } from '@nestjs/common';
import type { ReplyOwner, ReplyOwnerQuery } from '@smsq/contracts';
import { DispatchConfig } from '../config/dispatch-config.js';
import { isStoredId } from '../database/stored-id.js';
import { RepliesRepository } from './replies.repository.js';

/**
 * Whose inbox a reply lands in (DESIGN §3 inbound): the owner of the phone that received it
 * (Profile A), or the client whose task last went from that gateway to that number (Profile B).
 */
@Injectable()
export class ReplyOwnerService {
  constructor(
    private readonly config: DispatchConfig,
    private readonly replies: RepliesRepository,
  ) {}

  async ownerOf(query: ReplyOwnerQuery): Promise<ReplyOwner> {
    const phoneId = query.phoneId ?? null;
    const nobody: ReplyOwner = { clientId: null, phoneId };
    // An id no row can have names nothing, here as everywhere.
    if (phoneId !== null && !isStoredId(phoneId)) return nobody;
    if (this.config.profile === 'A') {
      const clientId = phoneId === null ? null : await this.replies.ownerOfOwnPhone(phoneId);
      return { clientId, phoneId };
    }
    // A task that really went out explains a reply better than a newer one still waiting in the queue.
    const task = (await this.replies.latestTaskTo(query.from, phoneId, true)) ?? (await this.replies.latestTaskTo(query.from, phoneId, false));
    return task ?? nobody;
  }
}
