/**
 * A test double of the browser opener: it follows the authorize URL with plain HTTP, answers the
 * sandbox's consent page (approve or deny), then lands on the CLI's loopback listener, as a
 * person's browser would. `tamper` can change the final redirect (wrong state, stolen code...).
 */
export interface BrowserDouble {
  opener: (url: string) => Promise<void>;
  /** URLs the CLI asked to open. */
  opened: string[];
  /** The redirect the consent step produced (before tampering). */
  redirects: URL[];
  /** The page the CLI's listener answered with. */
  pages: { status: number; body: string; headers: Headers }[];
  /** The headers of the sandbox's consent page, when one was shown. */
  consentHeaders: Headers[];
  /** Settles when the last opener call finished. */
  done: () => Promise<void>;
}

export function browserDouble(
  options: { decision?: 'approve' | 'deny'; tamper?: (redirect: URL) => URL | Promise<URL>; fail?: boolean } = {},
): BrowserDouble {
  const opened: string[] = [];
  const redirects: URL[] = [];
  const pages: { status: number; body: string; headers: Headers }[] = [];
  const consentHeaders: Headers[] = [];
  let last: Promise<void> = Promise.resolve();
  const follow = async (url: string): Promise<void> => {
    let res = await fetch(url, { redirect: 'manual' });
    if (res.status === 200) {
      consentHeaders.push(res.headers);
      const html = await res.text();
      const id = /name="request_id" value="([^"]+)"/.exec(html)?.[1];
      if (!id) throw new Error('no consent form on the authorize page');
      res = await fetch(new URL('/public/v1/oauth/authorize/', url), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ request_id: id, decision: options.decision ?? 'approve' }).toString(),
        redirect: 'manual',
      });
    }
    const location = res.headers.get('location');
    if (res.status !== 302 || !location) throw new Error(`authorize answered ${res.status}: ${await res.text()}`);
    const redirect = new URL(location);
    redirects.push(redirect);
    const target = options.tamper ? await options.tamper(new URL(redirect.href)) : redirect;
    const final = await fetch(target);
    pages.push({ status: final.status, body: await final.text(), headers: final.headers });
  };
  return {
    opened,
    redirects,
    pages,
    consentHeaders,
    done: () => last,
    opener: (url: string) => {
      opened.push(url);
      if (options.fail) return Promise.reject(new Error('spawn xdg-open ENOENT'));
      last = follow(url);
      return last;
    },
  };
}
