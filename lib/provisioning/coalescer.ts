/**
 * Requests run together when they pile up (issue 13, launch): while fewer than `maxInFlight` runs are going,
 * a request runs at once and alone (`runOne`), so a quiet console pays nothing for this; once `maxInFlight`
 * are going, requests wait, and each run that ends starts the next with up to `maxMembers` of the waiting
 * requests (`runMany`), oldest first, no two with the same key (launch: the organization — its quota lock
 * is taken once per transaction, and two launches of one organization in one transaction would not see each
 * other's rows). A request whose key is already in the group waits for a later one. `runMany` settles each
 * request on its own (one refused request does not refuse the others).
 */
export type CoalescerOptions<I, R> = {
  maxMembers: number;
  maxInFlight: number;
  keyOf: (item: I) => string;
  runOne: (item: I) => Promise<R>;
  runMany: (items: I[]) => Promise<PromiseSettledResult<R>[]>;
};

export type Coalescer<I, R> = {
  submit: (item: I) => Promise<R>;
  /** Groups run so far with more than one request, and the requests in them (tests and the bench read it). */
  stats: () => { groups: number; grouped: number; largest: number };
};

type Waiting<I, R> = { item: I; resolve: (r: R) => void; reject: (e: unknown) => void };

export function coalescer<I, R>(o: CoalescerOptions<I, R>): Coalescer<I, R> {
  if (o.maxMembers < 1 || o.maxInFlight < 1) throw new Error("coalescer: limits must be at least 1");
  const waiting: Waiting<I, R>[] = [];
  let inFlight = 0;
  const counts = { groups: 0, grouped: 0, largest: 0 };

  /** The oldest waiting request and the next ones with keys not yet in the group, removed from the queue. */
  const take = (): Waiting<I, R>[] => {
    const group: Waiting<I, R>[] = [];
    const keys = new Set<string>();
    for (let i = 0; i < waiting.length && group.length < o.maxMembers; ) {
      const w = waiting[i] as Waiting<I, R>;
      const key = o.keyOf(w.item);
      if (keys.has(key)) {
        i++;
        continue;
      }
      keys.add(key);
      group.push(w);
      waiting.splice(i, 1);
    }
    return group;
  };

  const run = async (group: Waiting<I, R>[]): Promise<void> => {
    const [only] = group;
    if (group.length === 1 && only) {
      await o.runOne(only.item).then(only.resolve, only.reject);
      return;
    }
    counts.groups++;
    counts.grouped += group.length;
    counts.largest = Math.max(counts.largest, group.length);
    let settled: PromiseSettledResult<R>[];
    try {
      settled = await o.runMany(group.map((w) => w.item));
    } catch (error) {
      for (const w of group) w.reject(error);
      return;
    }
    group.forEach((w, i) => {
      const s = settled[i];
      if (!s) w.reject(new Error("coalescer: runMany returned too few results"));
      else if (s.status === "fulfilled") w.resolve(s.value);
      else w.reject(s.reason);
    });
  };

  const pump = (): void => {
    while (inFlight < o.maxInFlight && waiting.length > 0) {
      const group = take();
      inFlight++;
      void run(group).finally(() => {
        inFlight--;
        pump();
      });
    }
  };

  return {
    submit: (item) =>
      new Promise<R>((resolve, reject) => {
        waiting.push({ item, resolve, reject });
        pump();
      }),
    stats: () => ({ ...counts }),
  };
}
