/** Fixed choices free of zod: client components import this module by path. */
export const PROJECT_ENVIRONMENTS = ["development", "staging", "production"] as const;
export type ProjectEnvironment = (typeof PROJECT_ENVIRONMENTS)[number];
