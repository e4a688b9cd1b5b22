// NDJSON streams (`GET /api/stream/event`, a game's chat stream): one JSON object a line, empty
// keep-alive lines between. `NdjsonDecoder` is the pure part (chunks in, objects out);
// `NdjsonStream` reads a URL with fetch and a ReadableStream and reconnects when it drops.

export type StreamObject = Record<string, unknown>;

/** Turns text chunks, cut anywhere (even inside a line or a multi-byte character's text), into
 * the objects of the complete lines. Empty lines (keep-alive) and lines that are not a JSON
 * object are skipped. */
export class NdjsonDecoder {
  private rest = '';

  push(chunk: string): StreamObject[] {
    this.rest += chunk;
    const lines = this.rest.split('\n');
    this.rest = lines.pop() ?? '';
    return lines.flatMap(parseLine);
  }

  /** The last line when the stream ends without a newline. */
  end(): StreamObject[] {
    const last = this.rest;
    this.rest = '';
    return parseLine(last);
  }
}

function parseLine(line: string): StreamObject[] {
  const s = line.trim();
  if (!s) return [];
  try {
    const v: unknown = JSON.parse(s);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? [v as StreamObject] : [];
  } catch {
    return [];
  }
}

/** Milliseconds before the next attempt after `failures` failed ones in a row: 0.5 s doubling
 * up to `max` (a missing endpoint or a refusal waits the longest). */
export function retryDelay(failures: number, max = 15_000): number {
  return Math.min(max, 500 * 2 ** Math.max(0, failures));
}

export interface StreamStatus {
  open: boolean;
  /** The HTTP status of a refused request (401, 404, …); absent when the network failed. */
  status?: number;
}

/** Reads an NDJSON URL (the session cookie goes with it) until closed; when the connection
 * drops, or nothing (not even a keep-alive line) comes for `silenceMs`, it connects again. */
export class NdjsonStream {
  private closed = false;
  private ctl: AbortController | null = null;
  private failures = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private url: string,
    private onObject: (o: StreamObject) => void,
    private onStatus: (s: StreamStatus) => void = () => {},
    private silenceMs = 30_000,
  ) {
    void this.run();
  }

  private async run(): Promise<void> {
    while (!this.closed) {
      const ctl = new AbortController();
      this.ctl = ctl;
      let refused: number | undefined;
      let watchdog: ReturnType<typeof setTimeout> | undefined;
      const arm = () => {
        clearTimeout(watchdog);
        watchdog = setTimeout(() => ctl.abort(), this.silenceMs);
      };
      try {
        arm();
        const res = await fetch(this.url, { headers: { Accept: 'application/x-ndjson' }, cache: 'no-store', signal: ctl.signal });
        if (!res.ok || !res.body) {
          refused = res.status;
          void res.body?.cancel().catch(() => {});
        } else {
          this.failures = 0;
          this.onStatus({ open: true });
          const reader = res.body.getReader();
          const text = new TextDecoder();
          const dec = new NdjsonDecoder();
          for (;;) {
            arm();
            const { value, done } = await reader.read();
            if (done) break;
            for (const o of dec.push(text.decode(value, { stream: true }))) if (!this.closed) this.onObject(o);
          }
          for (const o of dec.push(text.decode())) if (!this.closed) this.onObject(o);
          for (const o of dec.end()) if (!this.closed) this.onObject(o);
        }
      } catch {
        /* dropped, aborted or no network: try again below */
      } finally {
        clearTimeout(watchdog);
      }
      if (this.closed) return;
      this.onStatus(refused === undefined ? { open: false } : { open: false, status: refused });
      if (this.closed) return;
      this.failures += 1;
      const wait = retryDelay(this.failures, refused !== undefined && refused >= 400 && refused < 500 ? 30_000 : 15_000);
      await new Promise<void>((resolve) => {
        this.timer = setTimeout(resolve, wait);
      });
    }
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.ctl?.abort();
  }
}
