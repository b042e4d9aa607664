/** The GPU catalog: regions, GPU models, offerings with live availability, and prices in force. */

/** The power limit assumed where a GPU model publishes no TDP (one value for catalog, provider and charts). */
export { FALLBACK_TDP_WATTS } from "@/lib/db/schema";
export type { CapacitySource } from "./capacity";
export { type AvailabilityPoint, type ComparedOffering, compareOfferings } from "./compare";
export {
  type DisallowedReason,
  getOffering,
  listOfferings,
  type Offering,
  type OfferingPage,
} from "./offerings";
/** The catalog's previous one-statement query: the reference tests and the benchmark compare listOfferings with. */
export { listOfferingsReference } from "./offerings-reference";
export {
  cancelPriceChange,
  PRICE_FIELD_MESSAGES,
  type ScheduledPrice,
  type SchedulePriceInput,
  schedulePriceChange,
  schedulePriceSchema,
} from "./price-admin";
export {
  listInstanceTypeChoices,
  listPrices,
  type PriceFilters,
  type PriceRow,
  priceListSchema,
  priceRowSchema,
} from "./price-list";
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
  type CompareKey,
  catalogFiltersSchema,
  catalogSearchParams,
  compareKeyOf,
  DEFAULT_PAGE_SIZE,
  GPU_COUNT_OPTIONS,
  type GpuCountOption,
  MAX_COMPARE,
  PAGE_SIZES,
  PRICING_MODELS,
  type PricingModel,
  parseCatalogFilters,
  parseCompareKeys,
  type RawParams,
  SORT_METRICS,
  type SortMetric,
  splitSort,
} from "./schemas";
export { insertSynthetic, type SyntheticPlan, type SyntheticSize, syntheticPlan } from "./synthetic";
