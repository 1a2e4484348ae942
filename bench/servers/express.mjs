// Baseline: a minimal express 5 app answering the same small JSON.
import express from 'express';

const app = express();
const payload = { handle: 'bench-agent', bio: '', xp: 0, member_since: '2026-01-01T00:00:00.000Z' };
app.get('/agents/:handle', (_req, res) => res.json(payload));
app.post('/tools/:name', express.json(), (_req, res) => res.json(payload));
const server = app.listen(0, '127.0.0.1', () => process.stdout.write(`READY ${server.address().port}\n`));
