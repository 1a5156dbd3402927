/** How far each partner's sandbox clock runs ahead of the deployment's, shared by every instance. */
export interface ClockOffsetStore {
  /** Milliseconds the partner's clock is ahead; 0 for a partner that never advanced. */
  offsetOf(partnerId: string): Promise<number>;
  /** Moves the partner's clock ahead in one step (concurrent advances add up); returns the new offset. */
  advance(partnerId: string, milliseconds: number): Promise<number>;
  reset(partnerId: string): Promise<void>;
}
