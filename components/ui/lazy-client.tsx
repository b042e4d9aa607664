"use client";

import { type ComponentType, lazy, Suspense, useSyncExternalStore } from "react";

const noSubscription = () => () => {};

/**
 * A client component whose code is fetched in the browser once the page has hydrated, as next/dynamic with
 * `ssr: false` does: the server and the hydrating render show `Loading` (or nothing), then React.lazy loads the
 * module and Suspense keeps `Loading` up until it arrives. next/dynamic's own loader brings ~2.9 kB gzip of
 * SSR preload machinery (async storage, preload links, the CSR bailout) into every page that uses it, which
 * kept the instance, launch and chart pages over issue 13's 150 kB first-load budget; none of it is needed
 * for a component the server never renders. A failed import throws to the nearest error boundary, as before.
 */
export function lazyClient<P extends object>(
  load: () => Promise<ComponentType<P>>,
  Loading?: ComponentType,
): ComponentType<P> {
  const Lazy = lazy(() => load().then((component) => ({ default: component })));
  function LazyClient(props: P) {
    // false on the server and while hydrating (so both render the same), true from then on.
    const hydrated = useSyncExternalStore(
      noSubscription,
      () => true,
      () => false,
    );
    const fallback = Loading ? <Loading /> : null;
    if (!hydrated) return fallback;
    return (
      <Suspense fallback={fallback}>
        <Lazy {...props} />
      </Suspense>
    );
  }
  return LazyClient;
}
