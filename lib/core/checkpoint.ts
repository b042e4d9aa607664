/**
 * Named points inside the background passes where a test can stop time: the crash test pauses a real worker
 * at one (FORJA_PAUSE_AT=<name>, honoured only with FORJA_TEST_HOOKS=1 outside production) and SIGKILLs it
 * there, so "killed in the middle of the pass" is one exact place instead of a race; in-process tests set a
 * hook to run a concurrent request while the pass holds its locks. Without either it is a resolved promise.
 */
export type CheckpointHook = (name: string) => void | Promise<void>;

const holder = globalThis as typeof globalThis & { __forjaCheckpoint?: CheckpointHook | null };

/** Tests only: run `hook` at every checkpoint (null removes it). */
export function setCheckpointHook(hook: CheckpointHook | null): void {
  holder.__forjaCheckpoint = hook;
}

function pauseAt(): string | null {
  if (process.env.NODE_ENV === "production" || process.env.FORJA_TEST_HOOKS !== "1") return null;
  return process.env.FORJA_PAUSE_AT ?? null;
}

export async function checkpoint(name: string): Promise<void> {
  const hook = holder.__forjaCheckpoint;
  if (hook) await hook(name);
  if (pauseAt() === name) {
    // The crash test reads this line, then kills the process; nothing after it runs.
    process.stdout.write(`FORJA_PAUSED ${name}\n`);
    await new Promise<never>(() => {});
  }
}
