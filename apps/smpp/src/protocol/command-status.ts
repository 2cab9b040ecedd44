/** SMPP 3.4 command_status values that smsq sends or expects (section 5.1.3). */
export const CommandStatus = {
  ESME_ROK: 0x00,
  ESME_RINVMSGLEN: 0x01,
  ESME_RINVCMDLEN: 0x02,
  ESME_RINVCMDID: 0x03,
  ESME_RINVBNDSTS: 0x04,
  ESME_RALYBND: 0x05,
  ESME_RSYSERR: 0x08,
  ESME_RINVSRCADR: 0x0a,
  ESME_RINVDSTADR: 0x0b,
  ESME_RINVMSGID: 0x0c,
  ESME_RBINDFAIL: 0x0d,
  ESME_RINVPASWD: 0x0e,
  ESME_RINVSYSID: 0x0f,
  ESME_RCANCELFAIL: 0x11,
  ESME_RMSGQFUL: 0x14,
  ESME_RINVESMCLASS: 0x43,
  ESME_RSUBMITFAIL: 0x45,
  ESME_RINVSRCTON: 0x48,
  ESME_RINVDSTTON: 0x50,
  ESME_RTHROTTLED: 0x58,
  ESME_RINVSCHED: 0x61,
  ESME_RINVEXPIRY: 0x62,
  ESME_RQUERYFAIL: 0x67,
  ESME_RINVOPTPARSTREAM: 0xc0,
  ESME_ROPTPARNOTALLWD: 0xc1,
  ESME_RINVPARLEN: 0xc2,
  ESME_RMISSINGOPTPARAM: 0xc3,
  ESME_RINVOPTPARAMVAL: 0xc4,
  ESME_RDELIVERYFAILURE: 0xfe,
  ESME_RUNKNOWNERR: 0xff,
} as const;

export type CommandStatusName = keyof typeof CommandStatus;

const namesByStatus = new Map<number, CommandStatusName>(Object.entries(CommandStatus).map(([name, status]) => [status, name as CommandStatusName]));

/** The status's name for logs and metric labels; a status smsq does not know is shown in hex. */
export function commandStatusName(status: number): string {
  return namesByStatus.get(status) ?? `0x${status.toString(16).padStart(8, '0')}`;
}
