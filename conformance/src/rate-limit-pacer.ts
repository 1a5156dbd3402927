/**
 * Paces the contract suite by the rate limits the target reports, so a run against a server with
 * its real limits (a default `npm start`) waits for a window to reset instead of failing on 429s.
 *
 * It reads the IETF `RateLimit` field (`"name";r=REMAINING;t=SECONDS`, with `RateLimit-Policy`
 * naming an operation's buckets) and else `X-RateLimit-Remaining` with `X-RateLimit-Reset` (epoch
 * seconds); a 429's `Retry-After` always wins. Before a call it waits while a bucket that
 * operation counts against has nothing left. Seconds are read relative (`t=`) where the server
 * gives them: a sandbox partner's clock may run ahead of this machine's.
 */

/** The bucket name when the target reports only X-RateLimit-*: one budget for every operation. */
const UNNAMED = "";

interface BucketState {
  remaining: number;
  /** When the window resets, in this process's milliseconds (`now()`). */
  resetsAt: number;
}

export interface Pause {
  operationId: string;
  milliseconds: number;
  reason: string;
}

export interface PacerOptions {
  now?: () => number;
  sleep?: (milliseconds: number) => Promise<void>;
  /** Told of each pause before it starts, so a long wait is not mistaken for a stall. */
  onPause?: (pause: Pause) => void;
}

const members = (field: string) =>
  field.split(",").map((member) => {
    const [name, ...parameters] = member.trim().split(";");
    const values = Object.fromEntries(parameters.map((parameter) => parameter.trim().split("=") as [string, string]));
    return { name: name!.trim().replace(/^"|"$/g, ""), values };
  });

export class RateLimitPacer {
  readonly pauses: Pause[] = [];
  /** Per API key, per bucket name. */
  private readonly buckets = new Map<string, Map<string, BucketState>>();
  /** Per operation, the buckets it counts against (RateLimit-Policy of its last answer). */
  private readonly bucketsOfOperation = new Map<string, string[]>();
  private readonly now: () => number;
  private readonly sleep: (milliseconds: number) => Promise<void>;

  constructor(private readonly options: PacerOptions = {}) {
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? ((milliseconds) => new Promise((resolve) => setTimeout(resolve, milliseconds)));
  }

  get waitedMilliseconds(): number {
    return this.pauses.reduce((sum, pause) => sum + pause.milliseconds, 0);
  }

  /** Waits until every bucket the operation counts against has room. */
  async beforeCall(key: string, operationId: string): Promise<void> {
    const buckets = this.buckets.get(key);
    if (!buckets) return;
    const names = this.bucketsOfOperation.get(operationId) ?? [...buckets.keys()];
    const now = this.now();
    const exhausted = names
      .map((name) => [name, buckets.get(name)] as const)
      .filter(([, state]) => state && state.remaining <= 0 && state.resetsAt > now);
    if (exhausted.length === 0) return;
    const [name, state] = exhausted.sort((a, b) => b[1]!.resetsAt - a[1]!.resetsAt)[0]!;
    await this.pause({
      operationId,
      milliseconds: state!.resetsAt - now,
      reason: `${name ? `bucket "${name}"` : "the rate limit"} has no requests left until its window resets`,
    });
  }

  /** Records what the answer says of the key's budget. */
  afterResponse(key: string, operationId: string, headers: Headers): void {
    const now = this.now();
    let buckets = this.buckets.get(key);
    if (!buckets) this.buckets.set(key, (buckets = new Map()));
    const policy = headers.get("ratelimit-policy");
    if (policy)
      this.bucketsOfOperation.set(
        operationId,
        members(policy).map((member) => member.name),
      );
    const field = headers.get("ratelimit");
    if (field) {
      for (const { name, values } of members(field)) {
        const remaining = Number(values.r);
        const seconds = Number(values.t);
        if (Number.isFinite(remaining) && Number.isFinite(seconds)) buckets.set(name, { remaining, resetsAt: now + seconds * 1000 });
      }
      return;
    }
    const remaining = Number(headers.get("x-ratelimit-remaining") ?? Number.NaN);
    const reset = Number(headers.get("x-ratelimit-reset") ?? Number.NaN);
    if (Number.isFinite(remaining) && Number.isFinite(reset))
      buckets.set(UNNAMED, { remaining, resetsAt: now + Math.max(0, reset * 1000 - Date.now()) });
  }

  /** After a 429: waits the `Retry-After` it names (one second when it names none). */
  async afterRefusal(operationId: string, headers: Headers): Promise<void> {
    const seconds = Number(headers.get("retry-after") ?? Number.NaN);
    await this.pause({
      operationId,
      milliseconds: 1000 * (Number.isFinite(seconds) && seconds >= 0 ? seconds : 1),
      reason: "the target answered 429 rate_limit_exceeded",
    });
  }

  /** One line for the end of a run. */
  summary(): string {
    if (this.pauses.length === 0) return "rate limits: no waiting";
    return `rate limits: waited ${(this.waitedMilliseconds / 1000).toFixed(1)} s in ${this.pauses.length} pause${this.pauses.length === 1 ? "" : "s"} for the target's windows to reset`;
  }

  private async pause(pause: Pause): Promise<void> {
    this.pauses.push(pause);
    this.options.onPause?.(pause);
    await this.sleep(pause.milliseconds);
  }
}
