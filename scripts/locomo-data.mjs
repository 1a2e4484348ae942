#!/usr/bin/env node
// Rebuilds the LoCoMo data the recall bench and test read, from the benchmark's own archive (snap-research/locomo,
// data/locomo10.zip; CC BY-NC 4.0, by Maharana et al., "Evaluating Very Long-Term Conversational Memory of LLM
// Agents", ACL 2024). Kept: each conversation's speakers, sessions (date and turns: id, speaker, text, the caption of
// a shared image) and questions (text, evidence turn ids, category). Answers are left out: retrieval is measured.
//
//   node scripts/locomo-data.mjs path/to/locomo10.zip
// writes bench/datasets/locomo10.json.gz (all ten) and test/fixtures/locomo/conv-26.json (the test's conversation).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const zip = process.argv[2];
if (!zip) throw new Error('usage: node scripts/locomo-data.mjs path/to/locomo10.zip');
const IDS = ['26', '30', '41', '42', '43', '44', '47', '48', '49', '50'];

const read = (id) => JSON.parse(execFileSync('unzip', ['-p', zip, `data/multimodal_dialog/locomo10_v2/${id}.json`], { maxBuffer: 64 << 20 }).toString('utf8'));

function compact(id) {
  const d = read(id);
  const sessions = [];
  for (let n = 1; d[`session_${n}`]; n++) {
    sessions.push({
      date: d[`session_${n}_date_time`],
      turns: d[`session_${n}`].map((t) => ({ id: t.dia_id, speaker: t.speaker, text: t.text, ...(t.blip_caption ? { image: t.blip_caption } : {}) })),
    });
  }
  return { id, speakers: [d.speaker_a, d.speaker_b], sessions, qa: d.qa.map((q) => ({ q: q.question, evidence: q.evidence, category: q.category })) };
}

const all = IDS.map(compact);
fs.mkdirSync(path.join(root, 'bench/datasets'), { recursive: true });
fs.writeFileSync(path.join(root, 'bench/datasets/locomo10.json.gz'), gzipSync(JSON.stringify(all), { level: 9 }));
fs.mkdirSync(path.join(root, 'test/fixtures/locomo'), { recursive: true });
fs.writeFileSync(path.join(root, 'test/fixtures/locomo/conv-26.json'), `${JSON.stringify(all[0])}\n`);
process.stdout.write(`${all.length} conversations, ${all.reduce((n, c) => n + c.qa.length, 0)} questions\n`);
