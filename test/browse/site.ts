// A small site on loopback for the browse tests: an article, redirects, robots.txt, text, JSON, a PDF, an
// oversized and a slow page, an image and a page revalidated with ETag. It counts requests per path.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export const ARTICLE = `<!doctype html>
<html lang="en-GB"><head><title>The Quiet Harbour | Example News</title><meta name="author" content="Ada Lovelace"></head>
<body>
<nav><a href="/">Home</a> <a href="/about">About</a></nav>
<div id="side"><h3>Elsewhere</h3><p>Sidebar note about <a href="/other">another story</a>.</p></div>
<article>
<h1>The Quiet Harbour</h1>
<p class="byline">By Ada Lovelace</p>
<h2>Morning</h2>
<p>${'The boats come in slowly while the gulls circle above the grey water of the harbour. '.repeat(6)}</p>
<p>Read the <a href="/history">history of the harbour</a> and the <a href="https://example.org/tides">tide tables</a>.</p>
<h2>Evening</h2>
<p>${'At dusk the lamps are lit one by one along the long stone quay, and the fishermen talk. '.repeat(6)}</p>
</article>
<footer>Copyright</footer>
</body></html>`;

/** A one-page PDF whose only text is `text`, with a correct cross-reference table. */
export function tinyPdf(text: string): Buffer {
  const stream = `BT /F1 18 Tf 10 40 Td (${text}) Tj ET`;
  const objects = [
    '<</Type/Catalog/Pages 2 0 R>>',
    '<</Type/Pages/Kids[3 0 R]/Count 1>>',
    '<</Type/Page/Parent 2 0 R/MediaBox[0 0 300 100]/Contents 4 0 R/Resources<</Font<</F1 5 0 R>>>>>>',
    `<</Length ${stream.length}>>\nstream\n${stream}\nendstream`,
    '<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<</Size ${objects.length + 1}/Root 1 0 R>>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

export interface Site {
  url: string;
  hits: Map<string, number>;
  /** `<query>|<If-None-Match>` of each conditional request /etag received. */
  conditional: string[];
  /** Slow requests whose connection the gateway closed before the answer. */
  slowDropped(): number;
  close(): Promise<void>;
}

export async function startSite(opts: { bigBytes: number; slowMs: number }): Promise<Site> {
  const hits = new Map<string, number>();
  const conditional: string[] = [];
  let dropped = 0;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1);
    const send = (status: number, type: string, body: string | Buffer, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': type, ...headers });
      res.end(body);
    };
    switch (url.pathname) {
      case '/robots.txt':
        return send(200, 'text/plain', 'User-agent: *\nDisallow: /private\n\nUser-agent: AgentGateway\nDisallow: /no-gateway\nDisallow: /private\n');
      case '/article':
      case '/private/article':
      case '/no-gateway':
        return send(200, 'text/html; charset=utf-8', ARTICLE);
      case '/latin1':
        // No charset in the header: the page names it in a <meta>.
        return send(200, 'text/html', Buffer.from('<html><head><meta charset="iso-8859-1"><title>Caf\u00e9</title></head><body><p>cr\u00e8me br\u00fbl\u00e9e</p></body></html>', 'latin1'));
      case '/redirect':
        return send(302, 'text/plain', '', { location: '/article' });
      case '/plain':
        return send(200, 'text/plain; charset=utf-8', 'line one\n  line two\n');
      case '/data.json':
        return send(200, 'application/json', '{"a":1,"b":[true,null]}');
      case '/doc.pdf':
        return send(200, 'application/pdf', tinyPdf('Hello PDF world'));
      case '/broken.pdf':
        return send(200, 'application/pdf', '%PDF-1.4\nthis is not a PDF body at all');
      case '/big':
        return send(200, 'text/html', `<html><body><p>${'x'.repeat(opts.bigBytes)}</p></body></html>`);
      case '/slow':
        setTimeout(() => !res.destroyed && send(200, 'text/html', '<p>late</p>'), opts.slowMs).unref();
        res.on('close', () => {
          if (!res.writableEnded) dropped++;
        });
        return;
      case '/image.png':
        return send(200, 'image/png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      case '/etag': {
        const inm = req.headers['if-none-match'];
        if (inm) conditional.push(`${url.search}|${inm}`);
        if (inm === '"v1"') {
          res.writeHead(304, { etag: '"v1"' });
          return res.end();
        }
        return send(200, 'text/html', ARTICLE, { etag: '"v1"' });
      }
      default:
        return send(404, 'text/plain', 'not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    conditional,
    slowDropped: () => dropped,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
