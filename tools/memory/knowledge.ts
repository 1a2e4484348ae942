// Facts (entities, topics, tags and JSON key paths extracted from entries) and the memory graph.
import { z } from 'zod';
import { defineTool } from '../../src/registry/define-tool.js';
import { memoryGraphApp, memoryGraphAppMeta } from './graph-app.js';
import { limitParam, MatchParam, OwnerHandle } from './limits.js';
import { graphFacts, searchFacts } from './store/facts.js';
import { queryTerms } from './query-terms.js';

const ASCII_WORD = /^[a-z0-9]+$/;

export const memoryFacts = defineTool({
  name: 'memory_facts',
  title: 'Facts from memory',
  toolset: 'memory',
  description:
    'Facts extracted from entries: entities (people, places, organizations), #topics, tags and JSON key paths such as ' +
    'profile.city = Lisbon; by topic or entity (q, keywords or a plain question), from your own and public entries. ' +
    'Facts an entry no longer states are superseded and left out unless include_superseded is true.',
  input: z.object({
    q: z.string().max(200).default('').describe('Topic, entity, key path or value to look for, or a question ("Where does Ana live?"): each word matches a substring of the subject or object, facts matching most words first.'),
    namespace: z.string().max(64).optional().describe('Only this namespace.'),
    handle: OwnerHandle,
    include_superseded: z.boolean().default(false).describe('Also superseded facts.'),
    match: MatchParam,
    limit: limitParam(100, 20),
  }),
  auth: 'optional_owner',
  selfField: 'handle',
  annotations: { readOnlyHint: true },
  handler: async (input, ctx) => {
    // A word in another script or with diacritics is matched as written; an ASCII word by the lead its forms share.
    const terms = queryTerms(input.q, input.match).map((t) => (ASCII_WORD.test(t.written) ? t.lead : t.written));
    const rows = await searchFacts(ctx.db, {
      terms,
      all: input.match === 'all',
      callerId: ctx.caller.agent?.id ?? null,
      namespace: input.namespace ?? null,
      limit: input.limit,
      includeSuperseded: input.include_superseded,
      now: ctx.clock.now(),
    });
    return {
      q: input.q,
      facts: rows.map((r) => ({
        kind: r.kind,
        subject: r.subject,
        object: r.object,
        owner: r.owner,
        namespace: r.namespace,
        key: r.key,
        version: r.version,
        superseded: r.superseded_at !== null,
      })),
    };
  },
});

const GraphNode = z.object({
  id: z.string().describe('entry:<namespace>/<key>, entity:<name> or topic:<name> (names normalised).'),
  type: z.enum(['entry', 'entity', 'topic']),
  label: z.string().describe('<namespace>/<key> of an entry; the name of an entity or topic as written.'),
  kind: z.string().optional().describe('What an entity is: person, place, organization, …'),
});
type Node = z.output<typeof GraphNode>;

const GraphEdge = z.object({
  from: z.string(),
  to: z.string(),
  type: z.enum(['mentions', 'tagged', 'shares-entity']).describe('mentions: entry→entity; tagged: entry→topic; shares-entity: entry↔entry.'),
  via: z.string().optional().describe('The entity two entries share (shares-entity).'),
});

const MemoryGraphOutput = z.object({
  nodes: z.array(GraphNode),
  edges: z.array(GraphEdge),
  counts: z.object({ nodes: z.number().int(), edges: z.number().int() }),
});

export const memoryGraph = defineTool({
  name: 'memory_graph',
  title: 'Memory graph',
  toolset: 'memory',
  description:
    'Nodes (entries, entities, topics/tags) and edges (mentions: entry→entity, tagged: entry→topic, shares-entity: ' +
    'entry↔entry) built only from your own memory; at most `limit` nodes. Hosts that render MCP Apps show it as an ' +
    'interactive graph (click an entry to read it).',
  input: z.object({ handle: OwnerHandle, limit: limitParam(1000, 200) }),
  output: MemoryGraphOutput,
  auth: 'owner',
  selfField: 'handle',
  annotations: { readOnlyHint: true },
  mcpMeta: memoryGraphAppMeta,
  handler: async (input, ctx): Promise<z.output<typeof MemoryGraphOutput>> => {
    const rows = await graphFacts(ctx.db, ctx.caller.agent!.id, input.limit * 10, ctx.clock.now());
    const nodes = new Map<string, Node>();
    const edges: z.output<typeof GraphEdge>[] = [];
    const byConcept = new Map<string, Set<string>>();
    for (const r of rows) {
      const entryId = `entry:${r.namespace}/${r.key}`;
      const isEntity = r.kind === 'entity';
      const conceptId = isEntity ? `entity:${r.norm}` : `topic:${r.norm}`;
      const room = nodes.size < input.limit;
      if (!nodes.has(entryId)) {
        if (!room) continue;
        nodes.set(entryId, { id: entryId, type: 'entry', label: `${r.namespace}/${r.key}` });
      }
      if (!nodes.has(conceptId)) {
        if (nodes.size >= input.limit) continue;
        nodes.set(conceptId, isEntity ? { id: conceptId, type: 'entity', label: r.subject, kind: r.object } : { id: conceptId, type: 'topic', label: r.subject });
      }
      edges.push({ from: entryId, to: conceptId, type: isEntity ? 'mentions' : 'tagged' });
      if (isEntity) byConcept.set(conceptId, (byConcept.get(conceptId) ?? new Set()).add(entryId));
    }
    for (const [concept, entries] of byConcept) {
      const list = [...entries];
      for (let i = 0; i < list.length; i++)
        for (let j = i + 1; j < list.length && edges.length < input.limit * 20; j++) edges.push({ from: list[i], to: list[j], type: 'shares-entity', via: concept });
    }
    return { nodes: [...nodes.values()], edges, counts: { nodes: nodes.size, edges: edges.length } };
  },
});

export const knowledgeTools = [memoryFacts, memoryGraph, memoryGraphApp];
