// One loopback server playing everything research talks to in the tests: a small site (five pages, a robots.txt
// disallowing /private, a 404), a SearXNG-compatible JSON search (/search?format=json), a Brave-compatible one
// (/brave/web/search, checks X-Subscription-Token), and an OpenAI-compatible /v1/chat/completions (cites one real
// passage and one invented number) and /v1/embeddings (hashed bag of words). It records what it was asked.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export const BRAVE_TOKEN = 'brave-test-token-5c2f';

const page = (title: string, paragraphs: string[]) =>
  `<!doctype html><html lang="en"><head><title>${title}</title></head><body><nav><a href="/">Home</a> <a href="/about">About</a></nav>` +
  `<article><h1>${title}</h1>${paragraphs.map((p, i) => (i === 2 ? `<h2>More</h2><p>${p}</p>` : `<p>${p}</p>`)).join('')}</article><footer>Copyright</footer></body></html>`;

export const PAGES: Record<string, { title: string; html: string }> = {
  '/lighthouse': {
    title: 'The Old Lighthouse',
    html: page('The Old Lighthouse', [
      'The lighthouse on the northern headland was built in 1852 by the harbour board, after two ships were lost on the reef in one winter.',
      'Its lamp burned whale oil at first; a paraffin lamp replaced it in 1890, and electric light came in 1931.',
      'The keepers lived in the cottage at the foot of the tower until the light was automated in 1978.',
      'Visitors can climb the 117 steps to the gallery on summer weekends, weather permitting.',
    ]),
  },
  '/harbour': {
    title: 'The Quiet Harbour',
    html: page('The Quiet Harbour', [
      'The boats come in slowly while the gulls circle above the grey water of the harbour, and the fishermen mend their nets on the quay.',
      'At dusk the lamps are lit one by one along the long stone quay, and the old lighthouse beam sweeps across the bay.',
      'The harbour wall was rebuilt in stone after the great storm of 1824 washed the wooden pier away.',
    ]),
  },
  '/tides': {
    title: 'Tides of the Bay',
    html: page('Tides of the Bay', [
      'The tide in the bay rises and falls twice a day, following the moon, with a range of about four metres at springs.',
      'Neap tides come a week after spring tides, when the sun and the moon pull at right angles to each other.',
      'Boats leave the harbour two hours before high water so that they clear the bar at the entrance.',
    ]),
  },
  '/market': {
    title: 'The Fish Market',
    html: page('The Fish Market', [
      'The fish market opens at five in the morning, when the first boats have landed their catch of mackerel and crab.',
      'Buyers from the inland towns bid in a quick spoken auction that is over before most of the village is awake.',
      'On Saturdays the market hall holds a craft fair with knitted jumpers, pottery and smoked fish.',
    ]),
  },
  '/weather': {
    title: 'Coastal Weather',
    html: page('Coastal Weather', [
      'Westerly gales bring most of the winter storms to the coast, and the lifeboat crew trains every Thursday evening.',
      'Sea fog rolls in on still summer mornings when warm air passes over the cold water of the bay.',
      'The foghorn below the lighthouse sounds twice every thirty seconds while the fog lasts.',
    ]),
  },
  '/private/logbook': { title: 'Keeper’s Logbook', html: page('Keeper’s Logbook', ['The lighthouse keeper wrote in the logbook every night that the lamp was lit at sunset.']) },
};

export interface Stack {
  url: string;
  /** Queries the search endpoints received, `<provider>:<q>`. */
  searches: string[];
  /** Brave requests refused for a wrong or missing token. */
  braveRefused: number;
  /** The bodies of the chat completions received. */
  chats: { model: string; messages: { role: string; content: string }[] }[];
  /** How many texts each embeddings request embedded. */
  embedded: number[];
  /** Paths of the site pages requested (robots.txt included). */
  hits: string[];
  /** When true, /v1/chat/completions answers 500. */
  llmFails: boolean;
  /** Requests of /slow (which never answers) whose connection the gateway closed. */
  slowDropped: number;
  close(): Promise<void>;
}

const DIM = 64;
function hashVector(text: string): number[] {
  const v = new Array<number>(DIM).fill(0);
  for (const w of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    let h = 2166136261;
    for (const ch of w) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
    v[(h >>> 0) % DIM]! += 1;
  }
  return v;
}

const json = (res: http.ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

async function bodyOf(req: http.IncomingMessage): Promise<any> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

/** The site's pages, in the order a search lists them (the private one last). */
export const SEARCH_ORDER = ['/lighthouse', '/harbour', '/tides', '/market', '/weather', '/private/logbook'];

export async function startStack(): Promise<Stack> {
  let base = '';
  const stack: Stack = { url: '', searches: [], braveRefused: 0, chats: [], embedded: [], hits: [], llmFails: false, slowDropped: 0, close: async () => undefined };
  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url!, 'http://x');
      const p = url.pathname;
      if (p === '/robots.txt') {
        stack.hits.push(p);
        res.writeHead(200, { 'content-type': 'text/plain' });
        return res.end('User-agent: *\nDisallow: /private\n');
      }
      if (PAGES[p]) {
        stack.hits.push(p);
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return res.end(PAGES[p]!.html);
      }
      if (p === '/slow') {
        stack.hits.push(p);
        res.on('close', () => stack.slowDropped++);
        return;
      }
      if (p === '/search') {
        if (url.searchParams.get('format') !== 'json') return json(res, 403, { error: 'format not allowed' });
        stack.searches.push(`searxng:${url.searchParams.get('q')}`);
        return json(res, 200, {
          query: url.searchParams.get('q'),
          results: SEARCH_ORDER.map((s) => ({ url: `${base}${s}`, title: PAGES[s]!.title, content: `About ${PAGES[s]!.title}`, engine: 'test' })),
        });
      }
      if (p === '/brave/web/search') {
        if (req.headers['x-subscription-token'] !== BRAVE_TOKEN) {
          stack.braveRefused++;
          return json(res, 401, { error: 'bad token' });
        }
        stack.searches.push(`brave:${url.searchParams.get('q')}`);
        const count = Number(url.searchParams.get('count') ?? 20);
        const order = ['/tides', '/private/logbook', '/lighthouse', '/weather', '/harbour', '/market'];
        return json(res, 200, { type: 'search', web: { results: order.slice(0, count).map((s) => ({ url: `${base}${s}`, title: PAGES[s]!.title, description: `About ${PAGES[s]!.title}` })) } });
      }
      if (p === '/v1/chat/completions' && req.method === 'POST') {
        const body = await bodyOf(req);
        stack.chats.push(body);
        if (stack.llmFails) return json(res, 500, { error: 'down' });
        // Cite the passage that holds the answer (as a model would), and make one number up.
        const prompt: string = body.messages.find((m: { role: string }) => m.role === 'user').content;
        const blocks = prompt.split(/\n\n(?=\[\d+\] )/);
        const real = blocks.find((b) => b.includes('1852'))?.match(/^\[(\d+)\]/)?.[1] ?? '1';
        const content = `The lighthouse was built in 1852 by the harbour board [${real}]. Its lamp was gilded by the king himself [99].`;
        return json(res, 200, { id: 'c1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] });
      }
      if (p === '/v1/embeddings' && req.method === 'POST') {
        const body = await bodyOf(req);
        const inputs: string[] = Array.isArray(body.input) ? body.input : [body.input];
        stack.embedded.push(inputs.length);
        return json(res, 200, { object: 'list', data: inputs.map((t, index) => ({ object: 'embedding', index, embedding: hashVector(t) })), model: body.model });
      }
      stack.hits.push(p);
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    })().catch(() => {
      res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  stack.url = base;
  stack.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return stack;
}
