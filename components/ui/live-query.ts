"use client";

import { keepPreviousData, QueryClient, useQuery } from "@tanstack/react-query";

/**
 * Polling reads for the live parts of the console (instance lists and pages, logs, charts, the launch
 * preview), on TanStack Query. No provider sits in the root layout (pages without live data ship none of
 * it, issue 13's JavaScript budget): the hook hands its query client to useQuery itself — one client per
 * browser tab, and on the server a fresh one per call, so a server render never shares answers between users.
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
  /** A request is in flight. */
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

const options = {
  // A failed poll shows its error; the next poll is the retry.
  retry: false,
  refetchOnWindowFocus: false,
  // A key seen before (Back to the previous range) shows at once.
  gcTime: 30 * 60_000,
} as const;

let browserClient: QueryClient | undefined;
function queryClient(): QueryClient {
  if (typeof window === "undefined") return new QueryClient({ defaultOptions: { queries: options } });
  if (!browserClient) {
    browserClient = new QueryClient({ defaultOptions: { queries: options } });
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

export function useLiveQuery<T>(opts: Options<T>): LiveQuery<T> {
  const q = useQuery(
    {
      queryKey: opts.key,
      queryFn: () => opts.fetch(),
      initialData: opts.initialData,
      enabled: opts.enabled ?? true,
      // Server-rendered data is fresh until the first poll is due.
      staleTime: (query) => interval(opts.every, query.state.data as T | undefined) || 0,
      refetchInterval: (query) => interval(opts.every, query.state.data as T | undefined),
      placeholderData: opts.keepPrevious ? keepPreviousData : undefined,
    },
    queryClient(),
  );
  return { data: q.data, error: q.error, isPending: q.isPending, isFetching: q.isFetching };
}
