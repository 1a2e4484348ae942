// Names for PostgreSQL's prepared statements, so a statement a connection has run before skips parsing and
// planning (docs/decisions/postgres.md, "Prepared statements"). A name stands for one text with one set of
// parameter types (node-pg checks only the text behind a name, and a statement is prepared with its types).
// Each connection keeps what it prepared until it closes, so the names are bounded: the first `max` distinct
// statements get one, later ones run unnamed as before. The stores' statements are a fixed set, bar a few built
// with lists of varying length; the hot ones are met early and so are among the first named.
import { createHash } from 'node:crypto';

export class StatementNames {
  private readonly names = new Map<string, string>();

  constructor(private readonly max: number) {}

  /** The name of this statement with these parameter types, or undefined when it runs unnamed. */
  nameFor(text: string, oids: readonly number[] | null): string | undefined {
    const key = oids ? `${oids.join(',')}\u0000${text}` : text;
    const known = this.names.get(key);
    if (known !== undefined || this.names.size >= this.max) return known;
    const name = `gw_${createHash('sha1').update(key).digest('base64url')}`;
    this.names.set(key, name);
    return name;
  }
}
