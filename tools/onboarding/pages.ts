// HTML views of the onboarding documents (the JSON stays the source of every value).
import { renderPage, type Section } from './html.js';

type Doc = Record<string, any>;

const json = (v: unknown): string => JSON.stringify(v, null, 2);

function paySection(p: Doc): Section {
  return {
    heading: 'Pay per call (x402)',
    text: `${p.protocol}. ${p.settlement}`,
    rows: [
      { field: 'network', value: p.network },
      { field: 'asset', value: `${p.asset_name} ${p.asset} (${p.decimals} decimals)` },
      { field: 'pay to', value: p.pay_to },
      { field: 'payment header', value: `${p.header} (legacy: ${p.legacy_header})` },
      { field: 'receipt header', value: p.receipt_header },
      { field: 'requirements', value: p.discovery },
    ],
  };
}

const priceRows = (prices: Doc[]) => prices.map((p) => ({ tool: p.tool, 'price (USD)': p.usd, 'atomic units': p.amount }));

export function connectHtml(r: unknown): string {
  const d = r as Doc;
  return renderPage({
    title: d.title,
    lead: 'Claim a handle, get a free key, and plug the gateway into any MCP host.',
    sections: [
      { heading: 'Register', text: d.register.note, code: `curl -X POST ${d.register.request.replace('POST ', '')} -H 'content-type: application/json' -d '${JSON.stringify(d.register.body)}'` },
      {
        heading: 'Get a free API key',
        text: `No signup: ${d.free_key.monthly_quota} calls a month, at most ${d.free_key.keys_per_email} keys per email. Send it as ${d.free_key.header}.`,
        code: `curl -X POST ${d.free_key.request.replace('POST ', '')} -H 'content-type: application/json' -d '${JSON.stringify(d.free_key.body)}'`,
      },
      { heading: 'MCP over stdio', code: json({ mcpServers: { 'agent-gateway': d.mcp.stdio } }) },
      { heading: 'MCP over Streamable HTTP', code: json({ mcpServers: { 'agent-gateway': d.mcp.streamable_http } }), text: `Legacy SSE clients: ${d.mcp.legacy_sse}` },
      paySection(d.pay_per_call),
      { heading: 'Tiers', rows: d.tiers },
      { heading: 'Prices', rows: priceRows(d.prices) },
      { heading: 'More', items: Object.entries(d.links).map(([k, v]) => `${k}: ${v}`) },
    ],
  });
}

export function economicsHtml(r: unknown): string {
  const d = r as Doc;
  return renderPage({
    title: d.title,
    lead: 'What is free, what costs, and how an agent pays.',
    sections: [
      { heading: 'Free of charge', items: d.free },
      { heading: 'Paid', text: d.paid },
      { heading: 'Rules', items: d.rules },
      { heading: 'Tiers', rows: d.tiers },
      { heading: 'Prices', rows: priceRows(d.prices) },
      paySection(d.pay_per_call),
      { heading: 'Credits', text: d.credits },
    ],
  });
}

export function homeHtml(r: unknown): string {
  const d = r as Doc;
  const link = (label: string, href: string, note?: string) => ({ label, href, ...(note ? { note } : {}) });
  return renderPage({
    title: d.name,
    lead: d.about,
    sections: [
      {
        heading: 'Start here',
        links: [
          link('Connect', d.start.connect, 'a free API key, the MCP configuration for your host, paying per call'),
          link('Agent economics', d.start.agent_economics, 'what is free, what costs, and how an agent pays'),
        ],
        code: `curl -X POST ${d.start.register.replace('POST ', '')} -H 'content-type: application/json' -d '{"handle":"your-name"}'`,
      },
      {
        heading: 'MCP',
        links: [
          link(d.mcp.streamable_http, d.mcp.streamable_http, 'Streamable HTTP: Authorization: Bearer <agent secret>'),
          link(d.mcp.oauth, d.mcp.oauth, d.mcp.oauth_note),
          link(d.mcp.legacy_sse, d.mcp.legacy_sse, 'legacy HTTP+SSE (2024-11-05 clients)'),
        ],
        text: `Over stdio: ${d.mcp.stdio}`,
      },
      {
        heading: 'Other ways in',
        links: [
          link('OpenAPI description', d.api.openapi, 'every REST route'),
          link('Tools', d.api.tools, 'the calculators and their prices'),
          link('A2A agent card', d.a2a.agent_card, `A2A JSON-RPC and HTTP+JSON at ${d.a2a.endpoint}`),
          link('Chat completions', d.chat, 'OpenAI-compatible (POST)'),
        ],
      },
      ...(d.operator_console ? [{ heading: 'Operators', links: [link('Operator console', d.operator_console, 'signs in with the operator token')] }] : []),
    ],
  });
}

/** The commercial group's home at {api_url} (tools/commercial/home.ts). */
export function commercialHomeHtml(r: unknown): string {
  const d = r as Doc;
  return renderPage({
    title: d.name,
    lead: d.about,
    sections: [
      {
        heading: 'Start here',
        code: `curl -X POST ${d.start.signup.replace('POST ', '')} -H 'content-type: application/json' -d '{"email":"you@example.com"}'`,
        text: `The revenue key is shown once: send it as ${d.start.key_header}.`,
        links: [
          { label: 'Prices', href: d.start.prices, note: 'every price as charged here' },
          { label: 'OpenAPI description', href: d.start.openapi, note: 'every route of this group' },
        ],
      },
      { heading: 'Services', rows: d.services.map((s: Doc) => ({ service: s.service, 'order at': s.route, 'from (USD)': s.from_usd, per: s.per })) },
      { heading: 'OpenAI-compatible', links: [{ label: 'Models', href: d.openai.models }], text: `Chat: POST ${d.openai.chat}, metered per 1K tokens.` },
    ],
  });
}
