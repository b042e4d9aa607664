import type http from "node:http";
import type { Duplex } from "node:stream";

export const MAX_HEADER_BYTES: number;
export function problemBody(status: number, detail: string, instance?: string): string;
export function refusal(target: string): string | null;
export function foreignActionOrigin(req: http.IncomingMessage): boolean;
export function guarded(inner: http.RequestListener): http.RequestListener;
export function onClientError(err: Error & { code?: string }, socket: Duplex): void;
