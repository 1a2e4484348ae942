// POST /memory/summarize: a namespace condensed into markdown, by the configured language model when there
// is one, otherwise by an extractive summary; the result always says which engine produced it.
import { z } from 'zod';
import { chat } from '../../src/llm/openai-client.js';
import { defineTool } from '../../src/registry/define-tool.js';
import type { ToolContext } from '../../src/registry/types.js';
import { readsAll, resolveTarget } from './access.js';
import { limitParam, Namespace, OwnerHandle } from './limits.js';
import { getEntry, listEntries } from './store/entries.js';
import { iso } from './shape.js';
import { flattenText } from '../../src/store/value-codec.js';

interface Item {
  key: string;
  text: string;
  tags: string[];
  updated_at: string | null;
}

/** First sentence-ish of a value, for the extractive summary. */
function lead(text: string, max = 220): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  const stop = clean.search(/[.!?](\s|$)/);
  const first = stop > 0 && stop < max ? clean.slice(0, stop + 1) : clean.slice(0, max);
  return first.length < clean.length && !/[.!?]$/.test(first) ? `${first}…` : first;
}

export function extractiveSummary(owner: string, namespace: string, items: Item[]): string {
  const tagCounts = new Map<string, number>();
  for (const i of items) for (const t of i.tags) tagCounts.set(t, (tagCounts.get(t) ?? 0) + 1);
  const topTags = [...tagCounts].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([t, n]) => `${t} (${n})`);
  const lines = [
    `# ${owner}/${namespace}`,
    '',
    `${items.length} entr${items.length === 1 ? 'y' : 'ies'}${topTags.length ? `; tags: ${topTags.join(', ')}` : ''}.`,
    '',
    ...items.map((i) => `- **${i.key}**: ${lead(i.text) || '(empty)'}`),
  ];
  return lines.join('\n');
}

async function collect(ctx: ToolContext, namespace: string, handle: string | undefined, max: number) {
  const target = await resolveTarget(ctx, namespace, handle);
  const now = ctx.clock.now();
  const rows = await listEntries(ctx.db, { ownerId: target.ownerId, namespace, after: '', limit: max, publicOnly: !readsAll(target), now });
  const items: Item[] = [];
  for (const r of rows) {
    const full = await getEntry(ctx.db, ctx.db.dialect, target.ownerId, namespace, r.key, now);
    if (!full) continue;
    const value = JSON.parse(full.value) as unknown;
    items.push({ key: r.key, text: typeof value === 'string' ? value : flattenText(value), tags: JSON.parse(r.tags), updated_at: iso(r.updated_at) });
  }
  return { owner: target.ownerHandle ?? 'scratchpad', items };
}

export const memorySummarize = defineTool({
  name: 'memory_summarize',
  title: 'Summarize a namespace',
  toolset: 'memory',
  description:
    'Condenses a namespace into markdown. Uses the configured language model when there is one (engine "llm:<model>"), ' +
    'otherwise an extractive summary (engine "extractive": each entry\'s lead sentence, with tag counts).',
  input: z.object({ namespace: Namespace, handle: OwnerHandle, max_entries: limitParam(200, 50), focus: z.string().max(300).optional().describe('What the summary should focus on.') }),
  auth: 'owner',
  annotations: { readOnlyHint: true },
  handler: async (input, ctx) => {
    const { owner, items } = await collect(ctx, input.namespace, input.handle, input.max_entries);
    const llm = ctx.config.llm;
    if (llm?.model && items.length) {
      const material = items.map((i) => `## ${i.key}\n${i.text.slice(0, 2000)}`).join('\n\n');
      const markdown = await chat({ ...llm, model: llm.model }, [
        { role: 'system', content: 'Summarize the notes below as concise markdown: a title, key points as bullets, open questions last. Use only what the notes say.' },
        { role: 'user', content: `${input.focus ? `Focus: ${input.focus}\n\n` : ''}${material}` },
      ], ctx.signal);
      return { namespace: input.namespace, owner, entries: items.length, engine: `llm:${llm.model}`, markdown };
    }
    return { namespace: input.namespace, owner, entries: items.length, engine: 'extractive', markdown: extractiveSummary(owner, input.namespace, items) };
  },
});
