/**
 * For `HttpClient.load()`: the retry loop records every paced attempt here; concurrent workflows size themselves from
 * it.
 */
export class LoadMeter {
  private readonly flights = new Map<number, number>();
  private flightSeq = 0;
  private latencyAvgMs: number | undefined;

  takeOff(at: number): number {
    const flight = ++this.flightSeq;
    this.flights.set(flight, at);
    return flight;
  }

  land(flight: number): void {
    this.flights.delete(flight);
  }

  /** The wait for a pacing slot is not part of `tookMs`. */
  observe(tookMs: number): void {
    this.latencyAvgMs = this.latencyAvgMs === undefined ? tookMs : this.latencyAvgMs * 0.8 + tookMs * 0.2;
  }

  snapshot(now: number): { latencyMs: number | undefined; oldestInFlightMs: number } {
    let oldest = 0;
    for (const started of this.flights.values()) oldest = Math.max(oldest, now - started);
    return { latencyMs: this.latencyAvgMs, oldestInFlightMs: oldest };
  }
}
