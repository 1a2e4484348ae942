// Baseline: bare node:http answering the same small JSON the other baselines answer.
import http from 'node:http';

const body = JSON.stringify({ handle: 'bench-agent', bio: '', xp: 0, member_since: '2026-01-01T00:00:00.000Z' });
const server = http.createServer((req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`READY ${server.address().port}\n`));
