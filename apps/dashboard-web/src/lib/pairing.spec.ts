import { describe, expect, it } from 'vitest';
import { pairCommand, runCommand, shellWord } from './pairing';

const QR_TEXT = JSON.stringify({ base_url: 'http://192.168.1.10:3000', api_key: 'smsq_key_abc' });

describe('shellWord', () => {
  it('leaves a plain word bare and quotes anything a shell would read', () => {
    expect(shellWord('http://192.168.1.20:8080')).toBe('http://192.168.1.20:8080');
    expect(shellWord('My phone')).toBe("'My phone'");
    expect(shellWord('http://<phone-ip>:8080')).toBe("'http://<phone-ip>:8080'");
    expect(shellWord(`Ana's phone; rm -rf ~ $(id)`)).toBe(`'Ana'\\''s phone; rm -rf ~ $(id)'`);
    expect(shellWord('')).toBe("''");
  });
});

describe('pairCommand', () => {
  it('gives the SMSGate pair command with the QR text, the phone’s address and its name', () => {
    expect(pairCommand({ qrText: QR_TEXT, driver: 'smsgate', gatewayUrl: ' http://192.168.1.20:8080 ', name: 'Kitchen' })).toBe(
      `node smsq-worker.mjs pair '{"base_url":"http://192.168.1.10:3000","api_key":"smsq_key_abc"}' --driver smsgate --gateway-url http://192.168.1.20:8080 --name Kitchen`,
    );
  });

  it('puts placeholders where the page does not know the address or the name', () => {
    expect(pairCommand({ qrText: QR_TEXT, driver: 'smsgate' })).toContain(`--gateway-url 'http://<phone-ip>:8080' --name 'My phone'`);
  });

  it('gives the Termux pair command without a gateway address', () => {
    expect(pairCommand({ qrText: QR_TEXT, driver: 'termux', gatewayUrl: 'http://ignored', name: 'Old Nokia' })).toBe(
      `node smsq-worker.mjs pair '{"base_url":"http://192.168.1.10:3000","api_key":"smsq_key_abc"}' --driver termux --name 'Old Nokia'`,
    );
  });
});

describe('runCommand', () => {
  it('keeps SMSGate’s user and password in the worker’s environment', () => {
    expect(runCommand('smsgate')).toBe(`SMSGATE_USER='<user>' SMSGATE_PASSWORD='<password>' node smsq-worker.mjs run`);
    expect(runCommand('termux')).toBe('node smsq-worker.mjs run');
  });
});
