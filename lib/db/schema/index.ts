export * from "./catalog";
export * from "./notify";
export * from "./tenancy";
