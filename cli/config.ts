import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CliError, EXIT } from "./errors";

/** What `forja login` stores: the server, the token and the organization the token reaches. */
export type Credentials = { url: string; token: string; org?: string };

/** $FORJA_CONFIG_DIR, else the platform's user config dir (XDG on Linux, Application Support, %APPDATA%). */
export function configDir(): string {
  if (process.env.FORJA_CONFIG_DIR) return process.env.FORJA_CONFIG_DIR;
  if (process.platform === "win32" && process.env.APPDATA) return path.join(process.env.APPDATA, "forja");
  if (process.platform === "darwin")
    return path.join(os.homedir(), "Library", "Application Support", "forja");
  return path.join(process.env.XDG_CONFIG_HOME || path.join(os.homedir(), ".config"), "forja");
}

export const configFile = () => path.join(configDir(), "credentials.json");

function readStored(): Partial<Credentials> {
  try {
    return JSON.parse(fs.readFileSync(configFile(), "utf8")) as Partial<Credentials>;
  } catch {
    return {};
  }
}

/** The token is a secret: the directory is 0700 and the file 0600, also when it already existed. */
export function saveCredentials(c: Credentials): string {
  const file = configFile();
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.writeFileSync(file, `${JSON.stringify(c, null, 2)}\n`, { mode: 0o600 });
  fs.chmodSync(file, 0o600);
  return file;
}

/** FORJA_URL / FORJA_TOKEN / FORJA_ORG win over the stored login (CI sets them, nothing is written). */
export function loadCredentials(): Credentials {
  const stored = readStored();
  const url = process.env.FORJA_URL || stored.url;
  const token = process.env.FORJA_TOKEN || stored.token;
  if (!url || !token) {
    throw new CliError(
      "Not logged in: run `forja login --url URL` or set FORJA_URL and FORJA_TOKEN",
      EXIT.usage,
    );
  }
  // A token from the environment brings its own organization: the stored one belongs to the stored token.
  const org = process.env.FORJA_ORG || (process.env.FORJA_TOKEN ? undefined : stored.org);
  return { url: url.replace(/\/+$/, ""), token, org };
}
