// The repository stands alone: every relative link in its Markdown points to a file inside it that exists
// (anchors aside), so a reader never lands outside the checkout or on a moved page.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers/paths.js';

const markdown = execFileSync('git', ['ls-files', '*.md'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
/** Inline links and images: [text](target) — the target up to a space, a closing parenthesis or a `#`. */
const LINK = /\]\(([^)\s#]*)(#[^)\s]*)?\)/g;

describe('Markdown links', () => {
  it('finds the documentation', () => {
    expect(markdown).toEqual(expect.arrayContaining(['README.md', 'docs/architecture.md', 'docs/decisions/README.md']));
  });

  it('point only to files inside the repository that exist', () => {
    const broken: string[] = [];
    for (const file of markdown) {
      const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
      for (const [, target] of text.matchAll(LINK)) {
        if (!target || /^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // same-page anchor, or a URL
        const resolved = path.resolve(ROOT, path.dirname(file), target);
        const inside = resolved === ROOT || resolved.startsWith(ROOT + path.sep);
        if (!inside || !fs.existsSync(resolved)) broken.push(`${file}: ${target}${inside ? '' : ' (outside the repository)'}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
