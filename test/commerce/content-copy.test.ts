// Copy orders read from the Markdown real models write, their shapes and the platforms' limits checked, a
// miss sent back with its reason and, after the last attempt, ContentShapeError with the tokens spent.
import { afterEach, describe, expect, it } from 'vitest';
import { parseAds } from '../../tools/commercial/content/ads.js';
import { produceCopy } from '../../tools/commercial/content/copy.js';
import { parseEmails } from '../../tools/commercial/content/emails.js';
import { ContentShapeError } from '../../tools/commercial/content/errors.js';
import { parseProductDescriptions } from '../../tools/commercial/content/products.js';
import { CopyInput } from '../../tools/commercial/content/schemas.js';
import { startScriptedLlm, type ScriptedLlm } from '../helpers/scripted-llm.js';
import { adsReply, words } from './content-fixtures.js';

let server: ScriptedLlm | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const ok = <T>(p: { ok: true; value: T } | { ok: false; problems: string[] }): T => {
  if (!p.ok) throw new Error(`not parsed: ${p.problems.join('; ')}`);
  return p.value;
};

describe('ad variations', () => {
  it('"### Variation n" with plain labels', () => {
    const ads = ok(parseAds(adsReply(), 'Google Ads'));
    expect(ads).toHaveLength(5);
    expect(ads[0]).toEqual({ headline: 'Same-Day Courier 1', body: 'Parcels across town before dinner. Track every step live.', call_to_action: 'Book a pickup' });
  });

  it('bold labels, chatter around, character counts and quotes, a sixth variation dropped', () => {
    const reply =
      'Sure! Here are five ad variations for your campaign:\n\n' +
      Array.from({ length: 6 }, (_, i) =>
        `**Ad ${i + 1}: ${['Urgency', 'Value', 'Trust', 'Speed', 'Local', 'Extra'][i]}**\n- **Headline:** "Fresh Bread Daily" (17 characters)\n- **Primary text:** Baked at dawn, delivered warm to your door.\n- **CTA:** Order Now`,
      ).join('\n\n') +
      '\n\nLet me know if you would like more options!';
    const ads = ok(parseAds(reply, 'Facebook'));
    expect(ads).toHaveLength(5);
    expect(ads[4]).toEqual({ headline: 'Fresh Bread Daily', body: 'Baked at dawn, delivered warm to your door.', call_to_action: 'Order Now' });
  });

  it('a Markdown table, and labels on their own lines after "## Option n" headings, and a <think> block', () => {
    const table =
      '| # | Headline | Description | Call to Action |\n|---|---|---|---|\n' +
      Array.from({ length: 5 }, (_, i) => `| ${i + 1} | Cloud Backup ${i + 1} | Automatic backups for every laptop. | Start free |`).join('\n');
    expect(ok(parseAds(table, 'google')).map((a) => a.headline)).toEqual(['Cloud Backup 1', 'Cloud Backup 2', 'Cloud Backup 3', 'Cloud Backup 4', 'Cloud Backup 5']);
    const headed =
      '<think>The user wants ads. Let me plan five angles.</think>\n# Ads\n\n' +
      Array.from({ length: 5 }, (_, i) => `## Option ${i + 1}\n\n### Headline\nHire Faster ${i + 1}\n\n### Body\nPost a job once,\nreach every board.\n\n### Call to action\nPost a job`).join('\n\n');
    const ads = ok(parseAds(headed, 'LinkedIn'));
    expect(ads[2]).toEqual({ headline: 'Hire Faster 3', body: 'Post a job once, reach every board.', call_to_action: 'Post a job' });
  });

  it('enforces the platform limits: Google 30/90, X and LinkedIn and Meta 280, generic otherwise', () => {
    const one = (h: string, b: string) => Array.from({ length: 5 }, (_, i) => `### Variation ${i + 1}\nHeadline: ${h}\nBody: ${b}\nCTA: Go`).join('\n\n');
    const h30 = 'x'.repeat(30);
    const b90 = 'y'.repeat(90);
    expect(parseAds(one(h30, b90), 'Google Ads').ok).toBe(true);
    const long = parseAds(one(h30 + 'x', b90 + 'y'), 'Google Ads');
    expect(long.ok).toBe(false);
    expect(!long.ok && long.problems).toEqual(
      expect.arrayContaining([
        'ad variation 1: the headline has 31 characters; Google Ads allows at most 30',
        'ad variation 1: the body has 91 characters; Google Ads allows at most 90',
      ]),
    );
    for (const p of ['X', 'Twitter', 'LinkedIn', 'Meta', 'facebook']) {
      expect(parseAds(one('Short', 'z'.repeat(280)), p).ok, p).toBe(true);
      expect(parseAds(one('Short', 'z'.repeat(281)), p).ok, p).toBe(false);
    }
    expect(parseAds(one('Short', 'z'.repeat(200)), 'Pinterest').ok).toBe(true); // generic: 300
    expect(parseAds(one('Short', 'z'.repeat(301)), undefined).ok).toBe(false);
  });

  it('counts an emoji as one character', () => {
    const ads = Array.from({ length: 5 }, (_, i) => `### Variation ${i + 1}\nHeadline: ${'🚀'.repeat(30)}\nBody: ok body\nCTA: Go`).join('\n\n');
    expect(parseAds(ads, 'Google Ads').ok).toBe(true);
  });
});

describe('email sequences', () => {
  const body = (n: number) => `Hi {{first_name}},\n\n${words(40, n)}.\n\nStep 1: open the app.\n\nCheers,\nThe Team`;

  it('"### Email n" with Subject/Preview/Body labels; a body line with a colon stays in the body', () => {
    const reply = Array.from({ length: 5 }, (_, i) => `### Email ${i + 1}\nSubject: Welcome step ${i + 1}\nPreview: A quick start\nBody:\n${body(i)}`).join('\n\n---\n\n');
    const emails = ok(parseEmails(reply));
    expect(emails).toHaveLength(5);
    expect(emails[0].subject).toBe('Welcome step 1');
    expect(emails[0].preview).toBe('A quick start');
    expect(emails[0].body).toContain('Step 1: open the app.');
    expect(emails[0].body.startsWith('Hi {{first_name}},')).toBe(true);
  });

  it('"## Email n (Day k): Title" with a bold subject and the body unlabelled below it', () => {
    const reply = '# Onboarding sequence\n\n' + Array.from({ length: 5 }, (_, i) => `## Email ${i + 1} (Day ${i * 2}): Topic\n\n**Subject line:** Day ${i * 2} tips\n\n${body(i)}`).join('\n\n');
    const emails = ok(parseEmails(reply));
    expect(emails.map((e) => e.subject)).toEqual(['Day 0 tips', 'Day 2 tips', 'Day 4 tips', 'Day 6 tips', 'Day 8 tips']);
    expect(emails[3].body).toMatch(/^Hi \{\{first_name\}\},/);
    expect(emails[3].preview).toBeUndefined();
  });

  it('no headings at all: a new email at each "Subject:" line', () => {
    const reply = Array.from({ length: 5 }, (_, i) => `Subject: Plain ${i + 1}\n\n${body(i)}`).join('\n\n');
    expect(ok(parseEmails(reply)).map((e) => e.subject)[4]).toBe('Plain 5');
  });

  it('an outline is not a sequence: too-short bodies and a missing subject are named', () => {
    const reply = Array.from({ length: 5 }, (_, i) => (i === 2 ? `### Email 3\nBody: ${words(30)}` : `### Email ${i + 1}\nSubject: S${i}\nBody: Remind them.`)).join('\n\n');
    const r = parseEmails(reply);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.problems[0]).toBe('found 0 usable emails; exactly 5 are needed');
    expect(!r.ok && r.problems).toContain('email 3: no subject line ("Subject: …")');
    expect(!r.ok && r.problems).toContain('email 1: the body has 2 words; write the full email (at least 20)');
  });
});

describe('product descriptions', () => {
  const desc = (i: number) => `${words(25, i)}.`;

  it('"### Product n" with Title/Description labels', () => {
    const reply = Array.from({ length: 10 }, (_, i) => `### Product ${i + 1}\n**Title:** Mug ${i + 1}\n**Description:**\n${desc(i)}\n\n${desc(i + 1)}`).join('\n\n');
    const items = ok(parseProductDescriptions(reply));
    expect(items).toHaveLength(10);
    expect(items[9].title).toBe('Mug 10');
    expect(items[9].description.split('\n\n')).toHaveLength(2);
  });

  it('numbered headings with the name, and a numbered list with bold names and a dash', () => {
    const headed = '# Our range\n\n' + Array.from({ length: 10 }, (_, i) => `## ${i + 1}. Oak Chair ${i + 1}\n\n${desc(i)}`).join('\n\n');
    const a = ok(parseProductDescriptions(headed));
    expect(a[0]).toEqual({ title: 'Oak Chair 1', description: desc(0) });
    const listed = Array.from({ length: 10 }, (_, i) => `${i + 1}. **Linen Shirt ${i + 1}** — ${desc(i)}`).join('\n');
    const b = ok(parseProductDescriptions(listed));
    expect(b[4]).toEqual({ title: 'Linen Shirt 5', description: desc(4) });
  });

  it('bold names on their own lines, separated by rules', () => {
    const reply = Array.from({ length: 10 }, (_, i) => `**Tea Blend ${i + 1}**\n\n${desc(i)}`).join('\n\n---\n\n');
    expect(ok(parseProductDescriptions(reply)).map((d) => d.title)[7]).toBe('Tea Blend 8');
  });

  it('nine are not ten', () => {
    const reply = Array.from({ length: 9 }, (_, i) => `### Product ${i + 1}\nTitle: P${i}\nDescription: ${desc(i)}`).join('\n\n');
    const r = parseProductDescriptions(reply);
    expect(!r.ok && r.problems[0]).toBe('found 9 usable product descriptions; exactly 10 are needed');
  });
});

describe('produceCopy', () => {
  it('retries a miss telling the model what was wrong, and sums the usage of both calls', async () => {
    const short = Array.from({ length: 3 }, (_, i) => `### Variation ${i + 1}\nHeadline: H${i}\nBody: Body text\nCTA: Go`).join('\n\n');
    server = await startScriptedLlm([
      { content: short, usage: { prompt_tokens: 100, completion_tokens: 50, total_tokens: 150 } },
      { content: adsReply(), usage: { prompt_tokens: 180, completion_tokens: 60, total_tokens: 240 } },
    ]);
    const out = await produceCopy({ type: 'ad', brief: 'Same-day courier in Lyon', platform: 'Google Ads' }, server.llm(), 3);
    expect(out.attempts).toBe(2);
    expect(out.usage).toEqual({ prompt_tokens: 280, completion_tokens: 110, total_tokens: 390 });
    expect(out.deliverable).toMatchObject({ platform: 'google_ads', limits: { headline: 30, body: 90, call_to_action: 30 } });
    expect((out.deliverable as { variations: unknown[] }).variations).toHaveLength(5);
    const second = server.requests[1].body.messages;
    expect(second.map((m: { role: string }) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(second[2].content).toBe(short);
    expect(second[3].content).toContain('found 3 usable ad variations; exactly 5 are needed');
    expect(second[3].content).toContain('Reply again with the complete deliverable');
    expect(server.requests[0].body.messages[1].content).toContain('Same-day courier in Lyon');
    expect(server.requests[0].body.messages[1].content).toContain('headline ≤ 30');
  });

  it('fails with ContentShapeError after N misses, carrying the usage of all of them', async () => {
    const tooLong = Array.from({ length: 5 }, (_, i) => `### Variation ${i + 1}\nHeadline: An extremely long headline here ${i}\nBody: b\nCTA: Go`).join('\n\n');
    server = await startScriptedLlm(Array.from({ length: 4 }, () => ({ content: tooLong, usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } })));
    const err = await produceCopy({ type: 'ad', brief: 'b', platform: 'google ads' }, server.llm(), 3).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ContentShapeError);
    const e = err as ContentShapeError;
    expect(e.usage).toEqual({ prompt_tokens: 30, completion_tokens: 15, total_tokens: 45 });
    expect(e.attempts).toBe(3);
    expect(e.code).toBe('upstream_error');
    expect(e.problems).toContain('ad variation 1: the headline has 33 characters; Google Ads allows at most 30');
    expect(e.message).toMatch(/^The model missed the deliverable's shape 3 times: found 0 usable ad variations/);
    expect(server.requests).toHaveLength(3);
    expect(server.requests[2].body.messages[3].content).toContain('Google Ads allows at most 30');
  });

  it('email sequence and product descriptions through produceCopy', async () => {
    const emails = Array.from({ length: 5 }, (_, i) => `### Email ${i + 1}\nSubject: S${i + 1}\nBody:\n${words(30, i)}`).join('\n\n');
    const products = Array.from({ length: 10 }, (_, i) => `### Product ${i + 1}\nTitle: P${i + 1}\nDescription: ${words(20, i)}`).join('\n\n');
    server = await startScriptedLlm([emails, products]);
    const a = await produceCopy({ type: 'email_sequence', brief: 'Onboarding' }, server.llm(), 1);
    expect((a.deliverable as { emails: unknown[] }).emails).toHaveLength(5);
    const b = await produceCopy({ type: 'product_description', brief: 'Ten teas' }, server.llm(), 1);
    expect((b.deliverable as { descriptions: { title: string }[] }).descriptions[9].title).toBe('P10');
  });

  it('a model error on a retry is the GatewayError, not a shape error', async () => {
    server = await startScriptedLlm(['nothing useful', { status: 500, error: { message: 'down' } }]);
    const err = await produceCopy({ type: 'ad', brief: 'b' }, server.llm(), 3).catch((e: unknown) => e);
    expect(err).not.toBeInstanceOf(ContentShapeError);
    expect((err as { code: string }).code).toBe('upstream_error');
  });
});

describe('CopyInput', () => {
  it('takes the spec fields within their limits and refuses unknown ones', () => {
    expect(CopyInput.safeParse({ type: 'ad', brief: 'x', platform: 'Google Ads' }).success).toBe(true);
    expect(CopyInput.safeParse({ type: 'ad', brief: 'x'.repeat(4001) }).success).toBe(false);
    expect(CopyInput.safeParse({ type: 'ad', brief: 'x', platform: 'p'.repeat(51) }).success).toBe(false);
    expect(CopyInput.safeParse({ type: 'tweet', brief: 'x' }).success).toBe(false);
    expect(CopyInput.safeParse({ type: 'ad', brief: 'x', extra: 1 }).success).toBe(false);
  });
});
