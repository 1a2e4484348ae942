// The dev task's tier (and so its price, dev.simple/medium/complex) by fixed rules over the description, so
// the quote is the same for the same words every time and needs no model. Points:
//   size       80+ words: 1 · 200+: 2 · 500+: 3
//   list items (bullets or numbered lines, one requirement each)  4+: 1 · 8+: 2 · 13+: 3
//   topics     each matched once: concurrency 2; API, database, authentication, migration, refactor, tests,
//              several files/modules, security, performance, integration, real time, deployment, UI 1 each
// 0–2 points: simple · 3–5: medium · 6+: complex. The language does not count.

export type DevTier = 'simple' | 'medium' | 'complex';

export interface DevClassification {
  tier: DevTier;
  /** The price id of the tier in the commercial price table. */
  price_id: `dev.${DevTier}`;
  score: number;
  /** Each rule that scored, with its points: "api (+1)". */
  reasons: string[];
}

const TOPICS: { name: string; points: number; re: RegExp }[] = [
  { name: 'concurrency', points: 2, re: /\b(concurren(t|cy)|parallel(ism|ize)?|multi-?thread(ed|ing)?|threads?|race conditions?|mutex(es)?|locking|deadlocks?|distributed|job queues?|worker pools?)\b/ },
  { name: 'api', points: 1, re: /\b(apis?|endpoints?|rest(ful)?|graphql|grpc|webhooks?|http server)\b/ },
  { name: 'database', points: 1, re: /\b(databases?|db|sql|postgres(ql)?|mysql|sqlite|mongo(db)?|redis|orm|schemas?|indexes)\b/ },
  { name: 'authentication', points: 1, re: /\b(auth|authenticat(e|ion)|authoriz(e|ation)|oauth2?|jwt|log[- ]?in|sign[- ]?(in|up)|sso|permissions?|rbac|roles)\b/ },
  { name: 'migration', points: 1, re: /\b(migrat(e|es|ed|ing|ion|ions))\b/ },
  { name: 'refactor', points: 1, re: /\b(refactor(s|ed|ing)?|rewrite|re-?architect(ure)?)\b/ },
  { name: 'tests', points: 1, re: /\b(tests?|testing|test suite|coverage|tdd)\b/ },
  { name: 'multi-file', points: 1, re: /\b(multi(ple)?[- ]files?|several (files|modules|services)|multi-?module|modules|packages|monorepo|micro-?services?|architecture|full[- ]stack|end[- ]to[- ]end)\b/ },
  { name: 'security', points: 1, re: /\b(security|secure|encrypt(ed|ion)?|crypto(graphy|graphic)?|vulnerabilit(y|ies)|xss|csrf|sanitiz(e|ation))\b/ },
  { name: 'performance', points: 1, re: /\b(performance|optimi[sz](e|ation)|scal(e|able|ability|ing)|latency|throughput|caching|cache)\b/ },
  { name: 'integration', points: 1, re: /\b(third[- ]party|integrat(e|ion|ions)|payments?|stripe|billing)\b/ },
  { name: 'real time', points: 1, re: /\b(real[- ]?time|websockets?|streaming|server-sent events)\b/ },
  { name: 'deployment', points: 1, re: /\b(deploy(ment|ing)?|docker(file)?|kubernetes|k8s|ci\/cd|pipelines?|terraform)\b/ },
  { name: 'ui', points: 1, re: /\b(ui|frontend|front-end|react|vue|angular|svelte|dashboard)\b/ },
];

const steps = (n: number, at: number[]): number => at.filter((t) => n >= t).length;

export function classifyDevTask(input: { description: string; language?: string }): DevClassification {
  const text = input.description;
  const lower = text.toLowerCase();
  const reasons: string[] = [];
  let score = 0;
  const add = (why: string, points: number) => {
    if (points <= 0) return;
    score += points;
    reasons.push(`${why} (+${points})`);
  };
  const words = text.match(/\S+/g)?.length ?? 0;
  add(`${words} words`, steps(words, [80, 200, 500]));
  const items = text.split('\n').filter((l) => /^\s*([-*+•]|\d{1,3}[.)])\s+\S/.test(l)).length;
  add(`${items} listed requirements`, steps(items, [4, 8, 13]));
  for (const t of TOPICS) if (t.re.test(lower)) add(t.name, t.points);
  const tier: DevTier = score >= 6 ? 'complex' : score >= 3 ? 'medium' : 'simple';
  return { tier, price_id: `dev.${tier}`, score, reasons };
}
