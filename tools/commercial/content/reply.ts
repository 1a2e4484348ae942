// What a model wraps around its answer, taken off before parsing: reasoning blocks (<think>…</think> of
// Qwen/DeepSeek-style local models), a fence around the whole reply, a line of chatter before ("Sure! Here
// are…:") or after ("Let me know if…"). And a reply in JSON, for the servers that gave structured output.

const OPENING = /^(sure|certainly|of course|absolutely|okay|ok|great|here(?:'s| is| are)|below (?:is|are)|i(?:'ve| have) (?:written|created|prepared))\b/i;
const CLOSING = /^(let me know|i hope|feel free|would you like|if you(?:'d| would) like|happy to|want me to)\b/i;

export function cleanReply(text: string): string {
  let t = text.replace(/\r\n?/g, '\n');
  t = t.replace(/<think>[\s\S]*?<\/think>/gi, '');
  // A reasoning block whose opening tag the server swallowed: everything up to the lone closing tag.
  if (/<\/think>/i.test(t)) t = t.slice(t.search(/<\/think>/i) + '</think>'.length);
  t = t.trim();
  // Only a fence tagged as Markdown: an untagged one around the whole reply may be the code itself.
  const whole = t.match(/^(`{3,}|~{3,})[ \t]*(?:markdown|md)[ \t]*\n([\s\S]*?)\n\1[ \t]*$/i);
  if (whole) t = whole[2].trim();
  const paragraphs = t.split(/\n\s*\n/);
  if (paragraphs.length > 1 && paragraphs[0].length <= 300 && OPENING.test(paragraphs[0].trim()) && !paragraphs[0].includes('\n#')) paragraphs.shift();
  if (paragraphs.length > 1 && CLOSING.test(paragraphs[paragraphs.length - 1].trim())) paragraphs.pop();
  return paragraphs.join('\n\n').trim();
}

/** The reply as JSON (bare, or in a ```json fence), or undefined when it is not JSON. */
export function parseJsonReply(text: string): unknown {
  const t = text.trim();
  const fenced = t.match(/^```(?:json)?\s*\n([\s\S]*?)\n```\s*$/i);
  const candidate = fenced ? fenced[1].trim() : t;
  if (!/^[[{]/.test(candidate)) return undefined;
  try {
    return JSON.parse(candidate);
  } catch {
    return undefined;
  }
}

/** Lowercase words only: "Call-to-Action" and "call_to_action" both read "call to action". */
export const normalizeKey = (k: string): string =>
  k
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

/** The items of a JSON reply: a bare array, or the array under one of `keys` (or the only array) of an object. */
export function jsonItems(value: unknown, keys: string[]): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (typeof value !== 'object' || value === null) return undefined;
  const entries = Object.entries(value as Record<string, unknown>);
  const wanted = new Set(keys.map(normalizeKey));
  const named = entries.find(([k, v]) => wanted.has(normalizeKey(k)) && Array.isArray(v));
  if (named) return named[1] as unknown[];
  const arrays = entries.filter(([, v]) => Array.isArray(v));
  return arrays.length === 1 ? (arrays[0][1] as unknown[]) : undefined;
}
