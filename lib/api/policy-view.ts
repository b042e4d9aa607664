import type { AutoShutdownPolicy } from "@/lib/autoshutdown";

/** A policy as the API returns it; its ETag is the hash of exactly this (GET, PUT and If-Match agree). */
export const policyView = (p: AutoShutdownPolicy) => ({
  ...p,
  createdAt: p.createdAt.toISOString(),
  updatedAt: p.updatedAt.toISOString(),
});
