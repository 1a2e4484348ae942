// LoCoMo (snap-research/locomo, CC BY-NC 4.0): long conversations whose questions name the turns that answer them.
// A conversation is stored as memory the way an agent would keep it, one entry per turn: the namespace
// locomo-<id>, the turn's id as key, {speaker, text, date, image?} as value, written at its session's time (one
// second apart within a session); then each question (but the adversarial category 5) is asked as it is written,
// and it counts as found at k when one of its evidence turns is among the first k results. Shared by the recall
// test and `npm run bench -- recall`; scripts/locomo-data.mjs rebuilds the data from the benchmark's archive.
import fs from 'node:fs';
import { gunzipSync } from 'node:zlib';

export interface LocomoTurn {
  id: string;
  speaker: string;
  text: string;
  image?: string;
}
export interface LocomoConversation {
  id: string;
  speakers: [string, string];
  sessions: { date: string; turns: LocomoTurn[] }[];
  qa: { q: string; evidence: string[]; category: number }[];
}

/** Developed and tuned on these; the other five are kept aside to see whether the method generalises. */
export const LOCOMO_DEV = ['26', '30', '41', '42', '43'];

export const loadLocomo = (): LocomoConversation[] =>
  JSON.parse(gunzipSync(fs.readFileSync(new URL('../../bench/datasets/locomo10.json.gz', import.meta.url))).toString('utf8')) as LocomoConversation[];

export const loadLocomoConversation26 = (): LocomoConversation =>
  JSON.parse(fs.readFileSync(new URL('../fixtures/locomo/conv-26.json', import.meta.url), 'utf8')) as LocomoConversation;

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** "1:56 pm on 8 May, 2023" as milliseconds (UTC). */
export function sessionTime(s: string): number {
  const m = /^(\d{1,2}):(\d{2})\s*(am|pm) on (\d{1,2}) ([A-Za-z]+),? (\d{4})$/i.exec(s.trim());
  if (!m || !MONTHS.includes(m[5].toLowerCase())) throw new Error(`unreadable session date: ${s}`);
  const hour = (Number(m[1]) % 12) + (m[3].toLowerCase() === 'pm' ? 12 : 0);
  return Date.UTC(Number(m[6]), MONTHS.indexOf(m[5].toLowerCase()), Number(m[4]), hour, Number(m[2]));
}

export const locomoNamespace = (c: LocomoConversation) => `locomo-${c.id}`;

/** The conversation as memory_import JSON Lines. */
export function locomoJsonl(c: LocomoConversation): string {
  const lines: string[] = [];
  for (const s of c.sessions) {
    const start = sessionTime(s.date);
    s.turns.forEach((t, i) => {
      const at = new Date(start + i * 1000).toISOString();
      const value = { speaker: t.speaker, text: t.text, date: s.date, ...(t.image ? { image: t.image } : {}) };
      lines.push(JSON.stringify({ namespace: locomoNamespace(c), key: t.id, created_at: at, versions: [{ version: 1, value, written_at: at }] }));
    });
  }
  return lines.join('\n');
}

/** Evidence turn ids as the keys were written ("D8:6; D9:17" is two; "D30:05" is D30:5). */
export const evidenceKeys = (evidence: string[]): string[] =>
  evidence
    .flatMap((e) => e.split(/[;,\s]+/))
    .map((e) => /^D(\d+):(\d+)$/.exec(e.trim()))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => `D${Number(m[1])}:${Number(m[2])}`);

export interface Recall {
  questions: number;
  at1: number;
  at5: number;
  at10: number;
}

/** Recall@1/5/10 of a search (question → result keys, best first) over a conversation's questions. */
export async function locomoRecall(c: LocomoConversation, search: (q: string) => Promise<string[]>): Promise<Recall> {
  const r: Recall = { questions: 0, at1: 0, at5: 0, at10: 0 };
  for (const qa of c.qa) {
    if (qa.category === 5) continue;
    const evidence = new Set(evidenceKeys(qa.evidence));
    const at = (await search(qa.q)).findIndex((k) => evidence.has(k));
    r.questions++;
    if (at === 0) r.at1++;
    if (at >= 0 && at < 5) r.at5++;
    if (at >= 0 && at < 10) r.at10++;
  }
  return r;
}
