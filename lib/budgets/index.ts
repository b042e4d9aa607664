/**
 * lib/budgets: monthly budgets per organization or project, the evaluation pass (exactly-once alerts by
 * email and in-console notification), the launch guard and stops at 100 %, and the notifications list.
 * Notification kinds (CostNotices messages render them): budget.actual, budget.forecast, budget.stopped,
 * autoshutdown.warning, autoshutdown.stopped.
 */
export { type AlertHook, type BudgetAlert, fireBudgetAlert } from "./alert";
export { type Budget, createBudget, deleteBudget, getBudget, updateBudget } from "./crud";
export { type BudgetAlertFacts, budgetAlertEmail, usageLink } from "./email";
export { type EvaluateBudgetsResult, effectiveThresholds, evaluateBudgets } from "./evaluate";
export { assertBudgetAllowsLaunch } from "./guard";
export {
  createNotification,
  listNotifications,
  markNotificationsRead,
  type NewNotification,
  type Notification,
  type NotificationSeverity,
} from "./notifications";
export { POLICY_ACTOR, policyStop } from "./policy-stop";
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
export { type CostTexts, costTexts, formatMessage, publicBaseUrl } from "./texts";
