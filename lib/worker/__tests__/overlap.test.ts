import { describe, expect, it } from "vitest";
import { startWorker } from "@/lib/worker";

/**
 * Issue 12 item 14: with pg-boss's default (standard) queue policy, two workers — or a pass slower than its
 * interval — ran one periodic task twice at the same time. Two workers on one database, one task that takes
 * several of its intervals: it must never run concurrently with itself, and still run more than once.
 */
describe("periodic tasks across workers", () => {
  it("never overlap themselves, even when a pass is slower than its interval", async () => {
    let running = 0;
    let maxRunning = 0;
    let runs = 0;
    const name = `overlap-${Date.now().toString(36)}`;
    const task = {
      name,
      everySeconds: 1,
      run: async () => {
        running++;
        runs++;
        maxRunning = Math.max(maxRunning, running);
        await new Promise((r) => setTimeout(r, 1800));
        running--;
      },
    };
    const url = process.env.DATABASE_URL as string;
    const quiet = () => {};
    const [a, b] = await Promise.all([
      startWorker({ url, tasks: [task], log: quiet }),
      startWorker({ url, tasks: [task], log: quiet }),
    ]);
    try {
      await new Promise((r) => setTimeout(r, 6500));
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
    expect(runs).toBeGreaterThanOrEqual(2);
    expect(maxRunning).toBe(1);
  });
});
