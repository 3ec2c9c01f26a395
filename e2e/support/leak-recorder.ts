// TS-02 / TS-04 in a real browser: every response the browser receives (headers,
// Set-Cookie and body) and what the pages keep (document.cookie, localStorage, sessionStorage,
// the context's cookie jar) is scanned. Access and refresh tokens (lko_/lkr_) never reach the
// browser; a PAT (lkp_) or client secret (lks_) only in the one response that created it.
import type { BrowserContext, Page, Response } from '@playwright/test';

/**
 * Any fragment of an OAuth access or refresh token: the prefix and at least a few characters,
 * not preceded by a base64url character. Inside a random base64url value (a session id, a
 * CSRF token, a state) `lko_` followed by four letters turns up by chance about once in 10⁷
 * characters: over every cookie and body of a run, enough to fail a run now and then with no
 * token in sight (issue 13). A token sent anywhere starts after a quote, a space, `=`
 * or `:`, and is still found.
 */
const SESSION_TOKEN = /(?<![0-9A-Za-z_-])lk[or]_[0-9A-Za-z]{4,}/;
/** A PAT or client secret; allowed only in its creation response. */
const SHOWN_ONCE = /(?<![0-9A-Za-z_-])lk[ps]_[0-9A-Za-z]{4,}/;
/** Where a PAT, a client or a further client secret (SR-01) is created, or a PAT rolled (TR-12). */
const CREATION = /\/bff\/api\/(tokens|tokens\/[^/]+\/roll|clients|clients\/[^/]+\/secrets)$/;

export interface SeenResponse {
  url: string;
  method: string;
  status: number;
  /** Response headers (Set-Cookie included) and body as text. */
  text: string;
  /** False for redirects and 204 (no body) and for bodies Chromium no longer had. */
  bodyRead: boolean;
}

interface StorageSnapshot {
  where: string;
  text: string;
}

/** Expression, not a function, so this file needs no DOM types. */
const STORAGE_EXPRESSION =
  'JSON.stringify({ origin: location.origin, cookie: document.cookie, local: { ...localStorage }, session: { ...sessionStorage } })';

/** Chromium can hold a body back for good (a request still streaming when the page moved on). */
const READ_TIMEOUT_MS = 3_000;

function within<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out: ${what}`)), READ_TIMEOUT_MS);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

function isCreation(response: SeenResponse): boolean {
  return response.method === 'POST' && response.status === 201 && CREATION.test(new URL(response.url).pathname);
}

export class LeakRecorder {
  readonly responses: SeenResponse[] = [];
  /** Non-redirect responses whose body Chromium no longer had (the page had moved on). */
  readonly unreadable: string[] = [];
  readonly #storage: StorageSnapshot[] = [];
  readonly #pending = new Set<Promise<void>>();
  readonly #contexts = new Set<BrowserContext>();

  /** Records every response of this context and the storage of each page it loads. */
  watch(context: BrowserContext): void {
    if (this.#contexts.has(context)) return;
    this.#contexts.add(context);
    context.on('response', (response) => this.#track(this.#record(response)));
    const watchPage = (page: Page): void => {
      page.on('load', () => this.#track(this.#snapshot(page)));
    };
    context.pages().forEach(watchPage);
    context.on('page', watchPage);
    context.on('close', () => this.#contexts.delete(context));
  }

  #track(work: Promise<void>): void {
    this.#pending.add(work);
    void work.finally(() => this.#pending.delete(work));
  }

  async #record(response: Response): Promise<void> {
    const request = response.request();
    const status = response.status();
    let headers = '';
    try {
      headers = (await within(response.headersArray(), 'headers')).map((h) => `${h.name}: ${h.value}`).join('\n');
    } catch {
      headers = Object.entries(response.headers())
        .map(([k, v]) => `${k}: ${v}`)
        .join('\n');
    }
    let body = '';
    let bodyRead = false;
    // Redirects and 204 have no body to read.
    if (status !== 204 && (status < 300 || status >= 400)) {
      try {
        body = (await within(response.body(), 'body')).toString('latin1');
        bodyRead = true;
      } catch (err) {
        this.unreadable.push(
          `${request.method()} ${response.url()} ${status}: ${(err as Error).message.split('\n')[0]}`,
        );
      }
    }
    this.responses.push({
      url: response.url(),
      method: request.method(),
      status,
      text: `${headers}\n\n${body}`,
      bodyRead,
    });
  }

  async #snapshot(page: Page): Promise<void> {
    try {
      this.#storage.push({
        where: page.url(),
        text: String(await within(page.evaluate(STORAGE_EXPRESSION), 'storage')),
      });
    } catch {
      // The page navigated on before the snapshot; the next load takes one.
    }
  }

  /** Waits for every response body and snapshot under way. */
  async settle(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
  }

  /** Snapshots every open page and the cookie jar and localStorage of every watched context. */
  async snapshotStorage(): Promise<void> {
    for (const context of this.#contexts) {
      for (const page of context.pages()) await this.#snapshot(page);
      try {
        const state = await within(context.storageState(), 'storageState');
        this.#storage.push({ where: 'context cookies and localStorage', text: JSON.stringify(state) });
      } catch {
        // Context closed meanwhile.
      }
    }
  }

  /** Responses that contain this exact value. */
  async responsesContaining(value: string): Promise<SeenResponse[]> {
    await this.settle();
    return this.responses.filter((r) => r.text.includes(value));
  }

  /** Every problem found so far, one line each; empty when clean. */
  async problems(): Promise<string[]> {
    await this.snapshotStorage();
    await this.settle();
    const found: string[] = [];
    for (const r of this.responses) {
      const token = SESSION_TOKEN.exec(r.text);
      if (token) found.push(`TS-02: ${r.method} ${r.url} (${r.status}) carries ${token[0].slice(0, 8)}…`);
      const shown = SHOWN_ONCE.exec(r.text);
      if (shown && !isCreation(r))
        found.push(`TS-04: ${r.method} ${r.url} (${r.status}) carries ${shown[0].slice(0, 8)}…`);
    }
    for (const s of this.#storage) {
      const token = SESSION_TOKEN.exec(s.text) ?? SHOWN_ONCE.exec(s.text);
      if (token) found.push(`browser storage at ${s.where} holds ${token[0].slice(0, 8)}…`);
    }
    return found;
  }
}
