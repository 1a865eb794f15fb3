// What an instance keeps in memory of the store, and how a change reaches every instance (issue 36; DESIGN §8
// "Several instances"). A published call and a console call's session and permissions are answered from memory;
// a change is published on a Redis channel of the deployment when REDIS_URL is set (every instance's listeners
// drop what it touched), else to this process only (without Redis there is one instance: README "Several
// instances"). Writes to the store are told by the store itself (store/watch.ts: table by table, once committed),
// and the writing statement waits until Redis has taken the message, so a write call answers only after every
// instance has been told. While the channel from the others is down nothing is answered from memory (every
// memo reads the store), and when it is back everything held is dropped: a message missed meanwhile cannot leave
// anything stale. Each memo also forgets an entry after a while (maxAgeMs) as a last guard.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';

type Listener = (arg: string | undefined) => void;

export interface Invalidation {
  /** Tells every instance's listeners of `topic` (this instance's first, at once); resolves once Redis took it. */
  publish(topic: string, arg?: string): Promise<void>;
  /** Listens to `topic`; `'*'` hears "drop everything" (the channel was down). */
  on(topic: string, fn: Listener): void;
  /** Whether anyone here listens to `topic` (a write to a table nobody caches is not published). */
  heard(topic: string): boolean;
  /** false while the channel from the other instances is down: memos then read the store every time */
  live(): boolean;
  /** A map held in memory, emptied whenever one of `topics` is published (and on "drop everything"). */
  memo<K, V>(topics: string[], opts?: MemoOptions): Memo<K, V>;
  close(): Promise<void>;
}

export interface MemoOptions {
  /** entries kept at most (the oldest goes first) */
  max?: number;
  /** an entry is read from the store again after this long, whatever was published */
  maxAgeMs?: number;
}

export interface Memo<K, V> {
  /**
   * The value held for `key`, else what `load` answers — held when `keep` allows it (all by default) unless a
   * change was published while it loaded.
   */
  get(key: K, load: () => Promise<V>, keep?: (value: V) => boolean): Promise<V>;
  /** The entry held for `key` (undefined when none, stale or the channel is down). */
  peek(key: K): V | undefined;
  delete(key: K): void;
  /** Drops the entries whose value satisfies `pred`. */
  deleteWhere(pred: (value: V, key: K) => boolean): void;
  clear(): void;
  readonly size: number;
}

/** Topic of a write to a store table (told by store/watch.ts). */
export const tableTopic = (table: string) => `table:${table}`;

function makeMemo<K, V>(bus: Pick<Invalidation, 'live'>, opts: MemoOptions) {
  const max = opts.max ?? 10_000;
  const maxAge = opts.maxAgeMs ?? 60_000;
  const map = new Map<K, { v: V; at: number }>();
  // moves at every change: a load that began before it is not held (it may have read the old row)
  let generation = 0;
  const fresh = (key: K) => {
    if (!bus.live()) return undefined;
    const e = map.get(key);
    if (e && Date.now() - e.at > maxAge) {
      map.delete(key);
      return undefined;
    }
    return e;
  };
  const memo: Memo<K, V> = {
    peek: (key) => fresh(key)?.v,
    async get(key, load, keep) {
      const e = fresh(key);
      if (e) return e.v;
      const seen = generation;
      const v = await load();
      if (seen === generation && bus.live() && (!keep || keep(v))) {
        if (map.size >= max) map.delete(map.keys().next().value!);
        map.set(key, { v, at: Date.now() });
      }
      return v;
    },
    delete(key) {
      generation += 1;
      map.delete(key);
    },
    deleteWhere(pred) {
      generation += 1;
      for (const [k, e] of map) if (pred(e.v, k)) map.delete(k);
    },
    clear() {
      generation += 1;
      map.clear();
    },
    get size() {
      return map.size;
    },
  };
  return memo;
}

/**
 * The channel of this deployment (`tag`: core/throttle.ts deploymentTag). With `redisUrl`, a subscriber
 * connection and a publishing one of its own; `ready` resolves once subscribed (or after 5 s: memos read the
 * store until it is).
 */
export function createInvalidation(redisUrl: string | undefined, tag: string, log?: Logger): Invalidation & { ready: Promise<void> } {
  const listeners = new Map<string, Set<Listener>>();
  const deliver = (topic: string, arg: string | undefined) => {
    for (const fn of listeners.get(topic) ?? []) {
      try {
        fn(arg);
      } catch (err) {
        log?.error({ err, topic }, 'invalidation listener failed');
      }
    }
  };
  let up = !redisUrl;
  const bus: Invalidation & { ready: Promise<void> } = {
    ready: Promise.resolve(),
    async publish(topic, arg) {
      deliver(topic, arg);
    },
    on(topic, fn) {
      let set = listeners.get(topic);
      if (!set) listeners.set(topic, (set = new Set()));
      set.add(fn);
    },
    heard: (topic) => listeners.has(topic),
    live: () => up,
    memo<K, V>(topics: string[], opts: MemoOptions = {}) {
      const m = makeMemo<K, V>(bus, opts);
      for (const t of [...topics, '*']) bus.on(t, () => m.clear());
      return m;
    },
    async close() {},
  };
  if (!redisUrl) return bus;

  const me = randomUUID();
  const channel = `invalidate:${tag}`;
  const pub = new Redis(redisUrl, { maxRetriesPerRequest: 2 });
  const sub = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const down = () => {
    if (!up) return;
    up = false;
    deliver('*', undefined);
  };
  const subscribe = () =>
    sub.subscribe(channel).then(
      () => {
        // whatever was held before (or published while the channel was down) is dropped
        deliver('*', undefined);
        up = true;
      },
      (err) => log?.error({ err }, 'invalidation channel: subscribe failed'),
    );
  // a message of ours, heard back: Redis has written it to every subscriber (echoes awaited by publish)
  const echoes = new Map<string, () => void>();
  let sent = 0;
  sub.on('message', (ch: string, raw: string) => {
    if (ch !== channel) return;
    try {
      const [from, topic, arg, n] = JSON.parse(raw) as [string, string, string | null, number?];
      if (from !== me) deliver(topic, arg ?? undefined);
      else if (n != null) echoes.get(`${n}`)?.();
    } catch {
      /* not ours */
    }
  });
  sub.on('close', down);
  sub.on('end', down);
  sub.on('error', down);
  sub.on('ready', () => void subscribe());
  bus.ready = new Promise<void>((resolve) => {
    const t = setTimeout(resolve, 5000);
    const check = setInterval(() => {
      if (up) {
        clearTimeout(t);
        clearInterval(check);
        resolve();
      }
    }, 5);
    t.unref?.();
    setTimeout(() => clearInterval(check), 5000).unref?.();
  });
  bus.publish = async (topic, arg) => {
    deliver(topic, arg);
    const n = ++sent;
    // the writer answers once its own subscription heard the message (at most 200 ms): Redis writes a message to
    // all subscribers at once, so the others hold it before any call that follows this write can reach them
    const heard = new Promise<void>((resolve) => {
      const t = setTimeout(resolve, 200);
      echoes.set(`${n}`, () => {
        clearTimeout(t);
        resolve();
      });
    }).finally(() => echoes.delete(`${n}`));
    try {
      await pub.publish(channel, JSON.stringify([me, topic, arg ?? null, n]));
      if (up) await heard;
    } catch (err) {
      // the others' subscriptions are most likely down too (they then read the store); said loudly
      log?.error({ err, topic }, 'invalidation not published to the other instances');
    }
  };
  bus.close = async () => {
    up = false;
    sub.disconnect();
    pub.disconnect();
  };
  return bus;
}
