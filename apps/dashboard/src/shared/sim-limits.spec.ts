import { MAX_SIM_LIMIT } from '@smsq/contracts';
import { MAX_SIM_LIMIT as MAX_SIM_LIMIT_OF_THE_BROWSER } from '@smsq/dashboard-api';
import { describe, expect, it } from 'vitest';

describe('SIM limits', () => {
  // The browser's bundle keeps its own copy (it does not load the contracts' validators): they must agree.
  it('are bounded alike in the browser and on the server', () => {
    expect(MAX_SIM_LIMIT_OF_THE_BROWSER).toBe(MAX_SIM_LIMIT);
  });
});
