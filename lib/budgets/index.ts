/**
 * lib/budgets: monthly budgets per organization or project, the evaluation pass (exactly-once alerts by
 * email and in-console notification, written through lib/notify), the launch guard and stops at 100 % (the
 * stop itself is passed in by the caller: budgets sits below provisioning and never imports it).
 */
export { type AlertHook, type BudgetAlert, fireBudgetAlert } from "./alert";
export {
  type Budget,
  createBudget,
  deleteBudget,
  getBudget,
  type Precondition,
  updateBudget,
} from "./crud";
export { type BudgetAlertFacts, budgetAlertEmail, usageLink } from "./email";
export { type EvaluateBudgetsResult, effectiveThresholds, evaluateBudgets } from "./evaluate";
export { assertBudgetAllowsLaunch, assertServiceBudgetAllowsReplica, launchCapExistsSql } from "./guard";
export {
  type BudgetAlertRow,
  type BudgetStatus,
  type BudgetWithStatus,
  listBudgetAlerts,
  listBudgets,
} from "./queries";
export { budgetRecipients, type Recipient } from "./recipients";
export {
  BUDGET_ACTIONS,
  type BudgetActionAt100,
  type BudgetInput,
  type BudgetValues,
  budgetSchema,
} from "./schemas";
export {
  type BudgetView,
  budgetAlertView,
  budgetAlertViewSchema,
  budgetStatusView,
  budgetStatusViewSchema,
  budgetView,
  budgetViewSchema,
} from "./views";
