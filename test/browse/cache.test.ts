// The byte-bounded LRU (src/byte-lru.ts) behind the browse and blob caches, and the robots.txt product token.
import { describe, expect, it } from 'vitest';
import { ByteLru } from '../../src/byte-lru.js';
import { robotsToken } from '../../tools/browse/robots.js';

describe('ByteLru', () => {
  it('evicts the least recently used entries beyond its byte bound', () => {
    const lru = new ByteLru<string>(100);
    lru.set('a', 'A', 40);
    lru.set('b', 'B', 40);
    expect(lru.get('a')).toBe('A'); // a is now the younger
    lru.set('c', 'C', 40);
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('a')).toBe('A');
    expect(lru.get('c')).toBe('C');
  });

  it('re-counts a replaced entry and skips one larger than the whole cache', () => {
    const lru = new ByteLru<string>(100);
    lru.set('a', 'A', 90);
    lru.set('a', 'A2', 10);
    lru.set('b', 'B', 90);
    expect(lru.get('a')).toBe('A2');
    lru.set('huge', 'H', 101);
    expect(lru.get('huge')).toBeUndefined();
    expect(lru.get('b')).toBe('B');
  });

  it('keeps nothing when its bound is 0', () => {
    const lru = new ByteLru<string>(0);
    lru.set('a', 'A', 1);
    expect(lru.get('a')).toBeUndefined();
  });
});

describe('robotsToken', () => {
  it('is the product name of the User-Agent', () => {
    expect(robotsToken('AgentGateway/1.6 (+https://github.com/agent-gateway)')).toBe('AgentGateway');
    expect(robotsToken('Plain')).toBe('Plain');
  });
});
