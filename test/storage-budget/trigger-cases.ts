// The storage budget's triggers (migration 044) as cases of the differential trigger test
// (test/store/pg-schema-triggers.test.ts): the same literal SQL on SQLite and PostgreSQL, the same rows after, the same
// refusal. Every trigger of 044 is named by a case here.

interface Case {
  name: string;
  triggers: string[];
  steps: (string | { sqlite: string; pg: string })[];
  check: string[];
  rejects?: string;
}

const agent = (id: string, handle: string) => `INSERT INTO agents (id, handle, secret_hash, created_at) VALUES ('${id}', '${handle}', 'h_${id}', 1000)`;
const AGENTS = [agent('a1', 'alice'), agent('a2', 'bob')];
const budget = (bytes: number) => `INSERT INTO gateway_settings (key, value) VALUES ('storage_budget_bytes', '${bytes}') ON CONFLICT (key) DO UPDATE SET value = excluded.value`;
const entry = (agentId: string | null, key: string, size: number, t = 2000) =>
  `INSERT INTO memory_entries (agent_id, namespace, key, value, size, tags, version, created_at, updated_at)
   VALUES (${agentId ? `'${agentId}'` : 'NULL'}, 'notes', '${key}', '"${'v'.repeat(size - 2)}"', ${size}, '[]', 1, ${t}, ${t})`;
const bump = (agentId: string, key: string, size: number, t: number) =>
  `UPDATE memory_entries SET value = '"${'w'.repeat(size - 2)}"', size = ${size}, version = version + 1, updated_at = ${t} WHERE agent_id = '${agentId}' AND key = '${key}'`;
const version = (agentId: string, key: string, v: number, size: number) =>
  `INSERT INTO memory_versions (entry_id, version, value, size, written_at) SELECT id, ${v}, '"${'o'.repeat(size - 2)}"', ${size}, 1500 FROM memory_entries WHERE agent_id = '${agentId}' AND key = '${key}'`;
const settle = (agentId: string) => `UPDATE memory_usage SET bytes = bytes WHERE agent_id = '${agentId}'`;
const ACCOUNT = "INSERT INTO revenue_accounts (id, email, name, key_hash, key_hint, client_hash, created_at) VALUES ('acct1', 'a@x', 'A', 'kh', 'rk_', 'ch', 1)";
const order = (id: string) =>
  `INSERT INTO orders (id, account_id, service, price_id, status, price, rail, hold_ref, hold_amount, payment_state, input, created_at, updated_at)
   VALUES ('${id}', 'acct1', 'seo', 'p1', 'placed', 100, 'credits', 'h_${id}', 120, 'held', '{"url":"https://example.com"}', 1, 1)`;

const USAGE = 'SELECT owner_id, bytes FROM storage_usage ORDER BY owner_id';
const MEMORY = 'SELECT * FROM memory_usage ORDER BY agent_id';

export const storageBudgetCases: Case[] = [
  {
    name: 'storage budget: memory entries and their history are charged as each write settles, pruned versions given back',
    triggers: ['storage_charges_apply', 'memory_usage_storage_ai', 'memory_usage_storage_au', 'memory_versions_storage_ai', 'memory_versions_storage_ad'],
    steps: [
      ...AGENTS, budget(100_000), "UPDATE gateway_settings SET value = '2' WHERE key = 'memory_versions_kept'",
      entry('a1', 'k1', 100), entry('a1', 'k2', 40), entry(null, 'scratch', 500), entry('a2', 'k1', 10),
      bump('a1', 'k1', 60, 3000), bump('a1', 'k1', 80, 4000), bump('a1', 'k1', 20, 5000),
      // An import writes versions itself, then settles: they are charged too.
      version('a2', 'k1', 0, 30), settle('a2'),
    ],
    check: [USAGE, MEMORY],
  },
  {
    name: 'storage budget: a deleted entry gives back its value and its whole history; a deleted agent takes its counter',
    triggers: ['memory_entries_storage_bd', 'agents_storage_ad'],
    steps: [
      ...AGENTS, budget(100_000), entry('a1', 'k1', 100), bump('a1', 'k1', 50, 3000), bump('a1', 'k1', 70, 4000), entry('a1', 'k2', 10),
      entry('a2', 'k1', 30), "INSERT INTO wall_posts (agent_id, kind, text, topics, created_at) VALUES ('a2', 'note', 'hello', '[]', 1)",
      "DELETE FROM memory_entries WHERE agent_id = 'a1' AND key = 'k1'", "DELETE FROM agents WHERE id = 'a2'",
    ],
    check: [USAGE, MEMORY],
  },
  {
    name: 'storage budget: a memory write past it is refused whole (the value and the version it replaces)',
    triggers: ['storage_charges_apply', 'memory_usage_storage_au'],
    steps: [...AGENTS, budget(1000), entry('a1', 'k1', 200), entry('a2', 'k1', 600), bump('a1', 'k1', 300, 3000)],
    check: [USAGE, MEMORY, 'SELECT agent_id, key, version, size FROM memory_entries ORDER BY id', 'SELECT entry_id, version, size FROM memory_versions ORDER BY entry_id'],
    rejects: 'storage_budget_exceeded:456:556:1000',
  },
  {
    name: 'storage budget: artifacts, their bytes given back at expiry and the rest with the row',
    triggers: ['artifacts_storage_ai', 'artifacts_storage_au', 'artifacts_storage_ad'],
    steps: [
      ...AGENTS, budget(100_000),
      "INSERT INTO artifacts (id, agent_id, sha256, bytes, content_type, filename, created_at, expires_at) VALUES ('x1', 'a1', 's1', 1000, 'text/plain', 'a.txt', 1, 5), ('x2', 'a1', 's2', 50, 'image/png', 'b.png', 1, 9), ('x3', NULL, 's3', 70, 'text/plain', 'c', 1, 9)",
      'UPDATE artifacts SET bytes = 0 WHERE expires_at <= 5', "DELETE FROM artifacts WHERE id = 'x2'",
    ],
    check: [USAGE],
  },
  {
    name: 'storage budget: vault entries, replaced larger (checked) and smaller',
    triggers: ['vault_entries_storage_ai', 'vault_entries_storage_au', 'vault_entries_storage_ad'],
    steps: [
      ...AGENTS, budget(100_000),
      {
        sqlite: "INSERT INTO vault_entries (agent_id, name, kind, metadata, nonce, ciphertext, created_at, updated_at) VALUES ('a1', 'gh', 'token', '{}', x'00112233', x'aabbccddeeff', 1, 1), ('a1', 'x', 'note', '{\"a\":1}', x'01', x'02', 1, 1)",
        pg: "INSERT INTO vault_entries (agent_id, name, kind, metadata, nonce, ciphertext, created_at, updated_at) VALUES ('a1', 'gh', 'token', '{}', '\\x00112233', '\\xaabbccddeeff', 1, 1), ('a1', 'x', 'note', '{\"a\":1}', '\\x01', '\\x02', 1, 1)",
      },
      {
        sqlite: "UPDATE vault_entries SET ciphertext = x'aabbccddeeff0011', metadata = '{\"b\":2}' WHERE name = 'gh'",
        pg: "UPDATE vault_entries SET ciphertext = '\\xaabbccddeeff0011', metadata = '{\"b\":2}' WHERE name = 'gh'",
      },
      { sqlite: "UPDATE vault_entries SET ciphertext = x'aa' WHERE name = 'gh'", pg: "UPDATE vault_entries SET ciphertext = '\\xaa' WHERE name = 'gh'" },
      "DELETE FROM vault_entries WHERE name = 'x'",
    ],
    check: [USAGE],
  },
  {
    name: 'storage budget: posts, reactions, follows and mail sent, given back when they go',
    triggers: ['wall_posts_storage_ai', 'wall_posts_storage_ad', 'wall_reactions_storage_ai', 'wall_reactions_storage_ad', 'follows_storage_ai', 'follows_storage_ad', 'mail_storage_ai', 'mail_storage_ad'],
    steps: [
      ...AGENTS, budget(100_000),
      "INSERT INTO wall_posts (id, agent_id, kind, text, topics, created_at) VALUES (1, 'a1', 'note', 'héllo wall', '[\"ai\"]', 1), (2, 'a2', 'note', 'other', '[]', 2)",
      "INSERT INTO wall_reactions (post_id, agent_id, kind, created_at) VALUES (2, 'a1', 'like', 1), (2, 'a1', 'thanks', 1), (1, 'a2', 'like', 1)",
      "INSERT INTO follows (follower_id, followee_id, created_at) VALUES ('a1', 'a2', 1), ('a2', 'a1', 1)",
      "INSERT INTO mail (from_id, to_id, subject, body, created_at) VALUES ('a1', 'a2', 'hi', 'a letter', 1), ('a1', 'a2', '', 'another', 2)",
      "DELETE FROM wall_reactions WHERE agent_id = 'a1' AND kind = 'thanks'", "DELETE FROM follows WHERE follower_id = 'a2'",
      "UPDATE mail SET sender_deleted = 1 WHERE subject = 'hi'", "DELETE FROM mail WHERE subject = ''", 'DELETE FROM wall_posts WHERE id = 2',
    ],
    check: [USAGE],
  },
  {
    name: 'storage budget: jobs and handoffs checked when made, their outcomes charged unchecked past the budget',
    triggers: ['jobs_storage_ai', 'jobs_storage_au', 'jobs_storage_ad', 'handoffs_storage_ai', 'handoffs_storage_au', 'handoffs_storage_ad'],
    steps: [
      ...AGENTS, budget(1000),
      "INSERT INTO jobs (id, agent_id, type, input, status, callback_url, created_at, due_at) VALUES ('j1', 'a1', 'delay', '{\"ms\":1}', 'queued', 'https://cb.example', 1, 1), ('j2', NULL, 'delay', '{}', 'queued', NULL, 1, 1)",
      "INSERT INTO handoffs (id, agent_id, task, context, status, created_at, expires_at) VALUES ('h1', 'a1', 'check this', '{\"k\":1}', 'parked', 1, 9)",
      `UPDATE jobs SET status = 'succeeded', result = '{"out":"${'r'.repeat(600)}"}', finished_at = 2 WHERE id = 'j1'`,
      "UPDATE handoffs SET status = 'completed', result = '{\"ok\":true}', resolved_at = 2 WHERE id = 'h1'",
      "DELETE FROM handoffs WHERE id = 'h1'",
      "INSERT INTO jobs (id, agent_id, type, input, status, created_at, due_at) VALUES ('j3', 'a1', 'delay', '{}', 'queued', 1, 1)",
    ],
    check: [USAGE, 'SELECT id, status FROM jobs ORDER BY id'],
    rejects: 'storage_budget_exceeded:892:258:1000',
  },
  {
    name: 'storage budget: watches, webhook deliveries and MCP tasks',
    triggers: ['watches_storage_ai', 'watches_storage_ad', 'webhook_deliveries_storage_ai', 'webhook_deliveries_storage_ad', 'mcp_tasks_storage_ai', 'mcp_tasks_storage_ad'],
    steps: [
      ...AGENTS, budget(100_000),
      "INSERT INTO watches (id, agent_id, url, interval_hours, mode, selector, status, created_at, renewed_at, expires_at, owner_seen_at) VALUES ('w1', 'a1', 'https://example.com/p', 24, 'selector', 'main', 'active', 1, 1, 9, 1)",
      "INSERT INTO webhook_deliveries (source, ref, agent_id, url, body, secret, status, created_at) VALUES ('job', 'j1', 'a1', 'https://cb.example', '{\"done\":1}', 'whsec', 'pending', 1)",
      "INSERT INTO mcp_tasks (id, agent_id, tool, work_id, created_at, expires_at) VALUES ('t1', 'a2', 'job_create', 'job_1', 1, 9), ('t2', NULL, 'job_create', 'job_2', 1, 9)",
      "DELETE FROM watches WHERE id = 'w1'", "DELETE FROM mcp_tasks WHERE id = 't1'",
    ],
    check: [USAGE],
  },
  {
    name: "storage budget: an agent's A2A tasks checked when created, their progress unchecked; anonymous ones free",
    triggers: ['a2a_tasks_storage_ai', 'a2a_tasks_storage_au', 'a2a_tasks_storage_ad'],
    steps: [
      ...AGENTS, budget(100_000),
      "INSERT INTO a2a_tasks (id, context_id, agent_id, state, status, history, artifacts, created_at, updated_at) VALUES ('t1', 'c1', 'a1', 'submitted', '{\"state\":\"submitted\"}', '[]', '[]', 1, 1), ('t2', 'c2', NULL, 'submitted', '{}', '[]', '[]', 1, 1), ('t3', 'c3', 'a2', 'working', '{}', '[]', '[]', 1, 1)",
      "UPDATE a2a_tasks SET state = 'completed', status = '{\"state\":\"completed\"}', history = '[{\"text\":\"an answer\"}]', updated_at = 2 WHERE id = 't1'",
      "DELETE FROM a2a_tasks WHERE id = 't3'",
    ],
    check: [USAGE],
  },
  {
    name: "storage budget: a commercial account's orders, charged to the account",
    triggers: ['orders_storage_ai', 'orders_storage_au', 'orders_storage_ad'],
    steps: [
      ACCOUNT, budget(100_000), order('o1'), order('o2'),
      "UPDATE orders SET status = 'working', result = '{\"text\":\"the copy\"}', usage = '{\"tokens\":12}', produced_at = 2, updated_at = 2 WHERE id = 'o1'",
      "DELETE FROM orders WHERE id = 'o2'",
    ],
    check: [USAGE],
  },
];
