// The renderer in process: what a spec is read as, the SVG guard (nothing but the SVG text reaches resvg: no
// file, no URL, no entity, no embedded SVG, no oversized embedded image) and the size caps.
import { describe, expect, it } from 'vitest';
import { imageInfo } from '../../tools/gen-image/image-info.js';
import { checkSvg, readSpec, render, RenderError } from '../../tools/gen-image/render.js';
import { samplePng } from './helpers.js';

const svg = (body: string, attrs = '') =>
  `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="20" height="20"${attrs}>${body}</svg>`;
const png64 = (w: number, h: number) => samplePng(w, h).toString('base64');

const reasonOf = (f: () => void): string | undefined => {
  try {
    f();
    return undefined;
  } catch (err) {
    if (err instanceof RenderError) return err.reason;
    throw err;
  }
};

describe('readSpec', () => {
  it('tells SVG, Vega-Lite and Vega apart, by $schema first', () => {
    expect(readSpec('  <svg/>').kind).toBe('svg');
    expect(readSpec({ mark: 'bar' }).kind).toBe('vega-lite');
    expect(readSpec('{"layer": []}').kind).toBe('vega-lite');
    expect(readSpec({ marks: [] }).kind).toBe('vega');
    expect(readSpec({ $schema: 'https://vega.github.io/schema/vega/v6.json', mark: 'odd' }).kind).toBe('vega');
    expect(readSpec({ $schema: 'https://vega.github.io/schema/vega-lite/v6.json' }).kind).toBe('vega-lite');
    expect(reasonOf(() => readSpec('[1, 2]'))).toBe('unknown_spec');
    expect(reasonOf(() => readSpec('nope'))).toBe('not_json');
  });
});

describe('checkSvg', () => {
  it('passes fragments, embedded raster images and links', () => {
    expect(reasonOf(() => checkSvg(svg('<defs><linearGradient id="g"/></defs><rect fill="url(#g)" width="5" height="5"/><use href="#g"/>')))).toBeUndefined();
    expect(reasonOf(() => checkSvg(svg(`<image xlink:href="data:image/png;base64,${png64(4, 4)}" width="4" height="4"/>`)))).toBeUndefined();
    expect(reasonOf(() => checkSvg(svg('<a xlink:href="https://example.com/" target="_blank"><rect width="5" height="5"/></a>')))).toBeUndefined();
    expect(reasonOf(() => checkSvg(svg(`<rect style="fill: url('#g')" width="5" height="5"/>`)))).toBeUndefined();
  });

  it.each([
    ['an absolute path', '<image href="/etc/hostname" width="5" height="5"/>'],
    ['a relative path', '<image href="secret.png" width="5" height="5"/>'],
    ['a file URL', '<image xlink:href="file:///etc/hostname"/>'],
    ['an http URL', '<image href="http://169.254.169.254/x.png"/>'],
    ['a path spelled with character references', '<image href="&#x2F;etc&#47;hostname"/>'],
    ['a path behind any namespace prefix', '<image xmlns:q="http://www.w3.org/1999/xlink" q:href="/etc/hostname"/>'],
    ['a use of another file', '<use href="other.svg#x"/>'],
    ['a feImage of a file', '<filter id="f"><feImage href="/tmp/x.png"/></filter>'],
    ['an embedded SVG image (it would be rendered under the same rules, unchecked)', `<image href="data:image/svg+xml;base64,${Buffer.from(svg('')).toString('base64')}"/>`],
    ['an embedded image of an unchecked type', '<image href="data:text/plain;base64,aGk="/>'],
    ['a CSS url() of a file', '<rect style="fill: url(/etc/x.png)" width="5" height="5"/>'],
    ['a CSS @import', '<style>@import url("x.css");</style>'],
    ['an href on an anchor-looking element that is not one', '<abbr href="/etc/hostname"/>'],
  ])('refuses %s', (_what, body) => {
    expect(reasonOf(() => checkSvg(svg(body)))).toBe('external_reference');
  });

  it('refuses entity declarations (they could spell a path past the check)', () => {
    const doc = `<!DOCTYPE svg [<!ENTITY p "/etc/hostname">]>${svg('<image href="&p;"/>')}`;
    expect(reasonOf(() => checkSvg(doc))).toBe('external_reference');
  });

  it('refuses an href without a quoted value, an image that lies about its type, and an oversized embedded image', () => {
    expect(reasonOf(() => checkSvg(svg('<image href=/etc/hostname />')))).toBe('invalid_svg');
    expect(reasonOf(() => checkSvg(svg(`<image href="data:image/jpeg;base64,${png64(4, 4)}"/>`)))).toBe('invalid_svg');
    // A PNG header claiming 5000×5000 (a decompression bomb would be this small): its IHDR is all resvg needs to allocate.
    const bomb = Buffer.from(samplePng(4, 4));
    bomb.writeUInt32BE(5000, 16);
    bomb.writeUInt32BE(5000, 20);
    expect(imageInfo(bomb)).toMatchObject({ width: 5000, height: 5000 });
    expect(reasonOf(() => checkSvg(svg(`<image href="data:image/png;base64,${bomb.toString('base64')}"/>`)))).toBe('too_large');
  });
});

describe('render', () => {
  it('draws text with DejaVu only: Serif and Sans Mono by name, generic and unknown families as DejaVu Sans', async () => {
    const png = async (family: string): Promise<Buffer> => {
      const r = await render({ spec: `<svg xmlns="http://www.w3.org/2000/svg" width="240" height="40"><text x="5" y="30" font-family="${family}" font-size="24">Hamburgefonts</text></svg>`, scale: 1 });
      if (!r.ok) throw new Error(r.message);
      return Buffer.from(r.png);
    };
    const sans = await png('DejaVu Sans');
    expect((await png('DejaVu Serif')).equals(sans)).toBe(false);
    expect((await png('DejaVu Sans Mono')).equals(sans)).toBe(false);
    for (const family of ['sans-serif', 'serif', 'monospace', 'Helvetica, Arial', 'No Such Font']) expect((await png(family)).equals(sans), family).toBe(true);
  });

  it('caps the spec size and the pixels, scale included', async () => {
    expect(await render({ spec: `<svg xmlns="http://www.w3.org/2000/svg"><desc>${'x'.repeat(1_000_001)}</desc></svg>`, scale: 1 })).toMatchObject({ ok: false, reason: 'too_large' });
    expect(await render({ spec: svg('', ' width="2000" height="2000"').replace(' width="20" height="20"', ''), scale: 3 })).toMatchObject({ ok: false, reason: 'too_large' });
    expect(await render({ spec: svg('<rect width="20" height="20"/>'), scale: 3 })).toMatchObject({ ok: true, width: 60, height: 60, kind: 'svg' });
    // One pixel over the side cap.
    expect(await render({ spec: '<svg xmlns="http://www.w3.org/2000/svg" width="4096" height="4097"/>', scale: 1 })).toMatchObject({ ok: false, reason: 'too_large' });
  });

  it('an SVG that nests uses past resvg’s node limit is too large, not a crash', async () => {
    let body = '<defs><g id="l0"><rect width="1" height="1"/></g>';
    for (let l = 1; l <= 6; l++) body += `<g id="l${l}">${Array.from({ length: 12 }, () => `<use href="#l${l - 1}"/>`).join('')}</g>`;
    const r = await render({ spec: svg(`${body}</defs><use href="#l6"/>`), scale: 1 });
    expect(r).toMatchObject({ ok: false, reason: 'too_large' });
  });
});
