import { PartsAssembler, type IncomingPart, type OpenMessageView, type PartOutcome } from '../protocol/index.js';

/** What a submit asks beyond its text, which the parts of one long message may each carry or not. */
export interface SubmitOptions {
  registeredDelivery: number;
  priorityFlag: number;
  scheduledAt: Date | undefined;
  validUntil: Date | undefined;
}

/**
 * The parts of long messages, joined, with what the message as a whole asks: clients set
 * registered_delivery on the first part only (Kannel does), so the options of all parts are
 * merged: a receipt or priority asked by any part, the times of the first part that gives them.
 */
export class LongSubmits {
  private readonly assembler: PartsAssembler;
  private readonly options = new Map<string, SubmitOptions>();

  constructor(timeoutMs: number) {
    this.assembler = new PartsAssembler({ timeoutMs, onExpired: (message: OpenMessageView) => this.options.delete(message.assemblyId) });
  }

  accept(part: IncomingPart, options: SubmitOptions): PartOutcome & { options: SubmitOptions } {
    const outcome = this.assembler.accept(part);
    const merged = merge(this.options.get(outcome.assemblyId), options);
    if (outcome.kind === 'complete') this.options.delete(outcome.assemblyId);
    else this.options.set(outcome.assemblyId, merged);
    return { ...outcome, options: merged };
  }

  resolve(assemblyId: string, taskId: string): void {
    this.assembler.resolve(assemblyId, taskId);
  }

  reject(assemblyId: string, error: Error): void {
    this.assembler.reject(assemblyId, error);
  }

  close(): void {
    this.assembler.close();
  }
}

function merge(earlier: SubmitOptions | undefined, part: SubmitOptions): SubmitOptions {
  if (!earlier) return part;
  return {
    registeredDelivery: earlier.registeredDelivery | part.registeredDelivery,
    priorityFlag: Math.max(earlier.priorityFlag, part.priorityFlag),
    scheduledAt: earlier.scheduledAt ?? part.scheduledAt,
    validUntil: earlier.validUntil ?? part.validUntil,
  };
}
