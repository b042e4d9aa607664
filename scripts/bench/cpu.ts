import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { getDb } from "@/lib/db/client";

/**
 * CPU time spent while some code runs, split between this Node process and the bench's PostgreSQL (its
 * postmaster's child processes: the backends doing the work, plus the WAL writer and the like), from Linux's
 * /proc. Bench instrumentation only: where a concurrent figure is bound by the two cores, the CPU each call
 * costs is what its latency follows. `null` where /proc or the postmaster's pid file cannot be read.
 */
export type CpuCounter = {
  measure<T>(fn: () => Promise<T>): Promise<{ value: T; nodeMs: number; pgMs: number }>;
};

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ): 100 on every Linux build we run. */
const TICKS_PER_SECOND = 100;

function ticksOf(pid: string): { ppid: string; ticks: number } | null {
  try {
    // The command name may hold spaces or parentheses: the fields start after its last ")".
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { ppid: fields[1] as string, ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return null;
  }
}

export async function cpuCounter(db: ReturnType<typeof getDb>): Promise<CpuCounter | null> {
  if (!fs.existsSync("/proc/self/stat")) return null;
  const dir = await db.execute<{ setting: string }>(
    sql`select setting from pg_settings where name = 'data_directory'`,
  );
  let postmaster: string;
  try {
    postmaster = fs
      .readFileSync(path.join(dir.rows[0]?.setting ?? "", "postmaster.pid"), "utf8")
      .split("\n")[0] as string;
  } catch {
    return null;
  }
  const pgTicks = () => {
    let total = 0;
    for (const pid of fs.readdirSync("/proc")) {
      if (!/^\d+$/.test(pid)) continue;
      const s = ticksOf(pid);
      // Exited backends take their time with them; the bench's pool keeps its connections, so little is lost.
      if (s && (s.ppid === postmaster || pid === postmaster)) total += s.ticks;
    }
    return (total * 1000) / TICKS_PER_SECOND;
  };
  return {
    async measure(fn) {
      const node0 = process.cpuUsage();
      const pg0 = pgTicks();
      const value = await fn();
      const node = process.cpuUsage(node0);
      return { value, nodeMs: (node.user + node.system) / 1000, pgMs: pgTicks() - pg0 };
    },
  };
}
