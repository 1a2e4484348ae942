// Results beyond JSON text: a tool's file or content result (image, audio, embedded resource, mixed) over MCP
// (both eras), REST and A2A; resource reads of files (blob) and plain text; prompts rendering several messages.
import { createHash } from 'node:crypto';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GatewayError } from '../../src/errors.js';
import { contentResult } from '../../src/registry/content-result.js';
import { defineTool } from '../../src/registry/define-tool.js';
import type { FileResult } from '../../src/registry/types.js';
import { rpc, userData } from '../a2a/rpc.js';
import { api, register, startGateway, type TestGateway } from '../helpers/gateway.js';

const toolset = 'content-test';
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');
const BIN = Buffer.from([0, 255, 1, 254, 2]);
const file = (bytes: Buffer, contentType: string, filename: string): FileResult => ({
  kind: 'file',
  bytes,
  contentType,
  filename,
  sha256: createHash('sha256').update(bytes).digest('hex'),
});

const tools = [
  defineTool({ name: 'ct_picture', toolset, description: 'An image file.', input: z.object({}), auth: 'public', expose: { catalog: true }, handler: () => file(PNG, 'image/png', 'dot.png') }),
  defineTool({ name: 'ct_binary', toolset, description: 'A binary file.', input: z.object({}), auth: 'public', handler: () => file(BIN, 'application/octet-stream', 'five.bin') }),
  defineTool({
    name: 'ct_mixed',
    toolset,
    description: 'Text, an image, an embedded resource and data.',
    input: z.object({}),
    auth: 'public',
    expose: { catalog: true },
    handler: () =>
      contentResult(
        [
          { type: 'text', text: 'A dot:' },
          { type: 'image', bytes: PNG, mimeType: 'image/png' },
          { type: 'resource', resource: { uri: 'test-files://note', mimeType: 'text/plain', text: 'a note' } },
        ],
        { width: 1, height: 1 },
      ),
  }),
  defineTool({ name: 'ct_note', toolset, description: 'A plain text.', input: z.object({}), auth: 'public', expose: { mcp: false }, handler: () => 'just text' }),
];

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway({
    additions: {
      tools,
      resources: [
        { uri: 'test-files://dot', name: 'dot', description: 'An image.', mimeType: 'image/png', tool: 'ct_picture' },
        { uri: 'test-files://five', name: 'five', description: 'Bytes.', mimeType: 'application/octet-stream', tool: 'ct_binary' },
        { uri: 'test-files://note', name: 'note', description: 'Text.', mimeType: 'text/plain', tool: 'ct_note' },
      ],
      prompts: [
        {
          name: 'ct_look',
          description: 'Look at a picture of the given colour.',
          arguments: [{ name: 'colour', description: 'red or blue', required: true }],
          render: (a) => {
            if (a.colour !== 'red' && a.colour !== 'blue') throw new GatewayError('bad_request', `No picture in ${a.colour}: ask for red or blue.`);
            return [
              { role: 'user', content: { type: 'image', bytes: PNG, mimeType: 'image/png' } },
              { role: 'assistant', content: { type: 'resource', resource: { uri: 'test-files://five', mimeType: 'application/octet-stream', bytes: BIN } } },
              { role: 'user', content: { type: 'text', text: `What is ${a.colour} here?` } },
            ];
          },
        },
      ],
    },
  });
});
afterAll(async () => gw.cleanup());

async function v1Client(secret?: string): Promise<Client> {
  const client = new Client({ name: 'content-test', version: '1' });
  const headers = secret ? { authorization: `Bearer ${secret}` } : undefined;
  await client.connect(new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp`), { requestInit: { headers } }));
  return client;
}

describe('tool results beyond JSON', () => {
  it('an image file is an image block; another binary file an embedded resource blob (2025 era)', async () => {
    const client = await v1Client();
    try {
      const pic = await client.callTool({ name: 'ct_picture', arguments: {} });
      expect(pic.content).toEqual([{ type: 'image', data: PNG.toString('base64'), mimeType: 'image/png' }]);
      expect(pic.structuredContent).toBeUndefined();
      const bin = await client.callTool({ name: 'ct_binary', arguments: {} });
      expect(bin.content).toEqual([{ type: 'resource', resource: { uri: 'gateway://tools/ct_binary/five.bin', mimeType: 'application/octet-stream', blob: BIN.toString('base64') } }]);
    } finally {
      await client.close();
    }
  });

  it('mixed content keeps its order, with the data as structuredContent and JSON text (2026-07-28 era)', async () => {
    const client = new ClientV2({ name: 'content-test', version: '1' });
    await client.connect(new TransportV2(new URL(`${gw.url}/mcp`)));
    try {
      const r = await client.callTool({ name: 'ct_mixed', arguments: {} });
      expect(r.content).toEqual([
        { type: 'text', text: 'A dot:' },
        { type: 'image', data: PNG.toString('base64'), mimeType: 'image/png' },
        { type: 'resource', resource: { uri: 'test-files://note', mimeType: 'text/plain', text: 'a note' } },
        { type: 'text', text: '{"width":1,"height":1}' },
      ]);
      expect(r.structuredContent).toEqual({ width: 1, height: 1 });
    } finally {
      await client.close();
    }
  });

  it('a product file result (memory_export, JSON Lines) is an embedded text resource, not a serialised Buffer', async () => {
    const { secret } = await register(gw.url, 'content-exporter');
    const client = await v1Client(secret);
    try {
      await client.callTool({ name: 'memory_put', arguments: { namespace: 'notes', key: 'a', value: { n: 1 } } });
      const r = await client.callTool({ name: 'memory_export', arguments: {} });
      const [block] = r.content as { type: string; resource: { uri: string; mimeType: string; text: string } }[];
      expect(block.type).toBe('resource');
      expect(block.resource.mimeType).toBe('application/x-ndjson');
      expect(block.resource.uri).toBe('gateway://tools/memory_export/content-exporter-memory.jsonl');
      expect(JSON.parse(block.resource.text.trim())).toMatchObject({ namespace: 'notes', key: 'a' });
    } finally {
      await client.close();
    }
  });

  it('REST sends a content result as JSON with base64 bytes; a file stays an attachment', async () => {
    const mixed = await api(gw.url, 'POST', '/tools/ct_mixed', { body: {} });
    expect(mixed.status).toBe(200);
    expect(mixed.body).toEqual({
      width: 1,
      height: 1,
      content: [
        { type: 'text', text: 'A dot:' },
        { type: 'image', data: PNG.toString('base64'), mimeType: 'image/png' },
        { type: 'resource', resource: { uri: 'test-files://note', mimeType: 'text/plain', text: 'a note' } },
      ],
    });
    const pic = await fetch(`${gw.url}/tools/ct_picture`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(pic.headers.get('content-type')).toContain('image/png');
    expect(Buffer.from(await pic.arrayBuffer()).equals(PNG)).toBe(true);
  });

  it('A2A makes file parts of a file and of image blocks, text parts of text, a data part of the data', async () => {
    const pic = (await rpc(gw.url, 'message/send', userData('ct_picture', {}))).body.result;
    expect(pic.artifacts.at(-1).parts).toEqual([{ kind: 'file', file: { bytes: PNG.toString('base64'), mimeType: 'image/png', name: 'dot.png' } }]);
    const mixed = (await rpc(gw.url, 'message/send', userData('ct_mixed', {}))).body.result;
    expect(mixed.artifacts.at(-1).parts).toEqual([
      { kind: 'text', text: 'A dot:' },
      { kind: 'file', file: { bytes: PNG.toString('base64'), mimeType: 'image/png' } },
      { kind: 'file', file: { bytes: Buffer.from('a note').toString('base64'), name: 'test-files://note', mimeType: 'text/plain' } },
      { kind: 'data', data: { width: 1, height: 1 } },
    ]);
  });

  it('a content result needs at least one block', () => {
    expect(() => contentResult([])).toThrow(/at least one block/);
  });
});

describe('resource reads beyond JSON', () => {
  it('a file is read as a blob with its type; a plain-text resource as its text', async () => {
    const client = await v1Client();
    try {
      expect((await client.readResource({ uri: 'test-files://dot' })).contents).toEqual([{ uri: 'test-files://dot', mimeType: 'image/png', blob: PNG.toString('base64') }]);
      expect((await client.readResource({ uri: 'test-files://five' })).contents).toEqual([
        { uri: 'test-files://five', mimeType: 'application/octet-stream', blob: BIN.toString('base64') },
      ]);
      expect((await client.readResource({ uri: 'test-files://note' })).contents).toEqual([{ uri: 'test-files://note', mimeType: 'text/plain', text: 'just text' }]);
    } finally {
      await client.close();
    }
  });
});

describe('prompts with several messages', () => {
  it('renders image, embedded blob resource and text messages in order, with their roles', async () => {
    const client = await v1Client();
    try {
      const p = await client.getPrompt({ name: 'ct_look', arguments: { colour: 'red' } });
      expect(p.messages).toEqual([
        { role: 'user', content: { type: 'image', data: PNG.toString('base64'), mimeType: 'image/png' } },
        { role: 'assistant', content: { type: 'resource', resource: { uri: 'test-files://five', mimeType: 'application/octet-stream', blob: BIN.toString('base64') } } },
        { role: 'user', content: { type: 'text', text: 'What is red here?' } },
      ]);
    } finally {
      await client.close();
    }
  });

  it('a bad argument the prompt refuses, or a missing one, is invalid params (-32602) with one prefix, never an internal error', async () => {
    const client = await v1Client();
    try {
      await expect(client.getPrompt({ name: 'ct_look', arguments: { colour: 'green' } })).rejects.toMatchObject({
        code: -32602,
        message: 'MCP error -32602: No picture in green: ask for red or blue.',
      });
      await expect(client.getPrompt({ name: 'ct_look', arguments: {} })).rejects.toMatchObject({ code: -32602, message: 'MCP error -32602: Missing required argument: colour' });
    } finally {
      await client.close();
    }
  });
});
