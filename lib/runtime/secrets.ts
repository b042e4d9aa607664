import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

export function dataDir(): string {
  return path.resolve(process.env.FORJA_DATA_DIR ?? ".data");
}

type Secrets = { nextauthSecret: string };

/** Secrets generated on first start and kept under the (git-ignored) data folder; never committed. */
export function loadOrCreateSecrets(dir = dataDir()): Secrets {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "secrets.json");
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, "utf8")) as Secrets;
  const secrets: Secrets = { nextauthSecret: randomBytes(32).toString("base64url") };
  fs.writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}
