import "server-only";
import { headers } from "next/headers";

/**
 * Where this console's gateway answers, as the reader reached the console: the same host on the gateway's
 * port (FORJA_GATEWAY_PORT, default the console's PORT + 100, as scripts/start.ts starts it).
 */
export async function gatewayBase(): Promise<string> {
  const h = await headers();
  const host = h.get("x-forwarded-host") ?? h.get("host") ?? "localhost";
  const proto = h.get("x-forwarded-proto") ?? "http";
  const hostname = host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : host.split(":")[0];
  const port = process.env.FORJA_GATEWAY_PORT ?? String(Number(process.env.PORT ?? 3000) + 100);
  return `${proto}://${hostname}:${port}`;
}
