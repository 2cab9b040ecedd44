import type { ChaosReport, FaultFigure } from './chaos-run.js';

function latencyFigure(fault: FaultFigure): string {
  if (fault.createP50BackInMs === undefined) return '';
  return fault.createP50BackInMs === null ? ", create-task's median NOT back within 30 s" : `, create-task's median back to ${fault.createP50AfterMs} ms after ${(fault.createP50BackInMs / 1000).toFixed(1)} s`;
}

/** The run's figures as a person reads them. */
export function printFigures(report: ChaosReport): string {
  const answers = (kind: string) =>
    Object.entries(report.answers[kind] ?? {})
      .map(([status, count]) => `${status}: ${count}`)
      .join(', ');
  const lines = [
    `chaos run of ${report.startedAt}, ${report.durationS} s, ${report.clients} clients${report.replicas ? ', two of every service' : ''}`,
    ...Object.entries(report.requestsSent).map(([kind, count]) => `  ${kind}: ${count} sent (${answers(kind)})`),
    `  create-task requests (one Idempotency-Key each): ${report.creates.requested}, answered 201: ${report.creates.created}, given up: ${report.creates.gaveUp}, other final answer: ${report.creates.otherFinal}`,
    `  reports kept: ${report.reportsKept}, claims never reported: ${report.unreportedClaims}, inbound messages acknowledged: ${report.inboundAcknowledged}`,
    `  tasks at the end: ${Object.entries(report.tasks).map(([status, count]) => `${status} ${count}`).join(', ')}`,
    `  kills survived: ${report.kills}, restarts survived: ${report.restarts}, network faults healed without a restart: ${report.networkFaults}, phones hung: ${report.phoneFaults}`,
    `  the real workers' phones: ${Object.entries(report.phones.smsByPhone).map(([phoneId, sms]) => `phone ${phoneId} sent ${sms} SMS`).join(', ')}; tasks moved to another phone: ${report.phones.movedTasks}, sends left unknown (to the lease): ${report.phones.unknownOutcomes}`,
    `  create-task's median before the faults: ${report.quietCreateP50Ms ?? '-'} ms`,
    ...report.faults.map((fault) => `    ${fault.fault}: ${fault.recoveredInMs === null ? 'NOT ready again' : `ready again after ${(fault.recoveredInMs / 1000).toFixed(1)} s`}${latencyFigure(fault)}`),
    `  violations: ${report.violations.length}`,
    ...report.violations.map((violation) => `    [${violation.invariant}] client ${violation.clientId ?? '-'}: ${violation.detail.split('\n')[0]}`),
  ];
  return lines.join('\n');
}
