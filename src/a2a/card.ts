// The agent card (A2A v0.3 shape), generated from the registry: one skill per toolset, with the tools an
// anonymous or paying caller can use. The authenticated extended card adds the owner-only tools of the
// calling agent. Examples are data parts built from the tools' own input examples. The extended card is announced
// only to a caller that sent a credential (withoutExtendedCard): the official clients' getAgentCard() asks for it
// whenever the card they hold announces it, and the operation must refuse a caller without credentials.
import type { Registry } from '../registry/registry.js';
import type { AgentRef, Credentials, Tool } from '../registry/types.js';

/** Toolsets that are no skill of the agent: the chat adapter's tools and operator actions. */
const HIDDEN = new Set(['chat', 'operator']);
const MODES = ['text/plain', 'application/json'];

export interface CardInfo {
  baseUrl: string;
  version: string;
}

const firstSentence = (s: string): string => {
  const m = /^.*?[.!?](?=\s|$)/.exec(s);
  return (m ? m[0] : s).slice(0, 200);
};

function examplesOf(tools: Tool[]): string[] {
  const out: string[] = [];
  for (const t of tools) {
    const ex = (t.inputJsonSchema.examples as unknown[] | undefined)?.[0];
    if (ex !== undefined) out.push(JSON.stringify({ tool: t.name, arguments: ex }));
    if (out.length === 3) break;
  }
  return out;
}

function skills(registry: Registry, ownerOnly: boolean) {
  const byToolset = new Map<string, Tool[]>();
  for (const t of registry.list()) {
    if (HIDDEN.has(t.toolset) || t.expose.mcpOnly || !(t.expose.mcp || t.expose.catalog)) continue;
    if (!ownerOnly && t.auth === 'owner') continue;
    byToolset.set(t.toolset, [...(byToolset.get(t.toolset) ?? []), t]);
  }
  return [...byToolset.entries()]
    .sort(([a], [b]) => (a === 'assistant' ? -1 : b === 'assistant' ? 1 : a < b ? -1 : 1))
    .map(([toolset, tools]) => {
      const security: Record<string, string[]>[] = [];
      if (tools.some((t) => t.auth === 'owner' || t.auth === 'optional_owner')) security.push({ bearer: [] });
      if (tools.some((t) => t.auth === 'paid')) security.push({ apiKey: [] });
      const description = `${tools.map((t) => `${t.name}: ${firstSentence(t.description)}`).join(' ')}`.slice(0, 2000);
      return {
        id: toolset,
        name: toolset === 'assistant' ? 'Ask the gateway' : `${toolset[0].toUpperCase()}${toolset.slice(1)} tools`,
        description,
        tags: [toolset, ...tools.map((t) => t.name)],
        examples: examplesOf(tools),
        inputModes: MODES,
        outputModes: MODES,
        ...(security.length ? { security } : {}),
      };
    });
}

export type AgentCard = ReturnType<typeof buildCard>;

/** The public card, or with `agent` the extended card including that agent's owner-only tools. */
export function buildCard(registry: Registry, info: CardInfo, agent: AgentRef | null = null) {
  const url = `${info.baseUrl}/a2a`;
  return {
    protocolVersion: '0.3.0',
    name: 'Agent Gateway',
    description:
      'A persistent home for stateless agents: identity, memory, artifacts, vault, jobs, handoffs, watches, calculators. Send text ' +
      'to ask what it can do or to run a calculator ("convert 255 to base 2"); send a data part {"tool": "<name>", "arguments": {…}} ' +
      'to call any tool with your own credentials (Authorization: Bearer <agent secret>, X-API-Key or x402, as over REST).' +
      (agent ? ` Extended card for @${agent.handle}: owner-only tools included.` : ''),
    url,
    preferredTransport: 'JSONRPC',
    additionalInterfaces: [{ url, transport: 'JSONRPC' }],
    // A2A v1.0 clients read this list; the same endpoint serves 1.0 when asked with A2A-Version: 1.0, and v1.0's
    // HTTP+JSON binding has its resource URLs under it (POST /a2a/message:send…).
    supportedInterfaces: [
      { url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      { url, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
    ],
    provider: { organization: 'Agent Gateway', url: info.baseUrl },
    version: info.version,
    documentationUrl: `${info.baseUrl}/openapi.json`,
    // extendedAgentCard is where v1.0 clients look (v0.3 ones read supportsAuthenticatedExtendedCard below).
    capabilities: { streaming: true, pushNotifications: false, stateTransitionHistory: false, extendedAgentCard: true },
    securitySchemes: {
      bearer: { type: 'http', scheme: 'bearer', description: 'The agent secret (from agent_register) for owner tools and agent-owned tasks.' },
      apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'An API key for paid tools (free keys: POST /keys/issue); x402 PAYMENT-SIGNATURE works too.' },
    },
    defaultInputModes: MODES,
    defaultOutputModes: MODES,
    skills: skills(registry, agent !== null),
    supportsAuthenticatedExtendedCard: true,
  };
}

/** Whether a request carries a credential the extended card could be asked with (an empty key header is none). */
export const sentCredential = (c: Credentials): boolean => Boolean(c.bearer || c.apiKey || c.accessToken);

/** The card as a caller without credentials sees it: no extended card on offer, in either version's field. */
export function withoutExtendedCard(card: AgentCard): AgentCard {
  return { ...card, capabilities: { ...card.capabilities, extendedAgentCard: false }, supportsAuthenticatedExtendedCard: false };
}
