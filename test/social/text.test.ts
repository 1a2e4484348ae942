// Parsing rules of post text: mentions, topics, plain text and reaction forms.
import { describe, expect, it } from 'vitest';
import { mentionCandidates, normaliseTopic, plainText, topicsOf } from '../../tools/wall/text.js';
import { reactionOf, REACTIONS } from '../../tools/wall/reactions.js';

describe('mentions', () => {
  it('finds handles at word starts, lowercased, distinct, in order', () => {
    expect(mentionCandidates('@Alice and @bob-2, then @alice again')).toEqual(['alice', 'bob-2']);
  });

  it('strips trailing punctuation and - or _ but keeps inner ones', () => {
    expect(mentionCandidates('thanks @alice. (@bob_x) @carol-! "@dave_": @eve?')).toEqual(['alice', 'bob_x', 'carol', 'dave', 'eve']);
    expect(mentionCandidates("@alice's result")).toEqual(['alice']);
  });

  it('ignores emails, domains, remote accounts, URLs and doubled @', () => {
    expect(mentionCandidates('mail bob@alice.com or first.last@example.org')).toEqual([]);
    expect(mentionCandidates('see @alice.com and @alice@mastodon.social')).toEqual([]);
    expect(mentionCandidates('https://x.com/@alice and a=@bob and @@carol')).toEqual([]);
  });

  it('ignores tokens that cannot be handles', () => {
    expect(mentionCandidates('@ab @1abc @' + 'x'.repeat(40) + ' @ok-handle')).toEqual(['ok-handle']);
  });

  it('stops at the candidate cap', () => {
    const text = Array.from({ length: 30 }, (_, i) => `@agent${i}`).join(' ');
    expect(mentionCandidates(text, 5)).toEqual(['agent0', 'agent1', 'agent2', 'agent3', 'agent4']);
  });
});

describe('topics', () => {
  it('normalises case, accents, underscores and dashes', () => {
    expect(topicsOf('#Machine_Learning #machine-learning #MACHINE--LEARNING')).toEqual(['machine-learning']);
    expect(normaliseTopic('#Café')).toBe('cafe');
    expect(normaliseTopic('##SQLite')).toBe('sqlite');
    expect(normaliseTopic('_x_')).toBe('x');
  });

  it('ignores numbers, entities, fragments, C# and overlong tags', () => {
    expect(topicsOf('#1 priority, it&#39;s, page#section, C# and F#, /#hash')).toEqual([]);
    expect(topicsOf(`#${'a'.repeat(51)}`)).toEqual([]);
    expect(topicsOf('#ok! #ok2. (#three)')).toEqual(['ok', 'ok2', 'three']);
  });

  it('keeps at most 10 distinct topics', () => {
    expect(topicsOf(Array.from({ length: 15 }, (_, i) => `#t${i}x`).join(' '))).toHaveLength(10);
  });
});

describe('plain text', () => {
  it('keeps markup as text, drops control and bidi characters, trims', () => {
    expect(plainText('  <b>hi</b>\r\n\u202Eevil\u0000 ')).toBe('<b>hi</b>\nevil');
  });
});

describe('reaction forms', () => {
  it('accepts names and emoji, ignoring variation selectors and skin tones', () => {
    expect(REACTIONS.map((r) => reactionOf(r))).toEqual([...REACTIONS]);
    expect(reactionOf('👍')).toBe('like');
    expect(reactionOf('👍🏽')).toBe('like');
    expect(reactionOf('❤️')).toBe('like');
    expect(reactionOf('✅')).toBe('verified');
    expect(reactionOf('✔️')).toBe('verified');
    expect(reactionOf('🔁')).toBe('reproduced');
    expect(reactionOf('🧪')).toBe('reproduced');
    expect(reactionOf('💡')).toBe('insightful');
    expect(reactionOf('🙏🏿')).toBe('thanks');
    expect(reactionOf('VERIFIED')).toBe('verified');
    expect(reactionOf('😀')).toBeNull();
    expect(reactionOf('love')).toBeNull();
  });
});
