/**
 * The last `limit` values added, for what a long run must recognise again only while it is recent (a repeated
 * event id across a page boundary, a free not-found asked twice): memory stays flat over any number of rows.
 */
export class RecentSet<T> {
  private readonly values = new Set<T>();
  private readonly order: T[] = [];
  private head = 0;

  constructor(private readonly limit: number) {}

  has(value: T): boolean {
    return this.values.has(value);
  }

  /** False when `value` is among the last `limit`; else remembers it, forgetting the oldest past the limit. */
  add(value: T): boolean {
    if (this.values.has(value)) return false;
    this.values.add(value);
    if (this.order.length < this.limit) this.order.push(value);
    else {
      this.values.delete(this.order[this.head] as T);
      this.order[this.head] = value;
      this.head = (this.head + 1) % this.limit;
    }
    return true;
  }
}
