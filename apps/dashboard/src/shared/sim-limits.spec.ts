import * as contracts from '@smsq/contracts';
import * as browser from '@smsq/dashboard-api';
import { describe, expect, it } from 'vitest';

describe('SIM limits and sending rules', () => {
  // The browser's bundle keeps its own copy (it does not load the contracts' validators): they must agree.
  it('are bounded alike in the browser and on the server', () => {
    expect(browser.MAX_SIM_LIMIT).toBe(contracts.MAX_SIM_LIMIT);
    expect(browser.MAX_JITTER_S).toBe(contracts.MAX_JITTER_S);
    expect(browser.MAX_SIMS).toBe(contracts.MAX_SIMS);
    expect(browser.MAX_STICKY_DAYS).toBe(contracts.MAX_STICKY_DAYS);
    expect(browser.DEFAULT_STICKY_DAYS).toBe(contracts.DEFAULT_STICKY_DAYS);
    expect(browser.MAX_SEND_WINDOWS).toBe(contracts.MAX_SEND_WINDOWS);
    expect(browser.ROUTING_MODES).toEqual(contracts.ROUTING_MODES);
    expect(browser.WEEKDAYS).toEqual(contracts.WEEKDAYS);
  });
});
