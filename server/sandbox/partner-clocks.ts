/**
 * Time per partner. In production every partner reads the deployment's clock; in the sandbox each
 * partner's clock runs ahead of it by what the partner has advanced (Stripe's test clocks, one per
 * partner), so one partner's tests never move another's time.
 */
import type { Clock } from "../clock.js";
import type { Environment } from "../../generated/deployment.js";

export class PartnerClocks {
  private readonly offsets = new Map<string, number>();
  /** One clock object per partner, read on every request: made once, not per call. */
  private readonly clocks = new Map<string, Clock>();

  constructor(
    readonly base: Clock,
    private readonly environment: Environment,
  ) {}

  clockFor(partnerId: string): Clock {
    if (this.environment !== "sandbox") return this.base;
    let clock = this.clocks.get(partnerId);
    if (!clock) this.clocks.set(partnerId, (clock = { now: () => new Date(this.base.now().getTime() + this.offsetOf(partnerId)) }));
    return clock;
  }

  /** Milliseconds the partner's clock is ahead of the base clock. */
  offsetOf(partnerId: string): number {
    return this.offsets.get(partnerId) ?? 0;
  }

  advance(partnerId: string, milliseconds: number): void {
    if (this.environment !== "sandbox") throw new Error("only sandbox clocks can be advanced");
    this.offsets.set(partnerId, this.offsetOf(partnerId) + milliseconds);
  }

  reset(partnerId: string): void {
    this.offsets.delete(partnerId);
  }

  clear(): void {
    this.offsets.clear();
  }
}
