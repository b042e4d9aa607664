/** The GPU catalog: regions, GPU models, offerings with live availability, and prices in force. */
export {
  type DisallowedReason,
  getOffering,
  listOfferings,
  type Offering,
  type OfferingPage,
} from "./offerings";
export { type PriceInForce, priceAt } from "./prices";
export {
  type GpuModel,
  getRegion,
  type JurisdictionGroup,
  listGpuModels,
  listRegions,
  type Region,
} from "./reference";
export {
  CATALOG_SORTS,
  type CatalogFilterInput,
  type CatalogFilters,
  type CatalogSort,
  catalogFiltersSchema,
  catalogSearchParams,
  DEFAULT_PAGE_SIZE,
  GPU_COUNT_OPTIONS,
  type GpuCountOption,
  PAGE_SIZES,
  PRICING_MODELS,
  type PricingModel,
  parseCatalogFilters,
  type RawParams,
} from "./schemas";
export { insertSynthetic, type SyntheticPlan, type SyntheticSize, syntheticPlan } from "./synthetic";
