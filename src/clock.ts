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

export const isoNow = (clock: Clock): string => new Date(clock.now()).toISOString();
