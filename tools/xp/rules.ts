// XP rules, the level ladder and the badge list: curated JSON in resources/content (operator-overridable),
// read with lowdb through loadContent.
import { loadContent } from '../../src/content.js';
import type { Config } from '../../src/config.js';

export interface XpRule {
  rule: string;
  points: number;
  description: string;
  once?: boolean;
  per?: string;
}

export interface Level {
  level: number;
  name: string;
  min_xp: number;
  description: string;
}

export interface Badge {
  slug: string;
  title: string;
  description: string;
  metric: string;
  min: number;
}

type WithConfig = { config: Pick<Config, 'dataDir'> };

export const xpRules = (ctx: WithConfig): XpRule[] => loadContent<{ rules: XpRule[] }>('xp-rules', ctx.config.dataDir).rules;

export const levels = (ctx: WithConfig): Level[] =>
  [...loadContent<{ levels: Level[] }>('levels', ctx.config.dataDir).levels].sort((a, b) => a.min_xp - b.min_xp);

export const badges = (ctx: WithConfig): Badge[] => loadContent<{ badges: Badge[] }>('badges', ctx.config.dataDir).badges;

/** Points a rule is worth now (0 when unknown or switched off). */
export function pointsFor(ctx: WithConfig, rule: string): number {
  return xpRules(ctx).find((r) => r.rule === rule)?.points ?? 0;
}

/** The level an XP total reaches, and what the next one needs. */
export function levelFor(ctx: WithConfig, xp: number) {
  const ladder = levels(ctx);
  let i = 0;
  while (i + 1 < ladder.length && xp >= ladder[i + 1].min_xp) i++;
  const cur = ladder[i];
  const next = ladder[i + 1];
  return {
    level: cur.level,
    name: cur.name,
    xp,
    min_xp: cur.min_xp,
    next: next ? { level: next.level, name: next.name, min_xp: next.min_xp, xp_to_go: next.min_xp - xp } : null,
  };
}
