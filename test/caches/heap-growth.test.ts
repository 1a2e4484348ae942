// GATEWAY_HEAP_GROWTH_PERCENT sets how far V8 lets a heap grow past what was live before collecting again (V8's own
// flag, for every thread of the process), when a gateway starts; 0 leaves V8's choice alone.
import v8 from 'node:v8';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startGateway } from '../helpers/gateway.js';

afterEach(() => vi.restoreAllMocks());

describe('heap growth', () => {
  it('sets V8 heap growing to the configured percent when the gateway starts', async () => {
    const flags = vi.spyOn(v8, 'setFlagsFromString').mockImplementation(() => undefined);
    const gw = await startGateway({ env: { GATEWAY_HEAP_GROWTH_PERCENT: '150' } });
    try {
      expect(flags).toHaveBeenCalledWith('--heap-growing-percent=150');
    } finally {
      await gw.cleanup();
    }
  });

  it('leaves V8 to choose with 0', async () => {
    const flags = vi.spyOn(v8, 'setFlagsFromString').mockImplementation(() => undefined);
    const gw = await startGateway({ env: { GATEWAY_HEAP_GROWTH_PERCENT: '0' } });
    try {
      expect(flags).not.toHaveBeenCalledWith(expect.stringContaining('heap-growing'));
    } finally {
      await gw.cleanup();
    }
  });
});
