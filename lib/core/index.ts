export * from "./action-result";
export * from "./context";
export * from "./errors";
export * from "./validation";
