/** What the access line of one request says: never the path's ids, the query, the body or the key. */
export interface AccessFields {
  method: string;
  /** The route pattern (`/v1/decisions/:decisionId`), `unmatched` for unknown paths. */
  route: string;
  status: number;
  /** Milliseconds from the first byte in to the answer, one decimal. */
  ms: number | null;
  requestId: string | null;
  /** The caller's tenant and key id, when the request was authenticated. */
  tenant: string | null;
  keyId: string | null;
}

export interface AccessLogOptions {
  enabled: boolean;
  /** Lines written in any one second at most; past it they are counted, not written. */
  maxPerSecond: number;
  write: (line: Record<string, unknown>) => void;
  now?: () => number;
}

/**
 * One line per request at the default level (`msg: "request"`), bounded: at most
 * `maxPerSecond` lines a second, so that under a flood the log (a synchronous write to
 * stdout) cannot become what limits the service. Lines left out are counted and said
 * in one line (`msg: "access lines left out"`) with the next line written after that second.
 */
export class AccessLog {
  private windowStart = -Infinity;
  private written = 0;
  private dropped = 0;
  private readonly now: () => number;

  constructor(private readonly o: AccessLogOptions) {
    this.now = o.now ?? Date.now;
  }

  get enabled(): boolean {
    return this.o.enabled;
  }

  record(f: AccessFields): void {
    if (!this.o.enabled) return;
    const now = this.now();
    if (now - this.windowStart >= 1000) {
      if (this.dropped > 0) this.o.write({ msg: 'access lines left out', dropped: this.dropped, maxPerSecond: this.o.maxPerSecond });
      this.windowStart = now;
      this.written = 0;
      this.dropped = 0;
    }
    if (this.written >= this.o.maxPerSecond) {
      this.dropped += 1;
      return;
    }
    this.written += 1;
    this.o.write({
      msg: 'request',
      method: f.method,
      route: f.route,
      status: f.status,
      ms: f.ms,
      requestId: f.requestId,
      tenant: f.tenant,
      keyId: f.keyId,
    });
  }
}
