// A reference server measured alone in the same run as the gateway it is compared with.
import { load, type LoadOptions, type LoadResult } from './cannon.js';
import { startScript } from './processes.js';

/** Starts bench/servers/<file>, loads `path` on it, stops it. */
export async function baseline(file: 'bare.mjs' | 'express.mjs' | 'fastify-peer.mjs', name: string, path: string, o: Omit<LoadOptions, 'url'> = {}, env: Record<string, string> = {}): Promise<LoadResult> {
  const server = await startScript(file, env);
  try {
    return await load(name, { ...o, url: `${server.url}${path}` });
  } finally {
    await server.stop();
  }
}
