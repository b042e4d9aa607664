/**
 * A loading.tsx fallback streams first and React swaps the page in with a script when it is ready; without
 * JavaScript the page would stay hidden behind the fallback forever (vercel/next.js#50150). Every loading
 * state wraps itself in this: when scripting is off, the streamed segments (React's `<div hidden id="S:…">`)
 * are shown and the fallback hidden, so the page and its GET forms still work with no script.
 * Inside Tailwind's base layer: its `[hidden]{display:none!important}` there would beat any unlayered rule.
 */
export const STREAM_FALLBACK_CLASS = "stream-fallback";
export const NO_SCRIPT_REVEAL_CSS = `@media (scripting: none){@layer base{[hidden][id^="S:"]{display:block!important}}.${STREAM_FALLBACK_CLASS}{display:none!important}}`;

export function StreamFallback({ className, children, ...rest }: React.ComponentProps<"div">) {
  return (
    <div className={`${STREAM_FALLBACK_CLASS} ${className ?? ""}`} {...rest}>
      <style>{NO_SCRIPT_REVEAL_CSS}</style>
      {children}
    </div>
  );
}
