// Fixtures of the conformance suite's Tasks-extension scenarios (io.modelcontextprotocol/tasks, SEP-2663): tools
// whose calls start durable work (ToolSpec.durable), which the MCP adapter turns into tasks for a request that
// declares the extension. The work here lives in this process's memory (the harness's; the product's own durable
// work is the job table): a timer that succeeds, fails as a tool error, or breaks; work that waits for the
// person's answers (input_required, answered with tasks/update). The adapter reads, cancels and answers it through
// the hidden tools below, exactly as it does job_create's jobs. Only the test harness registers them.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { contentResult } from '../../src/registry/content-result.js';
import { GatewayError } from '../../src/errors.js';
import { defineTool } from '../../src/registry/define-tool.js';
import type { DurableWork, FormAnswer, FormQuestion, InputAnswers, InputRound, Tool, WorkState } from '../../src/registry/types.js';

const toolset = 'conformance';

interface Work {
  id: string;
  state: WorkState;
  createdAt: number;
  updatedAt: number;
  message: string;
  result?: Record<string, unknown>;
  /** Outstanding questions (state input_required), and what to do once every one is answered. */
  questions?: InputRound;
  answers: InputAnswers;
  whenAnswered?: (answers: InputAnswers) => Record<string, unknown>;
  timer?: NodeJS.Timeout;
}

const works = new Map<string, Work>();

function settle(w: Work, state: WorkState, message: string, result?: Record<string, unknown>): void {
  if (w.state !== 'running' && w.state !== 'input_required') return;
  Object.assign(w, { state, message, result, questions: undefined, updatedAt: Date.now() });
  clearTimeout(w.timer);
}

function start(message: string): Work {
  const now = Date.now();
  const w: Work = { id: `work_${randomUUID()}`, state: 'running', createdAt: now, updatedAt: now, message, answers: {} };
  works.set(w.id, w);
  return w;
}

/** Ends the work after `ms` (kept from holding the process open). */
function after(w: Work, ms: number, end: () => void): void {
  w.timer = setTimeout(end, ms);
  w.timer.unref();
}

const WorkId = z.object({ work_id: z.string().min(1).max(100) });
const read = (id: string): Work => {
  const w = works.get(id);
  if (!w) throw new GatewayError('not_found', 'No such work.');
  return w;
};

const describe = (w: Work) => ({
  work_id: w.id,
  state: w.state,
  message: w.message,
  created_at: w.createdAt,
  updated_at: w.updatedAt,
  ...(w.questions ? { questions: w.questions } : {}),
  ...(w.result ? { result: w.result } : {}),
});

const hidden = { mcp: false } as const;

const workTools: Tool[] = [
  defineTool({ name: 'conformance_work_get', toolset, description: 'Reads fixture work by id.', input: WorkId, auth: 'public', expose: hidden, handler: (i) => describe(read(i.work_id)) }),
  defineTool({
    name: 'conformance_work_cancel',
    toolset,
    description: 'Cancels fixture work that has not ended.',
    input: WorkId,
    auth: 'public',
    expose: hidden,
    handler: (i) => {
      const w = read(i.work_id);
      settle(w, 'canceled', 'Canceled by the client.');
      return describe(w);
    },
  }),
  // Takes answers to outstanding questions (checked by the adapter against them); the work goes on once all are in.
  defineTool({
    name: 'conformance_work_answer',
    toolset,
    description: "Hands the client's answers to fixture work waiting for them.",
    input: WorkId.extend({ answers: z.record(z.string(), z.unknown()) }),
    auth: 'public',
    expose: hidden,
    handler: (i) => {
      const w = read(i.work_id);
      if (w.state !== 'input_required' || !w.questions) throw new GatewayError('conflict', 'The work is not waiting for answers.');
      for (const [key, answer] of Object.entries(i.answers)) {
        if (!(key in w.questions)) continue;
        w.answers[key] = answer as InputAnswers[string];
        delete w.questions[key];
      }
      w.updatedAt = Date.now();
      if (Object.keys(w.questions).length === 0) settle(w, 'succeeded', 'Answered.', w.whenAnswered!(w.answers));
      return describe(w);
    },
  }),
];

const fixtureWork: DurableWork<{ work_id: string }> = {
  read: 'conformance_work_get',
  field: 'work_id',
  cancel: 'conformance_work_cancel',
  answer: 'conformance_work_answer',
  idOf: (r) => r?.work_id,
  statusOf: (r) => ({
    state: r.state as WorkState,
    message: String(r.message),
    createdAt: r.created_at as number,
    updatedAt: r.updated_at as number,
    ...(r.questions ? { questions: r.questions as InputRound } : {}),
  }),
  resultOf: (r) => (r.result ?? {}) as Record<string, unknown>,
};

/** Work only a task can follow: its reader is hidden, so a request without the extension is refused (-32021). */
const followedOnly: DurableWork<{ work_id: string }> = { ...fixtureWork, followedOnly: true };

const confirmForm = (message: string, withName = false): { kind: 'form'; form: FormQuestion } => ({
  kind: 'form',
  form: { message, fields: { ...(withName ? { name: { type: 'string' } } : {}), confirm: { type: 'boolean' } }, required: ['confirm'] },
});

const accepted = (a: unknown) => (a as FormAnswer | undefined)?.action === 'accept' && (a as FormAnswer).content?.confirm === true;

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(t), reject(new GatewayError('conflict', 'The call was canceled.'))), { once: true });
  });

export const taskTools: Tool[] = [
  ...workTools,
  defineTool({
    name: 'greet',
    toolset,
    description: 'Greets by name, at once (never a task).',
    input: z.object({ name: z.string().describe('Who to greet') }),
    auth: 'public',
    handler: (input) => contentResult([{ type: 'text', text: `Hello, ${input.name}!` }]),
  }),
  // A client that follows tasks gets one at once; any other waits for the result (a task is the server's choice).
  defineTool({
    name: 'slow_compute',
    toolset,
    description: 'Computes for `seconds` seconds: a task for clients of the Tasks extension, else the result when done.',
    input: z.object({ seconds: z.number().int().min(0).max(600), label: z.string().max(200).optional() }),
    auth: 'public',
    durable: fixtureWork,
    handler: async (input, ctx) => {
      const done = { label: input.label ?? null, seconds: input.seconds, computed: true };
      if (!ctx.followsWork) {
        await sleep(input.seconds * 1000, ctx.signal);
        return done;
      }
      const w = start(`Computing ${input.label ?? ''} for ${input.seconds} s.`);
      after(w, input.seconds * 1000, () => settle(w, 'succeeded', 'Computed.', done));
      return { work_id: w.id };
    },
  }),
  defineTool({
    name: 'failing_job',
    toolset,
    description: 'Work that ends, after about a second, with a tool error (only as a task).',
    input: z.object({}),
    auth: 'public',
    durable: followedOnly,
    handler: () => {
      const w = start('Working, soon to fail.');
      after(w, 1000, () => settle(w, 'failed', 'The job failed: the input could not be processed.', { error: 'the input could not be processed' }));
      return { work_id: w.id };
    },
  }),
  defineTool({
    name: 'protocol_error_job',
    toolset,
    description: 'Work that breaks (an internal failure, not an answer) shortly after it starts (only as a task).',
    input: z.object({}),
    auth: 'public',
    durable: followedOnly,
    handler: () => {
      const w = start('Working, soon to break.');
      after(w, 200, () => settle(w, 'errored', 'The work stopped unexpectedly.'));
      return { work_id: w.id };
    },
  }),
  // Work that waits for the person mid-way: tasks/get shows its question, tasks/update answers it.
  defineTool({
    name: 'confirm_delete',
    toolset,
    description: 'Deletes a (pretend) file once the person confirms, asked while the task runs.',
    input: z.object({ filename: z.string().min(1).max(200) }),
    auth: 'public',
    durable: followedOnly,
    handler: (input) => {
      const w = start(`Waiting for confirmation to delete ${input.filename}.`);
      Object.assign(w, {
        state: 'input_required',
        questions: { confirm_delete: confirmForm(`Delete ${input.filename}?`) },
        whenAnswered: (a: InputAnswers) => ({ filename: input.filename, deleted: accepted(a.confirm_delete) }),
      });
      return { work_id: w.id };
    },
  }),
  defineTool({
    name: 'multi_input',
    toolset,
    description: 'Work that asks two questions at once; answered one at a time, it ends when both are in.',
    input: z.object({}),
    auth: 'public',
    durable: followedOnly,
    handler: () => {
      const w = start('Waiting for two answers.');
      Object.assign(w, {
        state: 'input_required',
        questions: { first: confirmForm('First: your name?', true), second: confirmForm('Second: your name?', true) },
        whenAnswered: (a: InputAnswers) => ({ first: (a.first as FormAnswer).content?.name ?? null, second: (a.second as FormAnswer).content?.name ?? null }),
      });
      return { work_id: w.id };
    },
  }),
  // Asks the person first (a multi round-trip on tools/call), then starts work that uses the answer: the final
  // round is answered with the task.
  defineTool({
    name: 'test_tool_with_task',
    toolset,
    description: "Asks the person's name, then greets them from a task.",
    input: z.object({}),
    auth: 'public',
    inputs: (_input, got) => ('user_name' in got ? null : { user_name: { kind: 'form', form: { message: 'What is your name?', fields: { name: { type: 'string' } }, required: ['name'] } } }),
    durable: followedOnly,
    handler: (_input, ctx) => {
      const name = String((ctx.answers?.user_name as FormAnswer | undefined)?.content?.name ?? 'friend');
      const w = start(`Greeting ${name}.`);
      after(w, 300, () => settle(w, 'succeeded', 'Greeted.', { greeting: `Hello, ${name}!` }));
      return { work_id: w.id };
    },
  }),
];
