import { inject } from "vitest";

// Each test worker connects to the throwaway cluster started by the global setup.
process.env.DATABASE_URL = inject("databaseUrl");
// The outbox seals secrets with a key derived from it (lib/notify/sealed.ts); every real process has one.
process.env.NEXTAUTH_SECRET ??= "vitest-only-secret-not-used-anywhere-else";
