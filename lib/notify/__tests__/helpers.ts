import { randomUUID } from "node:crypto";
import { type ParsedMail, simpleParser } from "mailparser";
import pg from "pg";
import { SMTPServer } from "smtp-server";
import { closeDb } from "@/lib/db/client";
import { runMigrations } from "@/lib/db/migrate";

/**
 * Delivery reads the whole outbox, so these tests use a database of their own: another test file that sends
 * mail can neither steal these messages nor receive them. Call in beforeAll; the returned function drops it.
 */
export async function useOwnDatabase(): Promise<() => Promise<void>> {
  const shared = process.env.DATABASE_URL;
  if (!shared) throw new Error("DATABASE_URL is not set (vitest global setup)");
  const name = `notify_${randomUUID().replaceAll("-", "")}`;
  const admin = new pg.Client({ connectionString: shared });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(shared);
  url.pathname = `/${name}`;
  await runMigrations(url.toString());
  await closeDb();
  process.env.DATABASE_URL = url.toString();
  return async () => {
    await closeDb();
    process.env.DATABASE_URL = shared;
    const c = new pg.Client({ connectionString: shared });
    await c.connect();
    await c.query(`drop database if exists ${name} with (force)`);
    await c.end();
  };
}

export type TestSmtp = {
  port: number;
  url: string;
  received: ParsedMail[];
  /** "reject": the server answers every recipient with a temporary 451 failure. */
  setMode: (mode: "accept" | "reject") => void;
  stop: () => Promise<void>;
  /** Listen again on the same port after stop(), like a relay coming back from an outage. */
  restart: () => Promise<void>;
};

/** A real SMTP server (package smtp-server) on loopback; every accepted message is parsed with mailparser. */
export async function startTestSmtp(opts: { delayMs?: number } = {}): Promise<TestSmtp> {
  const received: ParsedMail[] = [];
  let mode: "accept" | "reject" = "accept";
  const make = () =>
    new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onRcptTo(_address, _session, callback) {
        if (mode === "accept") return callback();
        const err = Object.assign(new Error("Mailbox temporarily unavailable"), { responseCode: 451 });
        callback(err);
      },
      onData(stream, _session, callback) {
        simpleParser(stream).then(
          (mail) => {
            // A slow relay widens the window in which two deliverers could pick the same row.
            setTimeout(() => {
              received.push(mail);
              callback();
            }, opts.delayMs ?? 0);
          },
          (err: Error) => callback(err),
        );
      },
    });
  let server = make();
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        const addr = server.server.address();
        resolve(typeof addr === "object" && addr ? addr.port : port);
      });
    });
  const port = await listen(0);
  const stop = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    received,
    setMode: (m) => {
      mode = m;
    },
    stop,
    restart: async () => {
      server = make();
      await listen(port);
    },
  };
}

export function unique(label: string): string {
  return `${label}-${randomUUID().slice(0, 8)}@example.test`;
}
