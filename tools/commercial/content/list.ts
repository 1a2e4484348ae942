// A list deliverable (5 ads, 5 emails, 10 descriptions, 10 posts) read from a reply: JSON when the reply is
// JSON, a Markdown table when it has one, else each layout of sections.ts in turn. The first reading with
// enough good items wins (a sixth variation, or one bad item among six, costs nothing); when none has, the
// problems reported are those of the reading that came closest.
import type { Parsed } from './attempts.js';
import { jsonFields, readFields, type Fields, type FieldSpecs } from './fields.js';
import { cleanReply, jsonItems, parseJsonReply } from './reply.js';
import { splitSections, type Section } from './sections.js';
import { readTables } from './tables.js';

export interface ListKind<K extends string, T> {
  /** One item, as the model is told of it: "ad variation". */
  noun: string;
  count: number;
  /** Words that mark an item: "variation", "ad". */
  words: string[];
  /** Keys a JSON reply may hold the items under. */
  jsonKeys: string[];
  fields: FieldSpecs<K>;
  /** Fields that start an item (its first field). */
  lead: K[];
  /** Items may be bare paragraphs (posts). */
  paragraphs?: boolean;
  /** The item from its fields, the lines no field took and its section's title; or what is wrong with it. */
  build(fields: Fields<K>, rest: string, section: Section): T | string[];
}

type Reading<T> = { items: T[]; problems: string[] };

function read<K extends string, T>(kind: ListKind<K, T>, sections: { fields: Fields<K>; rest: string; section: Section }[]): Reading<T> {
  const items: T[] = [];
  const problems: string[] = [];
  sections.forEach((s, i) => {
    const built = kind.build(s.fields, s.rest, s.section);
    if (Array.isArray(built)) problems.push(...built.map((p) => `${kind.noun} ${i + 1}: ${p}`));
    else items.push(built);
  });
  return { items, problems };
}

/** The fields of a Markdown section: its title line counts when it is itself a field ("## Subject: Hi"). */
function sectionFields<K extends string>(section: Section, specs: FieldSpecs<K>) {
  const titleIsField = section.title && Object.keys(readFields(section.title, specs).fields).length > 0;
  const { fields, rest } = readFields(titleIsField ? `${section.title}\n${section.body}` : section.body, specs);
  return { fields, rest, section: titleIsField ? { ...section, title: '' } : section };
}

export function parseList<K extends string, T>(text: string, kind: ListKind<K, T>): Parsed<T[]> {
  const clean = cleanReply(text);
  if (!clean) return { ok: false, problems: ['the reply was empty'] };
  const readings: Reading<T>[] = [];
  const json = jsonItems(parseJsonReply(clean), kind.jsonKeys);
  if (json) {
    readings.push(read(kind, json.map((item) => ({
      fields: jsonFields(item, kind.fields),
      rest: typeof item === 'string' ? item : '',
      section: { title: '', body: '', heading: false },
    }))));
  }
  for (const rows of readTables(clean)) readings.push(read(kind, rows.map((row) => ({ fields: jsonFields(row, kind.fields), rest: '', section: { title: '', body: '', heading: false } }))));
  const labels = (keys: K[]) => keys.flatMap((k) => kind.fields[k].aliases);
  for (const sections of splitSections(clean, { words: kind.words, leadLabels: labels(kind.lead), fieldLabels: labels(Object.keys(kind.fields) as K[]), paragraphs: kind.paragraphs })) {
    readings.push(read(kind, sections.map((s) => sectionFields(s, kind.fields))));
  }
  const done = readings.find((r) => r.items.length >= kind.count);
  if (done) return { ok: true, value: done.items.slice(0, kind.count) };
  const best = readings.reduce<Reading<T> | undefined>((b, r) => (!b || r.items.length > b.items.length ? r : b), undefined);
  const found = best?.items.length ?? 0;
  return {
    ok: false,
    problems: [`found ${found} usable ${kind.noun}${found === 1 ? '' : 's'}; exactly ${kind.count} are needed`, ...(best?.problems ?? []).slice(0, 10)],
  };
}
