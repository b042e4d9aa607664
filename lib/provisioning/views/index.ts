export { legalActions, loadInstanceDetail, loadInstanceList } from "./instances";
export { launchPreview, launchPreviewQuerySchema } from "./preview";
export * from "./schemas";
