/** The form-level message of an ActionResult, announced to screen readers. */
export function FormMessage({ message, ok }: { message?: string; ok?: boolean }) {
  return (
    <div role={ok ? "status" : "alert"} aria-live="polite" className="min-h-5 text-sm">
      {message ? (
        <p className={ok ? "text-green-700 dark:text-green-400" : "text-red-700 dark:text-red-400"}>
          {message}
        </p>
      ) : null}
    </div>
  );
}
