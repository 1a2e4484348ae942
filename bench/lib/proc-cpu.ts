// CPU time of processes as Linux counts it (/proc/<pid>/stat: user and system time, all threads), to say where a
// load's CPU went: the gateway instances, the database server, the load generator. On a machine whose cores all
// of them share, a throughput figure alone cannot tell a slower program from a busier machine.
import fs from 'node:fs';

/** Microseconds per clock tick: Linux reports /proc times in USER_HZ, 100 on every architecture Node supports. */
const TICK_US = 10_000;

/** Fields of /proc/<pid>/stat after the command name (which may hold spaces), numbered as proc(5) numbers them. */
function statFields(pid: number): string[] | null {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return ['', '', '', ...text.slice(text.lastIndexOf(')') + 2).split(' ')];
  } catch {
    return null; // the process is gone
  }
}

/** One process's CPU time so far, in µs (0 once it has exited). */
export function processCpu(pid: number): number {
  const f = statFields(pid);
  return f ? (Number(f[14]) + Number(f[15])) * TICK_US : 0;
}

/**
 * A process and its children (a PostgreSQL server and its backends): its own time, the time of the children it has
 * reaped (so a backend that exits mid-run still counts) and that of the children still running.
 */
export function treeCpu(rootPid: number): number {
  const root = statFields(rootPid);
  if (!root) return 0;
  let total = (Number(root[14]) + Number(root[15]) + Number(root[16]) + Number(root[17])) * TICK_US;
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const f = statFields(Number(name));
    if (f && Number(f[4]) === rootPid) total += (Number(f[14]) + Number(f[15])) * TICK_US;
  }
  return total;
}

/** This process's CPU time so far, in µs (the load generator, when it runs in the bench's own process). */
export function selfCpu(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}
