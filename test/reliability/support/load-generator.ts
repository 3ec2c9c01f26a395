// A bounded load generator on node:http (lighter than fetch, so the two cores go to the servers):
// `concurrency` workers, each sending one request at a time over keep-alive connections, for at
// most `durationMs` and `maxRequests`, optionally paced to `ratePerSecond` overall. Every answer
// becomes a Sample with its send time (wall clock, to compare with a commit timestamp) and its
// outcome, so a test can count outcomes before and after an event it caused mid-run.
import { Agent, request, type OutgoingHttpHeaders } from 'node:http';

export interface HttpCall {
  /** Absolute URL on loopback. */
  url: string;
  method?: string;
  headers?: OutgoingHttpHeaders;
  body?: string;
  /** Free label carried into the sample (which token, which instance...). */
  tag?: string;
}

export interface Sample {
  tag: string;
  /** Origin of the URL called. */
  target: string;
  /** Date.now() just before the request was written: a lower bound of the real send time. */
  sentAt: number;
  /** performance.now() at send, for ordering within the run. */
  sentMono: number;
  latencyMs: number;
  /** 0 when no HTTP answer came (connection refused or reset, or the client-side time limit). */
  status: number;
  /** `error="…"` of WWW-Authenticate, else the JSON body's `error`, else the GraphQL error code. */
  error: string | undefined;
  retryAfter: string | undefined;
  /** The first 300 characters of the body, to explain a violation. */
  body: string;
}

const CLIENT_TIMEOUT_MS = 15_000;

function errorOf(status: number, wwwAuthenticate: string | undefined, body: string): string | undefined {
  const challenge = /error="([^"]*)"/.exec(wwwAuthenticate ?? '');
  if (challenge) return challenge[1];
  if (status < 400) return undefined;
  try {
    const json = JSON.parse(body) as { error?: unknown; errors?: Array<{ extensions?: { code?: unknown } }> };
    if (typeof json.error === 'string') return json.error;
    const code = json.errors?.[0]?.extensions?.code;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}

/** One request; never rejects: a network failure is a sample with status 0. */
export function send(call: HttpCall, agent?: Agent): Promise<Sample> {
  const url = new URL(call.url);
  const sentAt = Date.now();
  const sentMono = performance.now();
  const sample = (status: number, headers: Record<string, string | string[] | undefined>, body: string): Sample => {
    const www = headers['www-authenticate'];
    const retry = headers['retry-after'];
    return {
      tag: call.tag ?? '',
      target: url.origin,
      sentAt,
      sentMono,
      latencyMs: performance.now() - sentMono,
      status,
      error: status === 0 ? body : errorOf(status, Array.isArray(www) ? www.join(', ') : www, body),
      retryAfter: Array.isArray(retry) ? retry[0] : retry,
      body: body.slice(0, 300),
    };
  };
  return new Promise((resolve) => {
    const headers: OutgoingHttpHeaders = { ...call.headers };
    if (call.body !== undefined) headers['content-length'] = Buffer.byteLength(call.body);
    const req = request(
      url,
      { method: call.method ?? (call.body === undefined ? 'GET' : 'POST'), headers, agent: agent ?? false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve(sample(res.statusCode ?? 0, res.headers, Buffer.concat(chunks).toString('utf8'))));
        res.on('error', (err) => resolve(sample(0, {}, `response error: ${err.message}`)));
      },
    );
    req.setTimeout(CLIENT_TIMEOUT_MS, () => req.destroy(new Error('client time limit')));
    req.on('error', (err) => resolve(sample(0, {}, `network: ${(err as NodeJS.ErrnoException).code ?? err.message}`)));
    req.end(call.body);
  });
}

export interface LoadOptions {
  concurrency: number;
  durationMs: number;
  maxRequests: number;
  /** Overall pace; unpaced (as fast as the answers come) when absent. */
  ratePerSecond?: number;
  /** The i-th request (0-based); undefined ends that worker. */
  nextCall(index: number): HttpCall | undefined;
}

export interface RunningLoad {
  /** Every sample so far, in completion order. */
  readonly samples: Sample[];
  /** Ends the run early: workers finish their request in flight and stop. */
  stop(): void;
  /** Every sample, once every worker has stopped. */
  readonly done: Promise<Sample[]>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function startLoad(options: LoadOptions): RunningLoad {
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency });
  const samples: Sample[] = [];
  const started = performance.now();
  let stopped = false;
  let issued = 0;
  const timer = setTimeout(() => {
    stopped = true;
  }, options.durationMs);
  const interval = options.ratePerSecond === undefined ? 0 : 1000 / options.ratePerSecond;

  async function worker(): Promise<void> {
    while (!stopped && issued < options.maxRequests) {
      const index = issued;
      issued += 1;
      if (interval > 0) {
        const wait = started + index * interval - performance.now();
        if (wait > 0) await sleep(wait);
        if (stopped) return;
      }
      const call = options.nextCall(index);
      if (call === undefined) return;
      samples.push(await send(call, agent));
    }
  }

  const done = Promise.all(Array.from({ length: options.concurrency }, worker)).then(() => {
    clearTimeout(timer);
    agent.destroy();
    return samples;
  });
  return {
    samples,
    stop() {
      stopped = true;
    },
    done,
  };
}

/** Runs `startLoad` to the end. */
export function runLoad(options: LoadOptions): Promise<Sample[]> {
  return startLoad(options).done;
}
