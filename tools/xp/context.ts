// What awarding XP and checking badges need of a tool's context: its own module, so award.ts (which checks
// badges) and badges.ts (which takes this context) do not import each other.
import type { ToolContext } from '../../src/registry/types.js';

export type XpContext = Pick<ToolContext, 'db' | 'clock' | 'config'>;
