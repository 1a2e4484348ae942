import { describe, expect, it } from 'vitest';
import { ansiStrip } from '../../../tools/calculators/ansi-strip.js';
import { callTool, callToolError, pureRegistry } from '../../helpers/call-tool.js';

const registry = pureRegistry([ansiStrip]);
const E = '\u001b';

describe('ansi_strip', () => {
  it.each([
    ['SGR colour', `${E}[31mred${E}[0m`, 'red', 2],
    ['OSC 8 hyperlink ended by BEL', `${E}]8;;http://x\u0007link${E}]8;;\u0007`, 'link', 2],
    ['OSC title ended by ST (ESC \\)', `${E}]0;title${E}\\text`, 'text', 1],
    ['8-bit CSI', '\u009b1mbold\u009b0m', 'bold', 2],
    ['8-bit OSC ended by 8-bit ST', '\u009d0;t\u009cx', 'x', 1],
    ['DCS (sixel)', `${E}Pq#0;2;0;0;0${E}\\after`, 'after', 1],
    ['APC (kitty graphics)', `${E}_Gf=100;AAAA${E}\\ok`, 'ok', 1],
    ['PM', `${E}^private${E}\\ok`, 'ok', 1],
    ['SOS', `${E}Xsos${E}\\ok`, 'ok', 1],
    ['8-bit DCS', '\u0090data\u009cok', 'ok', 1],
    ['SS3 with its character', `${E}OAup`, 'up', 1],
    ['SS2 with its character', `${E}Nxy`, 'y', 1],
    ['charset selection ESC ( B', `${E}(Bplain`, 'plain', 1],
    ['DEC screen test ESC # 8', `${E}#8x`, 'x', 1],
    ['save/restore cursor', `${E}7save${E}8`, 'save', 2],
    ['reverse index and reset', `${E}Mx${E}c`, 'x', 2],
    ['private CSI modes', `${E}[?25l${E}[?1049hscreen`, 'screen', 2],
    ['CSI with intermediate byte', `${E}[2 qcursor`, 'cursor', 1],
    ['cursor movement and erase', `a${E}[2K${E}[1;1Hb${E}[3Ac`, 'abc', 3],
    ['stray C1 control', 'a\u0085b', 'ab', 1],
    ['stray ESC at the end', `abc${E}`, 'abc', 1],
    ['stray ESC before a newline', `a${E}\nb`, 'a\nb', 1],
    ['malformed CSI cut by a newline', `${E}[12\nx`, '\nx', 1],
    ['unterminated OSC runs to the end', `a${E}]0;title`, 'a', 1],
    ['OSC aborted by a new escape', `${E}]0;t${E}[31mred`, 'red', 2],
    ['CAN cancels a control string', `${E}Pabc\u0018rest`, 'rest', 1],
    ['plain text with C0 controls is kept', 'plain\ttext\r\nding\u0007', 'plain\ttext\r\nding\u0007', 0],
    ['empty', '', '', 0],
  ])('%s', async (_name, text, clean, removed) => {
    const r = await callTool(registry, 'ansi_strip', { text });
    expect(r).toEqual({ text: clean, removed, original_length: [...text].length, length: [...clean].length });
  });

  it('counts lengths in code points and keeps non-ASCII text', async () => {
    const r = await callTool(registry, 'ansi_strip', { text: `héllo 🌍 ${E}[1m世界${E}[22m` });
    expect(r).toEqual({ text: 'héllo 🌍 世界', removed: 2, original_length: 19, length: 10 });
  });

  it('accepts exactly 1 MiB', async () => {
    const r = await callTool(registry, 'ansi_strip', { text: 'a'.repeat(1024 * 1024) });
    expect(r.length).toBe(1024 * 1024);
  });

  it.each([
    ['more than 1 MiB of ASCII', { text: 'a'.repeat(1024 * 1024 + 1) }],
    ['more than 1 MiB as UTF-8', { text: 'é'.repeat(524_289) }],
    ['text missing', {}],
    ['text not a string', { text: 42 }],
  ])('rejects %s with 422', async (_name, input) => {
    const err = await callToolError(registry, 'ansi_strip', input);
    expect(err.status).toBe(422);
    expect(err.detail?.[0].loc).toEqual(['text']);
  });
});
