import { metricsOf } from '@smsq/platform';
import { Counter, Gauge } from 'prom-client';

const registers = [metricsOf('smpp').registry];

export const bindsOpen = new Gauge({ name: 'smsq_smpp_binds', help: 'SMPP binds open on this replica, by bind type (transmitter, receiver, transceiver)', labelNames: ['type'] as const, registers });

export const pdusReceived = new Counter({
  name: 'smsq_smpp_pdus_total',
  help: 'SMPP requests received, by command and the command_status answered (ESME_ROK, ESME_RTHROTTLED…)',
  labelNames: ['command', 'status'] as const,
  registers,
});

export const deliveriesSent = new Counter({
  name: 'smsq_smpp_deliveries_total',
  help: 'deliver_sm sent to receiver binds, by kind (receipt, reply) and outcome (ok: answered ESME_ROK; refused; no_answer)',
  labelNames: ['kind', 'outcome'] as const,
  registers,
});

export const receiptsWaiting = new Gauge({ name: 'smsq_smpp_receipts_waiting', help: 'Delivery receipts kept for a receiver bind that has not taken them yet (all replicas)', registers });
