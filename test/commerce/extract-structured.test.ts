// The structured-data readers of /extract (tools/commercial/extract/microdata.ts, rdfa.ts, jsonld.ts) on the
// cases of their algorithms: microdata's crawl (itemref, nested items not descended into, the value of each
// element), RDFa's walk (literals that do not stop it, rel waiting for an item, CURIEs, the page's own subject).
import { describe, expect, it } from 'vitest';
import { readPage } from '../../tools/commercial/extract/structured.js';
import { isThing, type Thing } from '../../tools/commercial/extract/things.js';

type Plain = { types: string[]; id?: string; [prop: string]: unknown };
const plain = (t: Thing): Plain => ({
  types: t.types,
  ...(t.id ? { id: t.id } : {}),
  ...Object.fromEntries([...t.props].map(([k, vs]) => [k, vs.map((v) => (isThing(v) ? plain(v) : v))])),
});
const things = (body: string, url = 'https://shop.example/p/1') => readPage(`<!doctype html><html><head><title>t</title></head><body>${body}</body></html>`, url).things.map(plain);

describe('microdata', () => {
  it('crawls an item’s properties, itemref included, without descending into nested items', () => {
    const got = things(`
      <div itemscope itemtype="https://schema.org/Person" itemref="extra" itemid="/people/jane">
        <span itemprop="name">Jane Doe</span>
        <div itemprop="worksFor" itemscope itemtype="https://schema.org/Organization"><span itemprop="name">Acme</span></div>
      </div>
      <p id="extra"><span itemprop="jobTitle">Professor</span></p>`);
    expect(got).toEqual([
      { types: ['Person'], id: 'https://shop.example/people/jane', name: ['Jane Doe'], worksFor: [{ types: ['Organization'], name: ['Acme'] }], jobTitle: ['Professor'] },
    ]);
  });

  it('reads each element’s value as the standard says, URLs resolved against the page (or its <base>)', () => {
    const [t] = things(`
      <base href="https://cdn.example/assets/">
      <div itemscope itemtype="http://schema.org/Product">
        <meta itemprop="sku" content="TR2">
        <a itemprop="url" href="../p/1">Trail Runner</a>
        <img itemprop="image" src="tr2.jpg" alt="">
        <time itemprop="releaseDate" datetime="2026-03-01">March</time>
        <data itemprop="weight" value="280">280 g</data>
        <span itemprop="price" content="119.99">$119.99</span>
        <span itemprop="description https://schema.org/disambiguatingDescription">  A light
          shoe  </span>
      </div>`);
    expect(t).toEqual({
      types: ['Product'],
      sku: ['TR2'],
      url: ['https://cdn.example/p/1'],
      image: ['https://cdn.example/assets/tr2.jpg'],
      releaseDate: ['2026-03-01'],
      weight: ['280'],
      price: ['119.99'],
      description: ['A light shoe'],
      disambiguatingDescription: ['A light shoe'],
    });
  });

  it('stops at an item that is its own property through itemref', () => {
    const got = things(`<div id="loop" itemscope itemtype="https://schema.org/Thing" itemref="loop"><span itemprop="name">x</span></div>`);
    expect(got).toEqual([{ types: ['Thing'], name: ['x'] }]);
  });
});

describe('RDFa', () => {
  it('links typed items by property, reads content, href and datetime, and keeps walking inside literals', () => {
    const got = things(`
      <div vocab="https://schema.org/" typeof="Event" resource="#jazz">
        <h1 property="name">Jazz <span property="alternateName">Night</span></h1>
        <time property="startDate" datetime="2026-07-04">4 July</time>
        <a property="url" href="/events/jazz">tickets</a>
        <span property="price" content="12.00" datatype="xsd:decimal">£12</span>
        <div property="location" typeof="Place"><span property="name">Quay Hall</span></div>
      </div>`);
    expect(got).toEqual([
      {
        types: ['Event'],
        id: 'https://shop.example/p/1#jazz',
        name: ['Jazz Night'],
        alternateName: ['Night'],
        startDate: ['2026-07-04'],
        url: ['https://shop.example/events/jazz'],
        price: ['12.00'],
        location: [{ types: ['Place'], name: ['Quay Hall'] }],
      },
    ]);
  });

  it('completes a rel with the item below it, reads CURIEs and full URLs as local names', () => {
    const got = things(`
      <div vocab="https://schema.org/" prefix="dc: http://purl.org/dc/terms/" typeof="Course">
        <span property="dc:title">Physics</span>
        <div rel="hasCourseInstance"><p typeof="CourseInstance"><span property="https://schema.org/courseMode">online</span></p></div>
        <a rel="provider" href="https://uni.example/">University</a>
      </div>`);
    expect(got).toEqual([{ types: ['Course'], title: ['Physics'], hasCourseInstance: [{ types: ['CourseInstance'], courseMode: ['online'] }], provider: ['https://uni.example/'] }]);
  });

  it('gives properties outside any item under a vocab to the page itself, and leaves OpenGraph to OpenGraph', () => {
    const page = readPage(`<!doctype html><html><head><meta property="og:title" content="OG title"></head><body><div vocab="https://schema.org/"><h1 property="name">The page</h1></div></body></html>`);
    expect(page.things.map(plain)).toEqual([{ types: [], name: ['The page'] }]);
    expect(page.candidates.find((c) => c.source === 'opengraph')).toEqual({ path: ['title'], value: 'OG title', source: 'opengraph' });
  });
});

describe('JSON-LD', () => {
  it('reads a @graph, local names, @value and bare @id references', () => {
    const got = things(`<script type="application/ld+json">{"@context": "https://schema.org", "@graph": [
      {"@type": "Book", "@id": "#b", "schema:name": {"@value": "Dune", "@language": "en"}, "author": {"@id": "https://viaf.example/1"}},
      {"@type": ["Person"], "name": "Frank Herbert"}]}</script>`);
    expect(got).toEqual([
      { types: ['Book'], id: 'https://shop.example/p/1#b', name: ['Dune'], author: ['https://viaf.example/1'] },
      { types: ['Person'], name: ['Frank Herbert'] },
    ]);
  });
});
