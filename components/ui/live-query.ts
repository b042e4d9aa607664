"use client";

import { useEffect, useRef, useState } from "react";

/**
 * Polling reads for the live parts of the console (instance lists and pages, the launch preview): fetch, keep
 * the last answer, fetch again after `every` ms. About 1 kB where React Query was 11 kB gzip on each of those
 * pages (issue 13's 150 kB budget); they used nothing of it beyond this.
 *
 * - `initialData` is the server-rendered answer for the key: shown at once, first refetch after `every`.
 * - A new key (a filter, a range) starts from `initialData`, else the last answer seen for that key in this tab,
 *   else (with `keepPrevious`) the previous key's answer while the new one loads; then it fetches.
 * - `every` may depend on the data (a finished instance polls slower); false stops polling.
 * - `refreshLive(prefix)` refetches now every mounted query whose key starts with `prefix` (after an action).
 */
export type LiveQuery<T> = {
  data: T | undefined;
  /** The last request's failure (cleared by the next success); the last data stays. */
  error: Error | null;
  /** No answer yet (neither data nor error). */
  isPending: boolean;
  /** A request is in flight. */
  isFetching: boolean;
};

type Options<T> = {
  key: readonly unknown[];
  fetch: () => Promise<T>;
  initialData?: T;
  enabled?: boolean;
  every?: number | false | ((data: T | undefined) => number | false);
  keepPrevious?: boolean;
};

const mounted = new Map<string, Set<() => void>>();
/** The last answer per key, for the tab's lifetime: a key seen before (Back to the previous range) shows at once. */
const lastAnswer = new Map<string, unknown>();

const hashKey = (key: readonly unknown[]) => JSON.stringify(key);

/** Whether `key` is `prefix` or starts with its elements. */
export function keyStartsWith(key: readonly unknown[], prefix: readonly unknown[]): boolean {
  return prefix.every((p, i) => hashKey([key[i]]) === hashKey([p]));
}

export function refreshLive(prefix: readonly unknown[]): void {
  for (const [hash, runs] of mounted) {
    if (keyStartsWith(JSON.parse(hash) as unknown[], prefix)) for (const run of runs) run();
  }
}

type State<T> = { hash: string; data: T | undefined; error: Error | null; fetching: boolean };

export function useLiveQuery<T>(opts: Options<T>): LiveQuery<T> {
  const hash = hashKey(opts.key);
  const enabled = opts.enabled ?? true;
  const [state, setState] = useState<State<T>>(() => ({
    hash,
    data: opts.initialData ?? (lastAnswer.get(hash) as T | undefined),
    error: null,
    fetching: false,
  }));
  // The latest options without restarting the loop on every render (they are new closures each time).
  const latest = useRef(opts);
  latest.current = opts;
  const dataRef = useRef(state.data);

  // A new key: start from its server answer, or keep the previous one on screen if asked to.
  let shown = state;
  if (state.hash !== hash) {
    const seen = lastAnswer.get(hash) as T | undefined;
    const data = opts.initialData ?? seen ?? (opts.keepPrevious ? state.data : undefined);
    shown = { hash, data, error: null, fetching: false };
    setState(shown);
  }
  dataRef.current = shown.data;

  useEffect(() => {
    if (!enabled) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const schedule = () => {
      const every = latest.current.every;
      const ms = typeof every === "function" ? every(dataRef.current) : every;
      if (!stopped && ms) timer = setTimeout(run, ms);
    };
    const run = async () => {
      clearTimeout(timer);
      setState((s) => (s.hash === hash ? { ...s, fetching: true } : s));
      try {
        const data = await latest.current.fetch();
        if (stopped) return;
        dataRef.current = data;
        lastAnswer.set(hash, data);
        setState({ hash, data, error: null, fetching: false });
      } catch (e) {
        if (stopped) return;
        const error = e instanceof Error ? e : new Error(String(e));
        setState((s) => ({ ...s, hash, error, fetching: false }));
      }
      schedule();
    };
    const runs = mounted.get(hash) ?? new Set<() => void>();
    const trigger = () => void run();
    runs.add(trigger);
    mounted.set(hash, runs);
    if (latest.current.initialData !== undefined) schedule();
    else void run();
    return () => {
      stopped = true;
      clearTimeout(timer);
      runs.delete(trigger);
      if (runs.size === 0) mounted.delete(hash);
    };
  }, [hash, enabled]);

  return {
    data: shown.data,
    error: shown.error,
    isPending: shown.data === undefined && shown.error === null,
    isFetching: shown.fetching,
  };
}
