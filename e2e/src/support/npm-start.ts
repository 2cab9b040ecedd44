import { freePort, TEST_SERVER_URL } from '@smsq/testing';

/**
 * The environment `npm start` runs with in a test: this machine's servers under a database and
 * broker namespace of its own, every port free, no demo; the log settings as a person's terminal has them.
 */
export async function npmStartEnv(databaseName: string, namespace: string, overrides: Record<string, string> = {}): Promise<Record<string, string>> {
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    SMSQ_PROFILE: 'A',
    SMSQ_DEMO: 'false',
    SMSQ_NAMESPACE: namespace,
    DATABASE_URL: `${TEST_SERVER_URL}/${databaseName}`,
    PORT: String(await freePort()),
    DASHBOARD_PORT: String(await freePort()),
    BILLING_PORT: String(await freePort()),
    DISPATCH_PORT: String(await freePort()),
    INBOX_PORT: String(await freePort()),
    SMPP_HTTP_PORT: String(await freePort()),
    SMSQ_SMPP_PORT: String(await freePort()),
    NX_DAEMON: 'false',
    ...overrides,
  };
  delete env['SMSQ_LOG_LEVEL'];
  delete env['SMSQ_LOG_FORMAT'];
  return env;
}
