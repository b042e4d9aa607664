export * from "./billing";
export * from "./catalog";
export * from "./notify";
export * from "./provisioning";
export * from "./quotas";
export * from "./services";
export * from "./tenancy";
export * from "./webhooks";
