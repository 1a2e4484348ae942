// The extractive answer reads tables (a price question answered from the row of a price table that the question
// names) and never cuts a token: e-mail addresses, URLs, decimals, abbreviations and initials stay whole, in the
// answer's sentences and in the passages a long paragraph is cut into. End to end through the `research` verb
// over MCP, from pages served by a loopback server, and on the answer's functions directly.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractive, type Numbered } from '../../tools/research/answer.js';
import { PASSAGE_MAX_CHARS, splitPassages } from '../../tools/research/passages.js';
import { ResearchOutput } from '../../tools/research/index.js';
import { splitSentences } from '../../tools/research/sentences.js';
import { startGateway, type TestGateway } from '../helpers/gateway.js';
import { freeKey, researchClient, type ResearchClient } from './clients.js';

const PRICING_MD = `# Acme pricing

Acme offers three plans for teams of every size, billed monthly or yearly.

| Plan | Price | Seats |
| --- | --- | --- |
| Starter | $9 per month | 1 |
| Pro | $29 per month | 5 |
| Enterprise | $99 per month | 50 |

Every plan includes the mobile app and a 14-day trial.
`;

const CONTACT_HTML = `<!doctype html><html lang="en"><head><title>Contact Acme</title></head><body><article><h1>Contact Acme</h1>
<p>Write to hello@acme.example for a quote, or read the answers at https://acme.example/help/faq.html before you write.</p>
<p>Support is led by Dr. Ada Smith and J. R. Jones, who answer within 2.5 working days on average.</p>
<p>The office is closed on public holidays and at weekends.</p>
</article></body></html>`;

/** The same plans as an HTML table, as most pricing pages publish them. */
const PRICING_HTML = `<!doctype html><html lang="en"><head><title>Acme plans</title></head><body><main><h1>Acme plans</h1>
<p>Acme offers three plans for teams of every size, billed monthly or yearly.</p>
<table><thead><tr><th>Plan</th><th>Price</th><th>Seats</th></tr></thead>
<tbody><tr><td>Starter</td><td>$9 per month</td><td>1</td></tr><tr><td>Pro</td><td>$29 per month</td><td>5</td></tr>
<tr><td>Enterprise</td><td>$99 per month</td><td>50</td></tr></tbody></table>
<p>Every plan includes the mobile app and a 14-day trial.</p></main></body></html>`;

let site: http.Server;
let siteUrl: string;
let gw: TestGateway;
let c: ResearchClient;

beforeAll(async () => {
  site = http.createServer((req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    if (req.url === '/pricing.md') return void res.writeHead(200, { 'content-type': 'text/markdown; charset=utf-8' }).end(PRICING_MD);
    if (req.url === '/pricing') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PRICING_HTML);
    if (req.url === '/contact') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(CONTACT_HTML);
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', () => r()));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  gw = await startGateway({ env: { GATEWAY_EGRESS_ALLOW: '127.0.0.1/32', GATEWAY_KEYS_PER_CLIENT_PER_DAY: '1000' } });
  c = await researchClient(gw.url, 'v2 pinned to 2026-07-28', { key: await freeKey(gw.url) });
});
afterAll(async () => {
  await c?.close();
  await gw?.cleanup();
  site?.closeAllConnections();
  site?.close();
});

const ask = async (question: string, paths: string[]) => {
  const r = await c.call({ question, urls: paths.map((p) => `${siteUrl}${p}`) });
  expect(r.isError).toBeFalsy();
  return ResearchOutput.parse(r.structuredContent);
};

describe('research’s extractive answer, end to end', () => {
  it('answers a price question from the row of the price table the question names, citing the page', async () => {
    const out = await ask('How much does the Pro plan cost?', ['/pricing.md', '/contact']);
    expect(out.engine).toBe('extractive');
    const n = Number(/^Pro — Price: \$29 per month\. \[(\d+)\]/.exec(out.answer)?.[1]);
    expect(out.citations.find((x) => x.n === n)?.url).toBe(`${siteUrl}/pricing.md`);
    expect(out.answer).not.toMatch(/\$9 per month|\$99 per month/);
  });

  it('reads an HTML price table too (browse keeps its rows as a Markdown table)', async () => {
    const out = await ask('How much does the Pro plan cost?', ['/pricing']);
    expect(out.answer).toMatch(/^Pro — Price: \$29 per month\. \[1\]/);
  });

  it('answers "what does each plan cost" with the price column across the plans', async () => {
    const out = await ask('What does each plan cost?', ['/pricing.md']);
    expect(out.answer).toMatch(/^Price — Starter: \$9 per month; Pro: \$29 per month; Enterprise: \$99 per month\. \[1\]/);
  });

  it('quotes an e-mail address, a URL, a decimal and names with abbreviations whole', async () => {
    const mail = await ask('Where do I write for a quote?', ['/contact']);
    expect(mail.answer).toContain('Write to hello@acme.example for a quote, or read the answers at https://acme.example/help/faq.html before you write. [1]');
    const who = await ask('Who leads support and how fast do they answer?', ['/contact']);
    expect(who.answer).toContain('Support is led by Dr. Ada Smith and J. R. Jones, who answer within 2.5 working days on average. [1]');
  });
});

describe('sentence and passage boundaries', () => {
  it('cuts sentences at their ends only', () => {
    expect(splitSentences('Mail hello@acme.example today. It costs $4.50, e.g. per seat. See https://acme.example/a.b?c=d. Dr. Smith and J. R. R. Tolkien agree. See No. 5 for more. The answer is no. Then we left.')).toEqual([
      'Mail hello@acme.example today.',
      'It costs $4.50, e.g. per seat.',
      'See https://acme.example/a.b?c=d.',
      'Dr. Smith and J. R. R. Tolkien agree.',
      'See No. 5 for more.',
      'The answer is no.',
      'Then we left.',
    ]);
  });

  it('cuts a long paragraph into passages at sentence ends, never inside an address, a URL or a number', () => {
    const filler = 'The harbour office keeps its records in the stone building by the quay and answers letters by hand. ';
    const tokens = ['hello@acme.example', 'https://acme.example/records/2024/index.html', '3.14159'];
    const md = Array.from({ length: 30 }, (_, i) => `${filler}Write to ${tokens[i % 3]} or call back in ${i}.5 days.`).join(' ');
    const passages = splitPassages(md, 0);
    expect(passages.length).toBeGreaterThan(2);
    for (const p of passages) {
      expect(p.text.length).toBeLessThanOrEqual(PASSAGE_MAX_CHARS);
      expect(md).toContain(p.text);
      expect(p.text).toMatch(/^(The harbour office|Write to)/); // each piece starts a sentence
      // Once the whole addresses, URLs and numbers are taken out, no piece of one is left.
      expect(tokens.reduce((rest, t) => rest.split(t).join(''), p.text)).not.toMatch(/acme|3\.14|\/2024/);
    }
  });

  it('reads a long table cut into passages row by row, with its header where the header is', () => {
    const rows = Array.from({ length: 60 }, (_, i) => `| Plan ${i} | $${i}.99 per month | ${i} seats |`).join('\n');
    const md = `| Plan | Price | Seats |\n| --- | --- | --- |\n${rows}\n`;
    const passages = splitPassages(md, 0);
    expect(passages.length).toBeGreaterThan(1);
    for (const p of passages) for (const line of p.text.split('\n')) expect(line).toMatch(/^\|.*\|$/);
    const numbered: Numbered[] = passages.map((p, i) => ({ n: i + 1, text: p.text, title: null, url: 'http://x.example/' }));
    expect(extractive('What is the price of Plan 3?', numbered)).toMatch(/^Plan 3 — Price: \$3\.99 per month\. \[1\]/);
    // A piece without the header rows still answers with the row's cells.
    const last = passages.length;
    expect(extractive('What about Plan 59?', numbered.slice(last - 1))).toMatch(new RegExp(`^Plan 59 — \\$59\\.99 per month; 59 seats\\. \\[${last}\\]`));
  });
});
