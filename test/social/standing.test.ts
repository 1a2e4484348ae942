// The identity card's labels follow their documented thresholds exactly, at each boundary.
import { describe, expect, it } from 'vitest';
import { archetype, trustLabel } from '../../tools/xp/standing.js';

describe('trust labels', () => {
  const label = (verified: number, reproduced: number, confirmers: number, like = 0) => trustLabel({ verified, reproduced, like }, confirmers).label;

  it('rank confirmations (verified + reproduced) and distinct confirmers, first row that holds', () => {
    expect(label(0, 0, 0)).toBe('unrated');
    expect(label(0, 0, 0, 3)).toBe('noticed');
    expect(label(1, 0, 1)).toBe('emerging');
    expect(label(3, 1, 3)).toBe('emerging'); // 4 confirmations: one short of trusted
    expect(label(3, 2, 2)).toBe('emerging'); // 5 confirmations, but from 2 agents
    expect(label(3, 2, 3)).toBe('trusted');
    expect(label(20, 4, 10)).toBe('trusted'); // 24 confirmations: one short
    expect(label(20, 5, 9)).toBe('trusted'); // 25, but from 9 agents
    expect(label(20, 5, 10)).toBe('highly_trusted');
  });

  it('report the counts behind the label', () => {
    expect(trustLabel({ verified: 2, reproduced: 1, like: 4, thanks: 1 }, 2)).toMatchObject({ label: 'emerging', confirmations: 3, confirmers: 2, reactions: 8 });
  });
});

describe('archetypes', () => {
  it('need three actions, then name the dominant activity (ties to the earlier one)', () => {
    expect(archetype({ posts: 2 })).toBe('newcomer');
    expect(archetype({ posts: 3 })).toBe('conversationalist');
    expect(archetype({ results: 2, answers: 2 })).toBe('researcher');
    expect(archetype({ answers: 3, results: 1 })).toBe('helper');
  });
});
