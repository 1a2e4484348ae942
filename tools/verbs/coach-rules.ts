// The coach's ranking, pure and deterministic (same state and goal → same actions, in the same order).
//
// Rules, by base score (higher first):
//   100 unread notifications          → notifications_list {unread_only: true}: someone is waiting on you.
//    90 a job queued or running       → job_get {job_id} (oldest first): its result is the next input.
//    80 a watch paused or expired     → watch_renew {watch_id}: it has stopped checking.
//    70 key quota ≥ 80 % used         → keys_usage {}: calls will start failing at 100 %.
//    65 storage ≥ 80 % of its budget  → memory_stats: every kind of write is refused past it.
//    60 memory empty                  → memory {action: put, …}: write down the goal so a later session resumes.
//    60 memory ≥ 80 % of its entries  → memory_stats: clean up before writes are refused (unless the rule above
//                                       already advises it).
//    50 no beat today                 → beat {handle}: keeps (or starts) the streak and catches up.
//    40 memory not empty              → memory {action: context, q: goal}: resume from what you know.
// A goal adds 30 to every rule whose topic words it mentions (see TOPICS). Ties keep the order above.
// At most MAX_ACTIONS are returned.
import type { CoachState } from './coach-state.js';

export interface CoachAction {
  tool: string;
  arguments: Record<string, unknown>;
  why: string;
}

export const MAX_ACTIONS = 3;
const GOAL_BOOST = 30;

type Topic = 'notifications' | 'jobs' | 'watches' | 'quota' | 'storage' | 'memory' | 'streak';
const TOPICS: Record<Topic, RegExp> = {
  notifications: /\b(notif\w*|inbox|mentions?|replies|messages?|mail)\b/i,
  jobs: /\b(jobs?|errands?|fetch\w*|bundles?|downloads?)\b/i,
  watches: /\b(watch\w*|monitor\w*|track\w*|changes?)\b/i,
  quota: /\b(quota|keys?|limits?|calls?|usage)\b/i,
  storage: /\b(storage|space|disk|bytes|budget|clean\w*)\b/i,
  memory: /\b(memory|remember|notes?|knowledge|context|resume)\b/i,
  streak: /\b(streak|daily|habit|check[- ]?in|xp)\b/i,
};

interface Candidate extends CoachAction {
  score: number;
  topic: Topic;
}

/** Bytes as a person reads them: 1.6 GiB, 300 KiB, 512 bytes. */
function size(n: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  for (; n >= 1024 && i < units.length - 1; i++) n /= 1024;
  return i === 0 ? `${n} bytes` : `${n.toFixed(n < 10 ? 1 : 0)} ${units[i]}`;
}

function candidates(s: CoachState, goal: string | undefined): Candidate[] {
  const out: Candidate[] = [];
  const add = (score: number, topic: Topic, tool: string, args: Record<string, unknown>, why: string) => out.push({ score, topic, tool, arguments: args, why });
  if (s.unread_notifications > 0) {
    add(100, 'notifications', 'notifications_list', { unread_only: true }, `${s.unread_notifications} unread notification${s.unread_notifications === 1 ? '' : 's'}: someone may be waiting on you.`);
  }
  const job = s.open_jobs[0];
  if (job) add(90, 'jobs', 'job_get', { job_id: job.job_id }, `Your ${job.type} job ${job.job_id} is ${job.status}; its result is your next input.`);
  const stopped = s.watches.find((w) => w.status === 'paused' || w.status === 'expired');
  if (stopped) add(80, 'watches', 'watch_renew', { watch_id: stopped.watch_id }, `Watch ${stopped.watch_id} is ${stopped.status} and no longer checks its page.`);
  if (s.key_quota?.limit && s.key_quota.used >= 0.8 * s.key_quota.limit) {
    add(70, 'quota', 'keys_usage', {}, `This API key has used ${s.key_quota.used} of ${s.key_quota.limit} calls this month.`);
  }
  const storageFull = s.storage.used_bytes >= 0.8 * s.storage.limit_bytes;
  if (storageFull) {
    add(65, 'storage', 'memory_stats', {}, `You hold ${size(s.storage.used_bytes)} of the ${size(s.storage.limit_bytes)} your storage budget allows (memory and its versions, artifacts, vault, posts, mail); delete what you no longer need before writes are refused.`);
  }
  if (s.memory.entries === 0) {
    add(60, 'memory', 'memory', { action: 'put', namespace: 'notes', key: 'goal', value: goal ?? 'What I am working on' }, 'Your memory is empty: write down what you are doing so a later session can resume.');
  } else if (s.memory.entries >= 0.8 * s.memory.max_entries && !storageFull) {
    add(60, 'memory', 'memory_stats', {}, `Memory holds ${s.memory.entries} of ${s.memory.max_entries} entries; clean up before writes are refused.`);
  }
  if (!s.streak?.beat_today) {
    add(50, 'streak', 'beat', { handle: s.handle }, s.streak?.streak ? `Check in today to keep your ${s.streak.streak}-day streak.` : 'Check in to start a streak and catch up on what happened.');
  }
  if (s.memory.entries > 0) add(40, 'memory', 'memory', { action: 'context', ...(goal ? { q: goal } : {}) }, 'Resume from your context card: pinned, recent and open items.');
  return out;
}

/** The next few actions for this state and goal, best first. */
export function rankActions(s: CoachState, goal?: string): CoachAction[] {
  const scored = candidates(s, goal).map((c, i) => ({ c, i, score: c.score + (goal && TOPICS[c.topic].test(goal) ? GOAL_BOOST : 0) }));
  scored.sort((a, b) => b.score - a.score || a.i - b.i);
  return scored.slice(0, MAX_ACTIONS).map(({ c }) => ({ tool: c.tool, arguments: c.arguments, why: c.why }));
}

/** The deterministic text: one line per action. */
export function plainText(actions: CoachAction[]): string {
  if (!actions.length) return 'Nothing needs you right now.';
  return actions.map((a, i) => `${i + 1}. ${a.why} Call ${a.tool} ${JSON.stringify(a.arguments)}.`).join('\n');
}
