// resources/read: which resource template a concrete URI belongs to, and the values of its variables.

/** Matches a concrete URI against a level-1 template; returns its variables or null. */
export function matchTemplate(template: string, uri: string): Record<string, string> | null {
  const names: string[] = [];
  const pattern = template
    .split(/(\{\w+\})/)
    .map((part) => {
      const m = /^\{(\w+)\}$/.exec(part);
      if (!m) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(m[1]);
      return '([^/]+)';
    })
    .join('');
  const found = new RegExp(`^${pattern}$`).exec(uri);
  if (!found) return null;
  return Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(found[i + 1])]));
}
