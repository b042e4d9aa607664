"use client";

import { type ComponentType, lazy, type ReactNode, Suspense, useSyncExternalStore } from "react";

const noSubscription = () => () => {};

/**
 * A client component whose code is fetched in the browser once the page has hydrated, as next/dynamic with
 * `ssr: false` does: the server and the hydrating render show `Loading` (given the same props) or nothing,
 * then React.lazy loads the module and Suspense keeps `Loading` up until it arrives. next/dynamic's own loader brings its SSR preload
 * machinery (async storage, preload links, the CSR bailout: 0.8–1.0 kB of a page's transferred first-load
 * JavaScript) into every page that uses it, none of it needed for a component the server never renders
 * (issue 13's 150 kB budget). A failed import throws to the nearest error boundary, as before.
 */
export function lazyClient<P extends object>(
  load: () => Promise<ComponentType<P>>,
  Loading?: ComponentType<P>,
): ComponentType<P & { fallback?: ReactNode }> {
  const Lazy = lazy(() => load().then((component) => ({ default: component })));
  /**
   * `fallback`, when given, is shown instead of `Loading`: a server component can pass the same view rendered
   * on the server (no code of its own in the bundle), so the page is complete before the module arrives.
   */
  function LazyClient({ fallback, ...rest }: P & { fallback?: ReactNode }) {
    const props = rest as P;
    // false on the server and while hydrating (so both render the same), true from then on.
    const hydrated = useSyncExternalStore(
      noSubscription,
      () => true,
      () => false,
    );
    const shown = fallback !== undefined ? fallback : Loading ? <Loading {...props} /> : null;
    if (!hydrated) return shown;
    return (
      <Suspense fallback={shown}>
        <Lazy {...props} />
      </Suspense>
    );
  }
  return LazyClient;
}
