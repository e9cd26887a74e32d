/**
 * What the client knows of the service's load, for `HttpClient.load()`: the API attempts in flight (when
 * each started) and a moving average of how long the API takes to answer one. The retry loop records
 * every paced attempt here; concurrent workflows size themselves from it.
 */
export class LoadMeter {
  /** Start times of the API attempts in flight, by attempt number. */
  private readonly flights = new Map<number, number>();
  private flightSeq = 0;
  /** Moving average of how long the API takes to answer an attempt, in ms (undefined before the first answer). */
  private latencyAvgMs: number | undefined;

  /** An attempt started at `at`; returns its number, for `land`. */
  takeOff(at: number): number {
    const flight = ++this.flightSeq;
    this.flights.set(flight, at);
    return flight;
  }

  /** The attempt numbered `flight` is over (answered or failed). */
  land(flight: number): void {
    this.flights.delete(flight);
  }

  /** An answer that took `tookMs` (the wait for a pacing slot is not part of it). */
  observe(tookMs: number): void {
    this.latencyAvgMs = this.latencyAvgMs === undefined ? tookMs : this.latencyAvgMs * 0.8 + tookMs * 0.2;
  }

  /** The observed latency, and how long the oldest attempt in flight has been waiting at `now`. */
  snapshot(now: number): { latencyMs: number | undefined; oldestInFlightMs: number } {
    let oldest = 0;
    for (const started of this.flights.values()) oldest = Math.max(oldest, now - started);
    return { latencyMs: this.latencyAvgMs, oldestInFlightMs: oldest };
  }
}
