import "server-only";
import type { Ctx } from "@/lib/core";
import { type InstanceLogs, instanceLogs } from "@/lib/telemetry";
import { errorToProblem } from "./problem";

export type FollowOpts = {
  since?: string;
  limit?: string;
  /** The request's signal: a client that hangs up stops the polling at once. */
  signal?: AbortSignal;
  /** Between two reads of the provider while nothing new came (FORJA_LOG_FOLLOW_MS, default 1 s). */
  pollMs?: number;
  /** A stream ends after this long with `end` {live:true}; the client reconnects with `since` (default 15 min). */
  maxMs?: number;
  /** A comment line this often while nothing is said, so proxies keep the connection (default 15 s). */
  heartbeatMs?: number;
};

const envMs = (name: string, fallback: number) => {
  const n = Number(process.env[name]);
  return Number.isFinite(n) && n > 0 ? n : fallback;
};

/**
 * `GET …/logs?follow=1` as Server-Sent Events: each log line an `event: line` (data: `{at, stream, text}`,
 * id: its time, so a reconnecting EventSource resumes after it through Last-Event-ID), then `event: end`
 * (data: `{live}`) when the run is over (live false) or the stream's time is up (live true: reconnect with
 * `since`). The first read happens before the answer, so a stranger's id or a bad query is still a 404/422
 * problem, never a 200 stream; every later read goes through the same gate (a member removed meanwhile gets
 * an `event: error` with the problem, and the stream ends).
 */
export async function followLogs(
  ctx: Ctx,
  org: string,
  id: string,
  opts: FollowOpts,
  instance: string,
): Promise<Response> {
  const pollMs = opts.pollMs ?? envMs("FORJA_LOG_FOLLOW_MS", 1000);
  const maxMs = opts.maxMs ?? envMs("FORJA_LOG_FOLLOW_MAX_MS", 15 * 60_000);
  const heartbeatMs = opts.heartbeatMs ?? 15_000;
  const read = (since: string | undefined) => instanceLogs(ctx, org, id, { since, limit: opts.limit });
  let page: InstanceLogs = await read(opts.since);
  const encoder = new TextEncoder();
  const started = Date.now();
  // Set when the client cancels the stream (it hung up, or the CLI got its `end`).
  const gone = new AbortController();
  opts.signal?.addEventListener("abort", () => gone.abort(), { once: true });

  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (text: string) => {
        if (!gone.signal.aborted) controller.enqueue(encoder.encode(text));
      };
      let since = opts.since;
      let quietSince = Date.now();
      try {
        for (;;) {
          for (const line of page.lines)
            send(`event: line\nid: ${line.at}\ndata: ${JSON.stringify(line)}\n\n`);
          if (page.lines.length > 0) quietSince = Date.now();
          since = page.lines.at(-1)?.at ?? since;
          if (!page.live || Date.now() - started >= maxMs) {
            send(`event: end\ndata: ${JSON.stringify({ live: page.live, since: since ?? null })}\n\n`);
            break;
          }
          if (!(await pause(pollMs, gone.signal))) return;
          if (Date.now() - quietSince >= heartbeatMs) {
            send(": still following\n\n");
            quietSince = Date.now();
          }
          page = await read(since);
        }
      } catch (err) {
        if (gone.signal.aborted) return;
        const problem = await errorToProblem(err, instance).text();
        send(`event: error\ndata: ${problem}\n\n`);
      }
      if (!gone.signal.aborted) controller.close();
    },
    cancel() {
      gone.abort();
    },
  });
  return new Response(body, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
      // Proxies (nginx) must pass events through as they come, not buffer the stream.
      "x-accel-buffering": "no",
    },
  });
}

/** Wait ms; false when the signal aborted (the client went away) before or during the wait. */
function pause(ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
