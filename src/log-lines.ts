// The log's buffer in front of the stderr stream (sonic-boom): lines are gathered in an array and handed on about
// 4 KB at a time. sonic-boom's own buffering measures the UTF-8 length of all it holds on every write (at 4 KB, a
// flattened copy and a scan of ~2 KB per line), which cost a busy gateway more than building the line did
// (docs/decisions/request-budget.md, "Round three").
/** What the lines go to: pino's destination (sonic-boom). */
export interface LineSink {
  write(chunk: string): boolean;
  flushSync(): void;
}

export class LineBuffer {
  private lines: string[] = [];
  /** UTF-16 units held: the threshold only decides when to hand the lines on, so no byte count is needed. */
  private held = 0;

  constructor(
    private readonly out: LineSink,
    private readonly minLength: number,
  ) {}

  write(line: string): boolean {
    this.lines.push(line);
    this.held += line.length;
    if (this.held >= this.minLength) this.flush();
    return true;
  }

  /** Hands every held line to the stream, which writes it without waiting. */
  flush(): void {
    if (this.lines.length === 0) return;
    const chunk = this.lines.length === 1 ? this.lines[0] : this.lines.join('');
    this.lines = [];
    this.held = 0;
    this.out.write(chunk);
  }

  /** Everything held and buffered goes out before this returns (at exit). */
  flushSync(): void {
    this.flush();
    this.out.flushSync();
  }
}
