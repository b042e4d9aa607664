"use client";

import type { QueryClient, QueryObserver, QueryObserverOptions } from "@tanstack/react-query";
import { useCallback, useEffect, useState, useSyncExternalStore } from "react";

/**
 * Polling reads for the live parts of the console (instance lists and pages, logs, charts, the launch
 * preview), on TanStack Query. No provider sits in the root layout, and the library itself is not in any
 * page's first-load JavaScript (issue 13's 150 kB budget): the first render shows the server-rendered answer,
 * and after hydration the hook imports @tanstack/react-query and watches the key with a QueryObserver on the
 * tab's one QueryClient — what useQuery does inside, minus the import on the critical path.
 *
 * - `initialData` is the server-rendered answer for the key: shown at once, first refetch after `every`.
 * - A new key (a filter, a range) starts from `initialData`, else the tab's cached answer for that key,
 *   else (with `keepPrevious`) the previous key's answer while the new one loads; then it fetches.
 * - `every` may depend on the data (a finished instance polls slower); false stops polling.
 * - `refreshLive(prefix)` refetches now every query whose key starts with `prefix` (after an action).
 */
export type LiveQuery<T> = {
  data: T | undefined;
  /** The last request's failure (cleared by the next success); the last data stays. */
  error: Error | null;
  /** No answer yet (neither data nor error). */
  isPending: boolean;
  /** A request is in flight (or about to be: the first one waits for the library). */
  isFetching: boolean;
};

type Every<T> = number | false | ((data: T | undefined) => number | false);
type Options<T> = {
  key: readonly unknown[];
  fetch: () => Promise<T>;
  initialData?: T;
  enabled?: boolean;
  every?: Every<T>;
  keepPrevious?: boolean;
};

type Lib = typeof import("@tanstack/react-query");
let lib: Lib | undefined;
let loading: Promise<Lib> | undefined;
/** Fetched once per tab, after the page is interactive (a dynamic import: its own chunk). */
function loadLib(): Promise<Lib> {
  loading ??= import("@tanstack/react-query").then((m) => {
    lib = m;
    return m;
  });
  return loading;
}

let browserClient: QueryClient | undefined;
function queryClient(rq: Lib): QueryClient {
  if (!browserClient) {
    browserClient = new rq.QueryClient({
      defaultOptions: {
        queries: {
          // A failed poll shows its error; the next poll is the retry.
          retry: false,
          refetchOnWindowFocus: false,
          // A key seen before (Back to the previous range) shows at once.
          gcTime: 30 * 60_000,
        },
      },
    });
    browserClient.mount();
  }
  return browserClient;
}

const hashKey = (key: readonly unknown[]) => JSON.stringify(key);

/** Whether `key` is `prefix` or starts with its elements. */
export function keyStartsWith(key: readonly unknown[], prefix: readonly unknown[]): boolean {
  return prefix.every((p, i) => hashKey([key[i]]) === hashKey([p]));
}

export function refreshLive(prefix: readonly unknown[]): void {
  void browserClient?.invalidateQueries({ predicate: (q) => keyStartsWith(q.queryKey, prefix) });
}

const interval = <T>(every: Every<T> | undefined, data: T | undefined): number | false =>
  (typeof every === "function" ? every(data) : every) ?? false;

type Observer<T> = QueryObserver<T, Error, T, T, readonly unknown[]>;

function observerOptions<T>(rq: Lib, opts: Options<T>) {
  const options: QueryObserverOptions<T, Error, T, T, readonly unknown[]> = {
    queryKey: opts.key,
    queryFn: () => opts.fetch(),
    initialData: opts.initialData,
    enabled: opts.enabled ?? true,
    // Server-rendered data is fresh until the first poll is due.
    staleTime: (query) => interval(opts.every, query.state.data) || 0,
    refetchInterval: (query) => interval(opts.every, query.state.data),
    placeholderData: opts.keepPrevious ? rq.keepPreviousData : undefined,
    notifyOnChangeProps: ["data", "error", "isPending", "isFetching"],
    // As useQuery: a render right after a key change already says a fetch is under way.
    _optimisticResults: "optimistic",
  };
  return queryClient(rq).defaultQueryOptions(options);
}

export function useLiveQuery<T>(opts: Options<T>): LiveQuery<T> {
  const [observer, setObserver] = useState<Observer<T> | null>(null);
  // Created once per mount; later options reach it through setOptions below.
  useEffect(() => {
    let mounted = true;
    void loadLib().then((rq) => {
      if (mounted) setObserver(new rq.QueryObserver(queryClient(rq), observerOptions(rq, opts)));
    });
    return () => {
      mounted = false;
    };
  }, []);
  const options = observer && lib ? observerOptions(lib, opts) : null;
  // As useQuery: every render's options (a new key, enabled, interval) reach the observer after commit…
  useEffect(() => {
    if (observer && options) observer.setOptions(options);
  });
  // …the store subscription re-renders on its results (and starts the fetching and polling)…
  const subscribe = useCallback(
    (onChange: () => void) =>
      observer && lib ? observer.subscribe(lib.notifyManager.batchCalls(onChange)) : () => {},
    [observer],
  );
  useSyncExternalStore(
    subscribe,
    () => observer?.getCurrentResult(),
    () => undefined,
  );
  // …and this render already shows the new key's answer (cached, initial or the previous one).
  if (observer && options) {
    const r = observer.getOptimisticResult(options);
    return { data: r.data, error: r.error, isPending: r.isPending, isFetching: r.isFetching };
  }
  const enabled = opts.enabled ?? true;
  return {
    data: opts.initialData,
    error: null,
    isPending: opts.initialData === undefined,
    isFetching: enabled && opts.initialData === undefined,
  };
}
