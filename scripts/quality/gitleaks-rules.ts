// Rebuilds the secret scan's rule set (tools/commercial/review/secrets/gitleaks-rules.json) from gitleaks' default
// config, config/gitleaks.toml (MIT, © Zachary Rice; its LICENSE is copied beside the JSON). The regexes stay in
// RE2 syntax, as upstream writes them; the scan translates them to JavaScript when it loads them.
//   npx tsx scripts/quality/gitleaks-rules.ts <gitleaks checkout or bare git dir>
import { writeFileSync } from 'node:fs';
import { openGitleaks, providerName, providerOfRules } from './gitleaks/source.js';
import { parseToml, type Table } from './gitleaks/toml.js';

const OUT_DIR = 'tools/commercial/review/secrets';

interface Allowlist {
  description?: string;
  condition?: 'AND' | 'OR';
  regexTarget?: 'secret' | 'match' | 'line';
  regexes?: string[];
  stopwords?: string[];
  paths?: string[];
}

function allowlist(t: Table): Allowlist {
  const known = new Set(['description', 'condition', 'regexTarget', 'regexes', 'stopwords', 'paths']);
  for (const k of Object.keys(t)) if (!known.has(k)) throw new Error(`allowlist key ${k} is not handled`);
  return t as unknown as Allowlist;
}

function main(): void {
  const root = process.argv[2];
  if (!root) throw new Error('usage: gitleaks-rules.ts <gitleaks checkout or bare git dir>');
  const src = openGitleaks(root);
  const toml = parseToml(src.read('config/gitleaks.toml'));
  const providers = providerOfRules(src);
  const known = new Set(['id', 'description', 'regex', 'secretGroup', 'entropy', 'keywords', 'path', 'allowlists']);
  const rules = (toml.rules as Table[]).map((r) => {
    for (const k of Object.keys(r)) if (!known.has(k)) throw new Error(`rule ${String(r.id)}: key ${k} is not handled`);
    const id = r.id as string;
    const provider = providers.get(id);
    if (!provider) throw new Error(`rule ${id}: no rules/*.go defines it`);
    return {
      id,
      provider,
      description: r.description as string,
      ...(r.regex !== undefined && { regex: r.regex as string }),
      ...(r.secretGroup !== undefined && { secretGroup: r.secretGroup as number }),
      ...(r.entropy !== undefined && { entropy: r.entropy as number }),
      keywords: (r.keywords as string[] | undefined) ?? [],
      ...(r.path !== undefined && { path: r.path as string }),
      ...(r.allowlists !== undefined && { allowlists: (r.allowlists as Table[]).map(allowlist) }),
    };
  });
  const stems = [...new Set(rules.map((r) => r.provider))].sort();
  const out = {
    source: {
      repo: 'https://github.com/gitleaks/gitleaks',
      commit: src.commit,
      path: 'config/gitleaks.toml',
      license: 'MIT, Copyright (c) 2019 Zachary Rice (LICENSE.gitleaks beside this file)',
      rebuild: 'npx tsx scripts/quality/gitleaks-rules.ts <gitleaks checkout>',
    },
    providers: Object.fromEntries(stems.map((s) => [s, providerName(s)])),
    allowlist: allowlist(toml.allowlist as Table),
    rules,
  };
  writeFileSync(`${OUT_DIR}/gitleaks-rules.json`, `${JSON.stringify(out, null, 1)}\n`);
  writeFileSync(`${OUT_DIR}/LICENSE.gitleaks`, src.read('LICENSE'));
  process.stdout.write(`${rules.length} rules from gitleaks ${src.commit}\n`);
}

main();
