"use client";

import {
  type ComponentType,
  lazy,
  type ReactNode,
  type RefObject,
  Suspense,
  useEffect,
  useRef,
  useState,
  useSyncExternalStore,
} from "react";

const noSubscription = () => () => {};

export type LazyClientOptions = {
  /**
   * When the module is fetched: "hydrated" (the default) as soon as the page has hydrated; "visible" once the
   * place it renders in scrolls into the viewport (an IntersectionObserver on a wrapping div, no margin), for
   * what sits below the fold: its code is evaluated and rendered when a person looks at it, not during the
   * page's load, where it was most of an instance page's blocking time (issue 13). Without IntersectionObserver
   * it loads at once, as "hydrated" does.
   */
  when?: "hydrated" | "visible";
};

/** false on the server and while hydrating (so both render the same), true from then on. */
function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

/** false on the server and while hydrating; true once `ref`'s element has been in the viewport (and then for good). */
function useSeen(ref: RefObject<HTMLDivElement | null>, enabled: boolean): boolean {
  const [seen, setSeen] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!enabled || seen || !el) return;
    if (typeof IntersectionObserver === "undefined") {
      setSeen(true);
      return;
    }
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        observer.disconnect();
        setSeen(true);
      }
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref, enabled, seen]);
  return seen;
}

/**
 * A client component whose code is fetched in the browser once the page has hydrated (or, with
 * `when: "visible"`, once it scrolls into view), as next/dynamic with
 * `ssr: false` does: the server and the hydrating render show `Loading` (given the same props) or nothing,
 * then React.lazy loads the module and Suspense keeps `Loading` up until it arrives. next/dynamic's own loader brings its SSR preload
 * machinery (async storage, preload links, the CSR bailout: 0.8–1.0 kB of a page's transferred first-load
 * JavaScript) into every page that uses it, none of it needed for a component the server never renders
 * (issue 13's 150 kB budget). A failed import throws to the nearest error boundary, as before.
 */
export function lazyClient<P extends object>(
  load: () => Promise<ComponentType<P>>,
  Loading?: ComponentType<P>,
  options: LazyClientOptions = {},
): ComponentType<P & { fallback?: ReactNode }> {
  const Lazy = lazy(() => load().then((component) => ({ default: component })));
  const onVisible = options.when === "visible";
  /**
   * `fallback`, when given, is shown instead of `Loading`: a server component can pass the same view rendered
   * on the server (no code of its own in the bundle), so the page is complete before the module arrives.
   */
  function LazyClient({ fallback, ...rest }: P & { fallback?: ReactNode }) {
    const props = rest as P;
    const hydrated = useHydrated();
    const ref = useRef<HTMLDivElement>(null);
    const seen = useSeen(ref, onVisible);
    const shown = fallback !== undefined ? fallback : Loading ? <Loading {...props} /> : null;
    const body =
      !hydrated || (onVisible && !seen) ? (
        shown
      ) : (
        <Suspense fallback={shown}>
          <Lazy {...props} />
        </Suspense>
      );
    // The same div on the server, while hydrating and after, so the swap moves nothing around it.
    return onVisible ? <div ref={ref}>{body}</div> : body;
  }
  return LazyClient;
}
