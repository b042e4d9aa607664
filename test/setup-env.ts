import { inject } from "vitest";

// Each test worker connects to the throwaway cluster started by the global setup.
process.env.DATABASE_URL = inject("databaseUrl");
