// The render process: renders specs one at a time for renderer.ts over IPC, with a capped heap. A spec's
// failures come back as replies ({ok: false}). It ends with its parent (the IPC channel closing).
import type { RenderReply, RenderRequest } from './limits.js';
import { render } from './render.js';

let chain: Promise<unknown> = Promise.resolve();
process.on('message', (m: [number, RenderRequest]) => {
  const [id, req] = m;
  chain = chain.then(async () => {
    const reply: RenderReply = await render(req);
    process.send!([id, reply]);
  });
});
process.on('disconnect', () => process.exit(0));
process.send!('ready');
