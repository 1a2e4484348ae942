// Time comes from here so tests can move it (docs/architecture.md, "Layers and dependency rules", its conventions): nothing sleeps for real to test a 7-day rule.

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock tests move by hand; it starts at the real time unless told otherwise. */
export class ManualClock implements Clock {
  private t: number;
  constructor(start = Date.now()) {
    this.t = start;
  }
  now(): number {
    return this.t;
  }
  advance(ms: number): void {
    this.t += ms;
  }
  set(ms: number): void {
    this.t = ms;
  }
}

let isoSecond = NaN;
let isoPrefix = '';
/**
 * `new Date(ms).toISOString()`, with the part up to the second made once per second: formatting a date was a
 * measurable share of a light request, which stamps several (an A2A task's statuses, the log line, the usage day).
 */
export function isoTime(ms: number): string {
  const t = Math.trunc(ms); // as Date keeps it
  const second = Math.floor(t / 1000);
  if (second !== isoSecond) {
    isoPrefix = new Date(second * 1000).toISOString().slice(0, -4); // up to "ss."
    isoSecond = second;
  }
  const milli = t - second * 1000;
  return `${isoPrefix}${milli < 10 ? '00' : milli < 100 ? '0' : ''}${milli}Z`;
}

export const isoNow = (clock: Clock): string => isoTime(clock.now());
