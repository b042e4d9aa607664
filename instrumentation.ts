/**
 * Runs once when a web server process starts (next start, scripts/serve.mjs, next dev). A replica missing a
 * shared setting (lib/runtime/required-env) stops at once with the fix, instead of serving with its own
 * session secret.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { missingSharedSettings } = await import("./lib/runtime/required-env");
  const missing = missingSharedSettings();
  if (missing.length === 0) return;
  for (const m of missing) console.error(`[forja] ${m}`);
  process.exit(1);
}
