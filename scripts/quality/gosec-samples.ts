// gosec's labelled samples (test/fixtures/quality/gosec/testutils/g*_samples.go, from securego/gosec): each
// SampleCodeGxxx variable is a list of {files, expected issue count, config}; gosec's rule tests run rule Gxxx
// alone on each sample and expect exactly that count. Read here with ast-grep's Go parser, not regexes: the code is
// in raw strings, some joined with "+" to quoted strings (struct tags carry backquotes).
import fs from 'node:fs';
import path from 'node:path';
import { parse, type SgNode } from '@ast-grep/napi';
import { registerLanguages } from '../../tools/commercial/review/ast-grep-rules.js';

export interface GosecSample {
  /** gosec's rule id: G101… */
  rule: string;
  /** The variable and the index in it: SampleCodeG201[3]. */
  name: string;
  /** The Go files of the sample (most have one). */
  files: string[];
  /** The issue count gosec's rule test expects from that rule alone; 0 is a safe case. */
  expected: number;
  /** The sample runs with a non-default gosec config (audit mode, a rule option). */
  configured: boolean;
}

export const GOSEC_DIR = path.join(path.dirname(new URL(import.meta.url).pathname), '..', '..', 'test', 'fixtures', 'quality', 'gosec');

export function gosecSamples(dir = GOSEC_DIR): GosecSample[] {
  registerLanguages();
  const out: GosecSample[] = [];
  const folder = path.join(dir, 'testutils');
  for (const name of fs.readdirSync(folder).sort()) {
    const root = parse('go', fs.readFileSync(path.join(folder, name), 'utf8')).root();
    for (const spec of root.findAll({ rule: { kind: 'var_spec', has: { field: 'name', regex: '^SampleCodeG\\d+' } } })) {
      const varName = spec.field('name')!.text();
      const rule = varName.match(/^SampleCode(G\d+)/)![1]!;
      const list = spec.find({ rule: { kind: 'composite_literal', has: { field: 'type', regex: '^\\[\\]CodeSample$' } } });
      const items = list?.field('body')?.namedChildren().filter((c) => c.kind() === 'literal_element') ?? [];
      items.forEach((item, i) => {
        // Positional {[]string{…}, 1, cfg} or keyed {Code: []string{…}, Errors: 1, Config: cfg}.
        const fields = item.namedChildren()[0]?.namedChildren().filter((c) => c.kind() === 'literal_element' || c.kind() === 'keyed_element') ?? [];
        const keyed = new Map(fields.filter((f) => f.kind() === 'keyed_element').map((f) => [f.namedChildren()[0]!.text(), f.namedChildren()[1]!]));
        const [codeEl, countEl, configEl] = keyed.size ? [keyed.get('Code'), keyed.get('Errors'), keyed.get('Config')] : fields;
        const code = codeEl?.find({ rule: { kind: 'literal_value' } });
        const count = Number(countEl?.text());
        if (!code || !Number.isInteger(count)) throw new Error(`${name}: ${varName}[${i}] is not {[]string{…}, count, config}`);
        const files = code.namedChildren().filter((c) => c.kind() === 'literal_element').map((e) => goString(e.namedChildren()[0]!));
        out.push({ rule, name: `${varName}[${i}]`, files, expected: count, configured: !/^gosec\.NewConfig\(\)$/.test(configEl?.text() ?? 'gosec.NewConfig()') });
      });
    }
  }
  return out;
}

/** The value of a Go string expression: raw and interpreted literals joined with +. */
function goString(n: SgNode): string {
  switch (n.kind()) {
    case 'raw_string_literal':
      return n.text().slice(1, -1).replace(/\r/g, '');
    case 'interpreted_string_literal':
      return JSON.parse(n.text().replace(/\\'/g, "'")) as string;
    case 'binary_expression':
      return goString(n.field('left')!) + goString(n.field('right')!);
    case 'parenthesized_expression':
      return goString(n.namedChildren()[0]!);
    default:
      throw new Error(`not a string literal: ${n.text().slice(0, 40)}`);
  }
}
