/**
 * Time per partner. In production every partner reads the deployment's clock; in the sandbox each
 * partner's clock runs ahead of it by what the partner has advanced (Stripe's test clocks, one per
 * partner), so one partner's tests never move another's time.
 *
 * The offsets live in the persistence (every instance on one database shares them); this process
 * keeps the last offset it read, which `refresh` renews before each request of the partner is
 * served, so reading a clock stays synchronous.
 */
import type { Clock } from "../../platform/clock.js";
import type { Environment } from "../../../generated/deployment.js";
import type { ClockOffsetStore } from "./clock-offset-store.js";

export class PartnerClocks {
  private readonly offsets = new Map<string, number>();
  /** One clock object per partner, read on every request: made once, not per call. */
  private readonly clocks = new Map<string, Clock>();

  constructor(
    readonly base: Clock,
    private readonly environment: Environment,
    private readonly store: () => ClockOffsetStore,
  ) {}

  clockFor(partnerId: string): Clock {
    if (this.environment !== "sandbox") return this.base;
    let clock = this.clocks.get(partnerId);
    if (!clock) this.clocks.set(partnerId, (clock = { now: () => new Date(this.base.now().getTime() + this.offsetOf(partnerId)) }));
    return clock;
  }

  /** Milliseconds the partner's clock is ahead of the base clock, as last read. */
  offsetOf(partnerId: string): number {
    return this.offsets.get(partnerId) ?? 0;
  }

  /** Reads the partner's offset as every instance sees it now. */
  async refresh(partnerId: string): Promise<void> {
    if (this.environment !== "sandbox") return;
    this.remember(partnerId, await this.store().offsetOf(partnerId));
  }

  /** Takes the partner's offset as read elsewhere with the database's answer (a request's admission). */
  observe(partnerId: string, offset: number): void {
    if (this.environment === "sandbox") this.remember(partnerId, offset);
  }

  async advance(partnerId: string, milliseconds: number): Promise<void> {
    if (this.environment !== "sandbox") throw new Error("only sandbox clocks can be advanced");
    this.remember(partnerId, await this.store().advance(partnerId, milliseconds));
  }

  async reset(partnerId: string): Promise<void> {
    await this.store().reset(partnerId);
    this.offsets.delete(partnerId);
  }

  /** Forgets every offset read (tests that swap the persistence for an empty one). */
  forgetOffsets(): void {
    this.offsets.clear();
  }

  private remember(partnerId: string, offset: number): void {
    if (offset === 0) this.offsets.delete(partnerId);
    else this.offsets.set(partnerId, offset);
  }
}
