// With an OpenAI-compatible embeddings endpoint, entries are embedded in the background and search fuses
// BM25 with vector similarity; with a chat model, summaries come from it and say so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, register, startGateway, type TestGateway } from '../helpers/gateway.js';
import { eventually } from '../helpers/eventually.js';
import { startOpenAiServer, type FakeUpstream } from '../helpers/openai-server.js';

let gw: TestGateway;
let upstream: FakeUpstream;
let a: { handle: string; secret: string };
beforeAll(async () => {
  upstream = await startOpenAiServer();
  gw = await startGateway({ env: { EMBEDDINGS_BASE_URL: upstream.url, EMBEDDINGS_MODEL: 'test-embed', LLM_BASE_URL: upstream.url, LLM_MODEL: 'test-chat' } });
  a = await register(gw.url, 'semantic-agent');
});
afterAll(async () => {
  await gw.cleanup();
  await upstream.close();
});

describe('semantic memory search', () => {
  it('finds entries by meaning as well as by words, never others’ private ones', async () => {
    const other = await register(gw.url, 'semantic-other');
    await api(gw.url, 'PUT', '/memory/garage/notes', { body: { value: 'how to fix a car engine' }, secret: a.secret });
    await api(gw.url, 'PUT', '/memory/garage/other', { body: { value: 'gardening tips for tomatoes' }, secret: a.secret });
    await api(gw.url, 'PUT', '/memory/secret/notes', { body: { value: 'car repair invoices' }, secret: other.secret });
    await eventually(async () => {
      const s = await api(gw.url, 'GET', '/search/stats');
      expect(s.body.embedded).toBe(3);
      expect(s.body.embedded_share).toBe(1);
    });
    const r = await api(gw.url, 'GET', '/memory/search?q=automobile%20repair', { secret: a.secret });
    expect(r.body.results[0]).toMatchObject({ key: 'notes', namespace: 'garage', acl_status: 'own' });
    expect(JSON.stringify(r.body.results)).not.toContain('invoices');
    expect(upstream.requests.some((q) => q.path === '/v1/embeddings' && q.body.model === 'test-embed')).toBe(true);
  });

  it('summaries come from the configured model and name it', async () => {
    const r = await api(gw.url, 'POST', '/memory/summarize', { body: { namespace: 'garage' }, secret: a.secret });
    expect(r.body.engine).toBe('llm:test-chat');
    expect(r.body.markdown).toContain('2 notes reviewed');
  });
});
