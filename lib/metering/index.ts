/**
 * lib/metering: the usage ledger (per-second, priced from the catalog at the time of use, reservations
 * consumed first), the metering pass the worker runs, reservations, and the cost explorer's queries.
 */

export {
  ENERGY_FORMULA,
  type EnergyMonth,
  energyByMonth,
  type InstanceEnergy,
  type MonthlyEnergy,
  monthlyEnergy,
} from "./energy";
export {
  type CostGroupTotal,
  type DailyCost,
  type DailyCostRow,
  dailyCost,
  type TopInstance,
  topInstances,
} from "./explorer";
export { exportLedgerCsv, LEDGER_CSV_COLUMNS } from "./export";
export { FORECAST_METHOD, type Forecast, forecastOf, round2 } from "./forecast";
export { type MeteringResult, meterUsage } from "./meter";
export { type Month, monthOf, parseMonth } from "./period";
export {
  billKindOf,
  COMPUTE_STATES,
  SETTLE_MS,
  STORAGE_STATES,
  STORAGE_USD_PER_GIB_HOUR,
} from "./rates";
export { purchaseReservation, quoteReservation, type ReservationQuote } from "./reservations";
export { type ReservationUtilization, type Savings, savings } from "./savings";
export {
  COST_GROUPS,
  type CostGroup,
  type CostRangeInput,
  costRangeSchema,
  type DailyCostInput,
  dailyCostSchema,
  type MonthInput,
  monthSchema,
  RESERVATION_TERMS,
  type ReservationInput,
  reservationSchema,
  type TopInstancesInput,
  topInstancesSchema,
} from "./schemas";
export { forecastMonthEnd, type MonthToDate, monthToDate } from "./spend";
export { budgetSpendSql, type ProjectSpendRow, projectSpend, type SpendScope } from "./spend-sql";
