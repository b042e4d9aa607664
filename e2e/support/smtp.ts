import fs from "node:fs";
import path from "node:path";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

/** A real SMTP server on loopback that writes each received message to dir as an .eml file. */
export async function startMailbox(dir: string): Promise<{ port: number; stop: () => Promise<void> }> {
  let n = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        n += 1;
        fs.writeFileSync(path.join(dir, `${Date.now()}-${n}.eml`), Buffer.concat(chunks));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const addr = server.server.address();
  const port = typeof addr === "object" && addr ? addr.port : 0;
  return { port, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

export type ReceivedMail = { to: string; subject: string; text: string; html: string };

/** Every message in the mailbox folder, parsed. */
export async function readMailbox(dir: string): Promise<ReceivedMail[]> {
  if (!fs.existsSync(dir)) return [];
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".eml"))
    .sort();
  const out: ReceivedMail[] = [];
  for (const f of files) {
    const parsed = await simpleParser(fs.readFileSync(path.join(dir, f)));
    const to = Array.isArray(parsed.to) ? parsed.to.map((a) => a.text).join(", ") : (parsed.to?.text ?? "");
    out.push({ to, subject: parsed.subject ?? "", text: parsed.text ?? "", html: parsed.html || "" });
  }
  return out;
}
