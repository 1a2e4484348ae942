// Fenced code blocks of a Markdown reply (``` or ~~~, CommonMark's closing rule: the same character, at least
// as long), and whether a block is in the ordered language: its tag is compared through common aliases
// ("ts" is TypeScript, "py" Python, "c++" cpp); an untagged block counts as the ordered language.

export interface CodeBlock {
  /** The block's tag as written ('' when untagged). */
  tag: string;
  code: string;
}

export interface Fences {
  blocks: CodeBlock[];
  /** A fence opened and never closed: the reply was cut off. */
  unclosed: boolean;
}

export function codeBlocks(markdown: string): Fences {
  const blocks: CodeBlock[] = [];
  let open: { fence: string; tag: string; lines: string[] } | undefined;
  for (const line of markdown.split('\n')) {
    const f = line.match(/^\s{0,3}(`{3,}|~{3,})\s*([^`\s]*)[^`]*$/);
    if (!open) {
      if (f) open = { fence: f[1], tag: f[2].replace(/^\{?\.?/, '').replace(/[},].*$/, ''), lines: [] };
    } else if (f && f[1][0] === open.fence[0] && f[1].length >= open.fence.length && !f[2]) {
      blocks.push({ tag: open.tag, code: open.lines.join('\n') });
      open = undefined;
    } else open.lines.push(line);
  }
  return { blocks, unclosed: open !== undefined };
}

const ALIASES: Record<string, string> = {
  ts: 'typescript', tsx: 'typescript', mts: 'typescript', cts: 'typescript',
  js: 'javascript', jsx: 'javascript', mjs: 'javascript', cjs: 'javascript', node: 'javascript', nodejs: 'javascript', 'node.js': 'javascript', ecmascript: 'javascript',
  py: 'python', py3: 'python', python3: 'python', python2: 'python',
  rb: 'ruby', rs: 'rust', golang: 'go', kt: 'kotlin', kts: 'kotlin', scala: 'scala',
  'c++': 'cpp', cc: 'cpp', cxx: 'cpp', hpp: 'cpp', h: 'c',
  'c#': 'csharp', cs: 'csharp', dotnet: 'csharp', '.net': 'csharp', 'f#': 'fsharp', fs: 'fsharp',
  sh: 'shell', bash: 'shell', zsh: 'shell', shell: 'shell', shellscript: 'shell', ps1: 'powershell', pwsh: 'powershell',
  'objective-c': 'objectivec', objc: 'objectivec', pl: 'perl', ex: 'elixir', exs: 'elixir', hs: 'haskell', erl: 'erlang',
  yml: 'yaml', psql: 'sql', postgresql: 'sql', postgres: 'sql', mysql: 'sql', sqlite: 'sql', plsql: 'sql', tsql: 'sql',
  tf: 'terraform', hcl: 'terraform', htm: 'html', 'vb.net': 'vbnet', vb: 'vbnet', solidity: 'solidity', sol: 'solidity',
};

/** A language name or tag in one spelling: "TypeScript (Node 20)" → typescript, "py" → python. */
export function normalizeLanguage(name: string): string {
  const first = name.trim().toLowerCase().split(/[\s(/,;]+/)[0] ?? '';
  return ALIASES[first] ?? first;
}

export function isInLanguage(block: CodeBlock, language: string): boolean {
  return !block.tag || normalizeLanguage(block.tag) === normalizeLanguage(language);
}
