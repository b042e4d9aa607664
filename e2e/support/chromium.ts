import fs from "node:fs";

/** The Chromium every browser run uses (Playwright, Lighthouse): never one a tool downloads. */
export function chromiumPath(): string {
  const candidates = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].filter(
    (p): p is string => Boolean(p),
  );
  const found = candidates.find((p) => fs.existsSync(p));
  if (!found) {
    throw new Error(
      "No Chromium found. Install one: `sudo apt-get install -y chromium` (Debian/Ubuntu), or set CHROMIUM_PATH to a Chromium/Chrome binary.",
    );
  }
  return found;
}
