import path from "node:path";

/** Paths and fixed demo sign-ins shared by the global setup and the tests (throwaway data only). */
// Overridable so several runs (e.g. parallel developers) can use separate folders.
export const E2E_DIR = path.resolve(process.env.E2E_DIR ?? ".data/e2e");
export const E2E_DIST_DIR = process.env.E2E_DIST_DIR ?? ".next-e2e";
export const MAILBOX_DIR = path.join(E2E_DIR, "mailbox");
export const AUTH_DIR = path.join(E2E_DIR, "auth");
export const STATE_FILE = path.join(E2E_DIR, "state.json");

export type E2EState = {
  databaseUrl: string;
  oidcIssuer: string;
  smtpPort: number;
  /** Why the Slurm-backed region has no cluster (Slurm not installed, outside CI); null when it has one. */
  slurmSkipped: string | null;
  /** The cluster's slurm.conf (SLURM_CONF for squeue in the journey). */
  slurmConf: string | null;
};

// Passwords for the throwaway test database only; the real demo seed generates its own under .data/.
export const USERS = {
  owner: { email: "owner@acme.test", password: "owner-pass-e2e-1" },
  admin: { email: "admin@acme.test", password: "admin-pass-e2e-1" },
  member: { email: "member@acme.test", password: "member-pass-e2e-1" },
  viewer: { email: "viewer@acme.test", password: "viewer-pass-e2e-1" },
  operator: { email: "operator@forja.test", password: "operator-pass-e2e-1" },
  other: { email: "owner@globex.test", password: "globex-pass-e2e-1" },
} as const;
export type Role = keyof typeof USERS;
