// A floor on the extraction's agreement with schema.org's own examples (bench/quality/extraction.ts, issue 43):
// the engines run directly (no HTTP) on every example's microdata and RDFa with a schema naming the JSON-LD
// version's properties, and must give the JSON-LD value for at least the measured share of them, less a small
// margin (docs/decisions/commercial-extract.md has the figures). The comparison's rules are held here too.
import { describe, expect, it } from 'vitest';
import { gives, loadCorpus, score, type Score } from '../../bench/quality/extraction.js';
import { ENGINES_ONLY_ONCE } from '../helpers/each-store.js';

/** Measured 2026-11-28: data/examples.txt microdata 273/291, RDFa 271/291; held out 529/664 and 529/640. */
const FLOORS = {
  examples: { microdata: 0.92, rdfa: 0.915, stated: 0.97 },
  others: { microdata: 0.78, rdfa: 0.81 },
};
const rate = (s: Score) => s.matched / s.properties;

// The engines alone, no store: run once, on the SQLite pass (CI runs the suite again on PostgreSQL).
describe.skipIf(ENGINES_ONLY_ONCE)('extraction on schema.org’s examples', () => {
  const examples = loadCorpus('examples');
  const others = loadCorpus('others');

  it('gives the JSON-LD value for the measured share of data/examples.txt’s properties, from microdata and from RDFa', () => {
    const microdata = score(examples, 'microdata');
    const rdfa = score(examples, 'rdfa');
    // Every example with markup is measured, and every schema built from the JSON-LD is accepted.
    expect(microdata.examples).toBe(60);
    expect(rdfa.examples).toBe(60);
    expect(microdata.refused).toEqual([]);
    expect(rdfa.refused).toEqual([]);
    expect(microdata.properties).toBe(291);
    expect(rate(microdata)).toBeGreaterThanOrEqual(FLOORS.examples.microdata);
    expect(rate(rdfa)).toBeGreaterThanOrEqual(FLOORS.examples.rdfa);
    // Where the markup states the JSON-LD value, nearly all of it is given.
    expect(microdata.statedMatched / microdata.stated).toBeGreaterThanOrEqual(FLOORS.examples.stated);
    expect(rdfa.statedMatched / rdfa.stated).toBeGreaterThanOrEqual(FLOORS.examples.stated);
  });

  it('holds on the other example files, kept out of the tuning', () => {
    const microdata = score(others, 'microdata');
    const rdfa = score(others, 'rdfa');
    expect(microdata.refused).toEqual([]);
    expect(rdfa.refused).toEqual([]);
    expect(rate(microdata)).toBeGreaterThanOrEqual(FLOORS.others.microdata);
    expect(rate(rdfa)).toBeGreaterThanOrEqual(FLOORS.others.rdfa);
  });
});

describe('what "gives the value" means', () => {
  it('collapses whitespace in texts, resolves URLs against the page and reads schema.org terms with or without their prefix', () => {
    expect(gives('20341 Whitworth Institute', ' 20341  Whitworth\n Institute ')).toBe(true);
    expect(gives('janedoe.jpg', 'https://example.org/schemaorg/examples/janedoe.jpg')).toBe(true);
    expect(gives('https://schema.org/InStock', 'http://schema.org/InStock')).toBe(true);
    expect(gives('InStock', 'https://schema.org/InStock')).toBe(true);
    expect(gives('Professor', 'professor')).toBe(false);
    expect(gives('Jane Doe', 'Jane Doe.')).toBe(false);
  });

  it('reads numbers and booleans as their texts, and nothing else', () => {
    expect(gives(4.5, '4.5')).toBe(true);
    expect(gives('140', 140)).toBe(true);
    expect(gives(1000, '1,000')).toBe(false);
    expect(gives(true, 'True')).toBe(true);
    expect(gives(true, 'https://schema.org/True')).toBe(true);
    expect(gives(3, null)).toBe(false);
  });

  it('compares objects property by property (@type too) and lists in any order, of the same length', () => {
    const address = { '@type': 'PostalAddress', addressLocality: 'Seattle', postalCode: '98052' };
    expect(gives(address, { '@type': 'PostalAddress', addressLocality: 'Seattle', postalCode: 98052 })).toBe(true);
    expect(gives(address, { '@type': null, addressLocality: 'Seattle', postalCode: '98052' })).toBe(false);
    expect(gives(address, 'Seattle 98052')).toBe(false);
    expect(gives(['a', 'b'], ['b', 'a'])).toBe(true);
    expect(gives(['a', 'b'], ['a'])).toBe(false);
    expect(gives(['a', 'a'], ['a', 'b'])).toBe(false);
    expect(gives('a', ['a'])).toBe(true);
    expect(gives(['a'], 'a')).toBe(true);
    // A text in a list of objects is the object's name.
    expect(gives(['Jane', { name: 'Bob' }], [{ name: 'Jane' }, { name: 'Bob' }])).toBe(true);
  });
});
