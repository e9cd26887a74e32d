// Types of bench/pg-proxy.mjs, for the tests that count round trips with it.
export interface PgProxy {
  port: number;
  counts: { trips: number; queries: number; syncs: number; connections: number };
  via(url: string): string;
  reset(): void;
  close(): Promise<void>;
}

export function startPgProxy(
  target: URL | { hostname: string; port: string | number },
  options?: { debug?: boolean; label?: string },
): Promise<PgProxy>;
