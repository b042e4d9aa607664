import { type KubeConfig, type V1Pod, Watch } from "@kubernetes/client-node";
import { call, coreApi } from "./client";

export type PodWatchStats = {
  lists: number;
  connects: number;
  gone: number;
  errors: number;
  lastError: string | null;
};

export type PodWatchOptions = {
  backoffMinMs?: number;
  backoffMaxMs?: number;
  resyncMs?: number;
  /** How long the API server is asked to keep one watch open (`timeoutSeconds`); it then closes it cleanly. */
  watchTimeoutS?: number;
  /** A watch silent for this long (no event, no bookmark, no close) is dead: abandoned and reconnected. */
  silenceMs?: number;
};

/**
 * The region's pods, kept by list + watch: the initial list gives a resourceVersion, the watch continues from
 * it (bookmarks move it on while nothing changes), a dropped connection reconnects from the last version with
 * exponential backoff, and an ERROR 410 Gone (history compacted) relists from scratch — so no change is missed
 * and a restarted worker starts from a fresh list. A periodic relist (resync) guards against anything else.
 */
export class PodWatch {
  readonly pods = new Map<string, V1Pod>();
  /**
   * The last state of each recently deleted pod: a pod that finished, failed or was disrupted and then went
   * away between two passes still tells the pass how it ended (a spot reclaim marks DisruptionTarget, then
   * deletes). Pods that vanished between two lists (after a 410 or a resync) are kept with the last state this
   * process saw, as an informer's DeletedFinalStateUnknown. Each is kept until the end of the first pass that
   * started after it was deleted (`passStarted` / `passEnded`).
   */
  private deleted = new Map<string, { pod: V1Pod; seq: number }>();
  private seq = 0;
  readonly stats: PodWatchStats = { lists: 0, connects: 0, gone: 0, errors: 0, lastError: null };
  private rv = "";
  private stopped = false;
  private abort: AbortController | null = null;
  /** The current connection; callbacks of an abandoned one are ignored. */
  private gen = 0;
  private dog: NodeJS.Timeout | undefined;
  private attempt = 0;
  private timers = new Set<NodeJS.Timeout>();
  private synced: Promise<void>;
  private markSynced!: () => void;

  constructor(
    private kc: KubeConfig,
    private selector: string,
    private opts: PodWatchOptions = {},
  ) {
    this.synced = new Promise((r) => {
      this.markSynced = r;
    });
  }

  /** Resolves once the first list is in: before that the pass must not conclude that a pod is missing. */
  whenSynced(): Promise<void> {
    return this.synced;
  }

  start(): void {
    void this.relistAndWatch();
    const resync = this.opts.resyncMs ?? 5 * 60_000;
    const t = setInterval(() => void this.relist().catch(() => undefined), resync);
    t.unref?.();
    this.timers.add(t);
  }

  stop(): void {
    this.stopped = true;
    this.abort?.abort();
    clearTimeout(this.dog);
    for (const t of this.timers) clearInterval(t);
  }

  /** The last state of a deleted pod, if it went recently (see `deleted`). */
  deletedPod(key: string): V1Pod | undefined {
    return this.deleted.get(key)?.pod;
  }

  /** A mark for `passEnded`: what was deleted before it has been seen by the pass that takes it. */
  passStarted(): number {
    return ++this.seq;
  }

  passEnded(mark: number): void {
    for (const [k, d] of this.deleted) if (d.seq < mark) this.deleted.delete(k);
  }

  private tombstone(key: string, pod: V1Pod): void {
    this.deleted.set(key, { pod, seq: this.seq });
  }

  private key(p: V1Pod): string {
    return `${p.metadata?.namespace}/${p.metadata?.name}`;
  }

  private async relist(): Promise<void> {
    const list = await call("list pods", () =>
      coreApi(this.kc).listPodForAllNamespaces({ labelSelector: this.selector }),
    );
    this.stats.lists++;
    const listed = new Set(list.items.map((p) => this.key(p)));
    for (const [k, p] of this.pods) if (!listed.has(k)) this.tombstone(k, p);
    this.pods.clear();
    for (const p of list.items) this.pods.set(this.key(p), p);
    this.rv = list.metadata?.resourceVersion ?? "";
    this.markSynced();
  }

  private async relistAndWatch(): Promise<void> {
    if (this.stopped) return;
    try {
      if (!this.rv) await this.relist();
      await this.connect();
    } catch (err) {
      this.retry(err);
    }
  }

  private retry(err: unknown): void {
    if (this.stopped) return;
    this.stats.errors++;
    this.stats.lastError = String((err as Error)?.message ?? err);
    const min = this.opts.backoffMinMs ?? 500;
    const delay = Math.min(this.opts.backoffMaxMs ?? 30_000, min * 2 ** this.attempt++);
    const t = setTimeout(() => {
      this.timers.delete(t);
      void this.relistAndWatch();
    }, delay);
    this.timers.add(t);
  }

  private async connect(): Promise<void> {
    const gen = ++this.gen;
    const live = () => gen === this.gen && !this.stopped;
    let gone = false;
    let heard = false;
    let ctl: AbortController | null = null;
    this.stats.connects++;
    const timeoutS = this.opts.watchTimeoutS ?? 300;
    const silenceMs = this.opts.silenceMs ?? (timeoutS + 30) * 1000;
    // A connection that says nothing for longer than the server was asked to keep it (a half-open TCP
    // connection, a hung request) would otherwise leave the pods stale until the next resync.
    const abandon = () => {
      if (!live()) return;
      this.gen++;
      ctl?.abort();
      this.retry(new Error(`the pod watch said nothing for ${silenceMs / 1000} s; reconnecting`));
    };
    const feed = () => {
      clearTimeout(this.dog);
      this.dog = setTimeout(abandon, silenceMs);
      this.dog.unref?.();
    };
    feed();
    ctl = await new Watch(this.kc).watch(
      "/api/v1/pods",
      {
        labelSelector: this.selector,
        resourceVersion: this.rv,
        allowWatchBookmarks: true,
        timeoutSeconds: timeoutS,
      },
      (type: string, obj: V1Pod & { code?: number }) => {
        if (!live()) return;
        feed();
        if (type === "ERROR") {
          if (obj.code === 410) gone = true;
          return;
        }
        heard = true;
        this.attempt = 0;
        if (type === "ADDED" || type === "MODIFIED") this.pods.set(this.key(obj), obj);
        else if (type === "DELETED") {
          this.pods.delete(this.key(obj));
          this.tombstone(this.key(obj), obj);
        }
        this.rv = obj.metadata?.resourceVersion ?? this.rv;
      },
      (err: unknown) => {
        if (!live()) return;
        clearTimeout(this.dog);
        // 410 Gone comes as an ERROR event on an open watch, or as the answer to the watch request itself.
        if (gone || (err as { statusCode?: number } | null)?.statusCode === 410) {
          this.stats.gone++;
          this.rv = "";
          void this.relistAndWatch();
        } else if (err || !heard) {
          // A failure, or a connection that closed before saying anything (a proxy cutting it at once):
          // back off, so a server that keeps closing is not hammered.
          this.retry(err ?? new Error("the pod watch closed before any event"));
        } else void this.relistAndWatch(); // a normal close (timeoutSeconds): continue from the last version
      },
    );
    if (live()) this.abort = ctl;
    else ctl.abort();
  }
}
