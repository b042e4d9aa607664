export * from "./action-result";
export * from "./context";
export * from "./email";
export * from "./errors";
export * from "./messages";
export * from "./paging";
export * from "./policy";
export * from "./validation";
