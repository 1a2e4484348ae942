// The A2A server a user would otherwise deploy (issue 41): @a2a-js/sdk's DefaultRequestHandler with its
// InMemoryTaskStore on express, its executor answering at once with a completed task that carries the answer as an
// artifact (the shape the gateway answers a calculator question with). A2A_SDK=0.3 serves the 0.3.x SDK's JSON-RPC
// at /a2a; A2A_SDK=1 (default) serves the 1.x SDK's JSON-RPC at /a2a (v0.3 requests too, through its legacyCompat
// layer, as a 1.x deployment serving older clients would) and its HTTP+JSON binding under /a2a/rest.
// Prints READY <port>.
import { randomUUID } from 'node:crypto';
import express from 'express';

const ANSWER = '255 in base 2 is 11111111';
const line = process.env.A2A_SDK ?? '1';

async function v03() {
  const { DefaultRequestHandler, InMemoryTaskStore } = await import('@a2a-js/sdk/server');
  const { A2AExpressApp } = await import('@a2a-js/sdk/server/express');
  const card = {
    name: 'bench', description: 'bench', url: 'http://127.0.0.1/a2a', version: '1', protocolVersion: '0.3.0',
    capabilities: { streaming: true }, defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'], skills: [],
  };
  const executor = {
    async execute(ctx, bus) {
      bus.publish({
        kind: 'task', id: ctx.taskId, contextId: ctx.contextId,
        status: { state: 'completed', timestamp: new Date().toISOString() },
        history: [ctx.userMessage],
        artifacts: [{ artifactId: randomUUID(), name: 'answer', parts: [{ kind: 'text', text: ANSWER }] }],
      });
      bus.finished();
    },
    async cancelTask() {},
  };
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
  return new A2AExpressApp(handler).setupRoutes(express(), '/a2a');
}

async function v1() {
  const { AgentEvent, DefaultRequestHandler, InMemoryTaskStore } = await import('a2a-sdk-v1/server');
  const { jsonRpcHandler, restHandler, UserBuilder } = await import('a2a-sdk-v1/server/express');
  const { TaskState } = await import('a2a-sdk-v1');
  const card = {
    name: 'bench', description: 'bench', version: '1',
    supportedInterfaces: [
      { url: 'http://127.0.0.1/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0', tenant: '' },
      { url: 'http://127.0.0.1/a2a/rest', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0', tenant: '' },
      { url: 'http://127.0.0.1/a2a', protocolBinding: 'JSONRPC', protocolVersion: '0.3', tenant: '' },
    ],
    capabilities: { streaming: true, pushNotifications: false, extensions: [] },
    defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'], skills: [], securitySchemes: {}, securityRequirements: [], signatures: [],
  };
  const executor = {
    async execute(ctx, bus) {
      bus.publish(
        AgentEvent.task({
          id: ctx.taskId, contextId: ctx.contextId,
          status: { state: TaskState.TASK_STATE_COMPLETED, message: undefined, timestamp: new Date().toISOString() },
          history: [ctx.userMessage],
          artifacts: [{ artifactId: randomUUID(), name: 'answer', description: '', parts: [{ content: { $case: 'text', value: ANSWER }, metadata: undefined, filename: '', mediaType: 'text/plain' }], metadata: undefined, extensions: [] }],
          metadata: undefined,
        }),
      );
      bus.finished();
    },
    async cancelTask() {},
  };
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
  const app = express();
  app.use('/a2a/rest', restHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  app.use('/a2a', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication, legacyCompat: { enabled: true } }));
  return app;
}

const app = line === '0.3' ? await v03() : await v1();
const server = app.listen(0, '127.0.0.1', () => process.stdout.write(`READY ${server.address().port}\n`));
