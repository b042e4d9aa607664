import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { AUTH_DIR, type Role } from "./env";

export type RawResponse = { status: number; type: string; location: string; body: string };

/**
 * One request exactly as written (no URL normalisation, no redirects followed), so the tests see what the
 * server answers to a malformed %-escape, a huge header or a page a role may not see.
 */
export function raw(
  baseURL: string,
  method: string,
  target: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<RawResponse> {
  const u = new URL(baseURL);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, method, path: target, headers }, (res) => {
      let b = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => {
        if (b.length < 200_000) b += c;
      });
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          type: String(res.headers["content-type"] ?? ""),
          location: String(res.headers.location ?? ""),
          body: b,
        }),
      );
    });
    req.on("error", reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** The Cookie header of a role signed in by the setup project. */
export function cookieOf(role: Role): string {
  const state = JSON.parse(fs.readFileSync(path.join(AUTH_DIR, `${role}.json`), "utf8")) as {
    cookies: Array<{ name: string; value: string }>;
  };
  return state.cookies.map((c) => `${c.name}=${c.value}`).join("; ");
}
