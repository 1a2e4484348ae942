// Dev tasks: the deterministic tier rules on clear examples, and the deliverable that must carry code in the
// ordered language, revised with the client's notes.
import { afterEach, describe, expect, it } from 'vitest';
import { codeBlocks, normalizeLanguage } from '../../tools/commercial/content/code-blocks.js';
import { classifyDevTask } from '../../tools/commercial/content/dev-tiers.js';
import { parseDevTask, produceDevTask } from '../../tools/commercial/content/dev-task.js';
import { ContentShapeError } from '../../tools/commercial/content/errors.js';
import { DevTaskInput } from '../../tools/commercial/content/schemas.js';
import { startScriptedLlm, type ScriptedLlm } from '../helpers/scripted-llm.js';

let server: ScriptedLlm | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const SIMPLE = 'Write a Python function that checks whether a string is a palindrome, ignoring case and spaces.';
const MEDIUM = 'Build a small REST API in Express with CRUD endpoints for todo items stored in SQLite, with unit tests.';
const COMPLEX = `Refactor our order service into separate modules and make the job queue safe under concurrency.
- Migrate the database schema to add an idempotency key
- Add OAuth2 authentication to every endpoint
- Keep the existing REST API stable
- Add integration tests for the race conditions
- Document the deployment with Docker`;

describe('classifyDevTask', () => {
  it('puts clear examples in their tiers, with the reasons and the price id', () => {
    expect(classifyDevTask({ description: SIMPLE, language: 'python' })).toEqual({ tier: 'simple', price_id: 'dev.simple', score: 0, reasons: [] });
    const m = classifyDevTask({ description: MEDIUM, language: 'javascript' });
    expect(m).toMatchObject({ tier: 'medium', price_id: 'dev.medium', score: 3 });
    expect(m.reasons).toEqual(['api (+1)', 'database (+1)', 'tests (+1)']);
    const c = classifyDevTask({ description: COMPLEX, language: 'go' });
    expect(c.tier).toBe('complex');
    expect(c.reasons).toEqual(expect.arrayContaining(['5 listed requirements (+1)', 'concurrency (+2)', 'migration (+1)', 'refactor (+1)', 'authentication (+1)']));
  });

  it('length and listed requirements alone raise the tier', () => {
    const long = Array.from({ length: 60 }, (_, i) => `Line ${i}: the widget shows its label and colour.`).join(' ');
    expect(classifyDevTask({ description: long })).toMatchObject({ tier: 'medium', reasons: ['540 words (+3)'] });
    const bullets = Array.from({ length: 13 }, (_, i) => `- requirement number ${i}`).join('\n');
    expect(classifyDevTask({ description: bullets })).toMatchObject({ tier: 'medium', score: 3 });
  });

  it('is deterministic: the same input gives the same answer, every time', () => {
    const first = classifyDevTask({ description: COMPLEX, language: 'go' });
    for (let i = 0; i < 20; i++) expect(classifyDevTask({ description: COMPLEX, language: 'go' })).toEqual(first);
    expect(classifyDevTask({ description: COMPLEX, language: 'rust' })).toEqual(first); // the language does not count
  });
});

describe('code blocks', () => {
  it('reads ``` and ~~~ fences with their tags, and notices one left open', () => {
    const md = 'Intro\n\n```ts\nconst a = 1;\n```\n\n~~~python\nprint(1)\n~~~\n\n````\nraw ``` inside\n````\n\n```js\nnever closed';
    const f = codeBlocks(md);
    expect(f.blocks).toEqual([
      { tag: 'ts', code: 'const a = 1;' },
      { tag: 'python', code: 'print(1)' },
      { tag: '', code: 'raw ``` inside' },
    ]);
    expect(f.unclosed).toBe(true);
  });

  it('knows a language by its usual tags', () => {
    expect(['ts', 'TypeScript (Node 20)', 'tsx'].map(normalizeLanguage)).toEqual(['typescript', 'typescript', 'typescript']);
    expect(['py', 'Python 3', 'python3'].map(normalizeLanguage)).toEqual(['python', 'python', 'python']);
    expect(['c++', 'cpp', 'C#', 'cs', 'golang', 'Node.js'].map(normalizeLanguage)).toEqual(['cpp', 'cpp', 'csharp', 'csharp', 'go', 'javascript']);
  });
});

const DELIVERABLE = `## Summary
A palindrome checker that ignores case and spaces.

## Code
\`\`\`py
def is_palindrome(s: str) -> bool:
    t = "".join(s.lower().split())
    return t == t[::-1]
\`\`\`

## How to run
\`\`\`bash
python -c "from pal import is_palindrome; print(is_palindrome('Never odd or even'))"
\`\`\`

## How to test
\`\`\`python
def test_it():
    assert is_palindrome("Race car")
\`\`\``;

describe('the dev deliverable', () => {
  it('keeps the Markdown, every block with its language, and the summary', () => {
    const r = parseDevTask(DELIVERABLE, 'Python');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.summary).toBe('A palindrome checker that ignores case and spaces.');
    expect(r.value.code_blocks.map((b) => b.language)).toEqual(['py', 'bash', 'python']);
    expect(r.value.markdown).toBe(DELIVERABLE);
  });

  it('needs a block in the ordered language: none, or only shell, or one cut off, is a miss', () => {
    expect(parseDevTask('Just do it like this: call the function.', 'Python')).toEqual({ ok: false, problems: ['no fenced code block: put the code in ```python … ``` blocks'] });
    expect(parseDevTask('Run:\n```bash\nnpm start\n```', 'TypeScript')).toEqual({ ok: false, problems: ['no code block in TypeScript: the code blocks found are tagged bash'] });
    const cut = parseDevTask('## Code\n```python\ndef f():\n    return', 'python');
    expect(!cut.ok && cut.problems[0]).toMatch(/never closed/);
    expect(parseDevTask('```\nfn main() {}\n```', 'Rust').ok).toBe(true); // untagged counts
  });

  it('produceDevTask: a reply without code is sent back, the next is delivered; usage summed', async () => {
    server = await startScriptedLlm([
      { content: 'Here is how you would approach it: normalise, then compare.', usage: { prompt_tokens: 40, completion_tokens: 20, total_tokens: 60 } },
      { content: DELIVERABLE, usage: { prompt_tokens: 90, completion_tokens: 120, total_tokens: 210 } },
    ]);
    const out = await produceDevTask({ description: SIMPLE, language: 'Python' }, server.llm());
    expect(out.attempts).toBe(2);
    expect(out.usage).toEqual({ prompt_tokens: 130, completion_tokens: 140, total_tokens: 270 });
    expect(out.deliverable.code_blocks).toHaveLength(3);
    const first = server.requests[0].body;
    expect(first.messages[0].role).toBe('system');
    expect(first.messages[1].content).toContain('simple development task in Python');
    expect(first.messages[1].content).toContain('```python');
    expect(server.requests[1].body.messages[3].content).toContain('no fenced code block');
  });

  it('produceDevTask: a revision sends the previous deliverable and the notes', async () => {
    server = await startScriptedLlm([DELIVERABLE]);
    const previous = parseDevTask(DELIVERABLE, 'python');
    if (!previous.ok) throw new Error('fixture');
    await produceDevTask({ description: SIMPLE, language: 'Python' }, server.llm(), { previous: previous.value, revisionNotes: 'Also ignore punctuation.' });
    const msgs = server.requests[0].body.messages;
    expect(msgs.map((m: { role: string }) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(msgs[2].content).toBe(DELIVERABLE);
    expect(msgs[3].content).toContain('Also ignore punctuation.');
    expect(msgs[3].content).toContain('complete revised deliverable');
  });

  it('produceDevTask: no code after the attempts is ContentShapeError; a model failure is upstream_error', async () => {
    server = await startScriptedLlm(['no code', 'still no code', { status: 503, error: { message: 'overloaded' } }]);
    const err = await produceDevTask({ description: SIMPLE, language: 'Python' }, server.llm(), { attempts: 2 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ContentShapeError);
    expect((err as ContentShapeError).attempts).toBe(2);
    const down = await produceDevTask({ description: SIMPLE, language: 'Python' }, server.llm()).catch((e: unknown) => e);
    expect(down).toMatchObject({ code: 'upstream_error', status: 502 });
    expect(down).not.toBeInstanceOf(ContentShapeError);
  });
});

describe('DevTaskInput', () => {
  it('description ≤ 8000, language ≤ 40', () => {
    expect(DevTaskInput.safeParse({ description: 'x', language: 'Go' }).success).toBe(true);
    expect(DevTaskInput.safeParse({ description: 'x'.repeat(8001), language: 'Go' }).success).toBe(false);
    expect(DevTaskInput.safeParse({ description: 'x', language: 'l'.repeat(41) }).success).toBe(false);
  });
});
