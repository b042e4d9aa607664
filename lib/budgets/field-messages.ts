import { fieldMessages } from "@/lib/core";

/** The budget's limits; each message and its check share one number. */
export const BUDGET_NAME_MAX = 80;
/** A threshold's lowest percentage: the budget pass skips budgets whose forecast is below it. */
export const BUDGET_PCT_MIN = 1;
export const BUDGET_PCT_MAX = 1000;
export const BUDGET_THRESHOLDS_MAX = 12;
export const BUDGET_RECIPIENTS_MAX = 50;
export const BUDGET_EMAILS_MAX = 20;

/**
 * Every field message of a budget, by stable key (catalog namespace BudgetFieldErrors, messages/<locale>/costs.json).
 * The English text is the API's problem detail; the console shows the key in the reader's language. Client-safe.
 */
export const BUDGET_FIELD_MESSAGES = fieldMessages("BudgetFieldErrors", {
  nameRequired: "Enter a name",
  nameTooLong: ["At most {max} characters", { max: BUDGET_NAME_MAX }],
  nameTaken: "A budget with this name already exists in this organization",
  projectInvalid: "Choose a project",
  projectUnknown: "This project does not exist in the organization",
  serviceInvalid: "Choose an inference service",
  serviceUnknown: "This service does not exist in the organization",
  serviceOtherProject: "This service belongs to another project: leave the project empty or choose its own",
  amountRequired: "Enter an amount in USD",
  amountPositive: "Enter an amount above zero",
  amountMax: "At most $100,000,000",
  amountDecimals: "Use at most two decimals",
  thresholdInvalid: "Give each threshold a kind and a percentage",
  thresholdKind: "Choose actual or forecast",
  pctRequired: "Enter a percentage",
  pctWhole: "Enter a whole percentage",
  pctMin: "At least 1 %",
  pctMax: ["At most {max} %", { max: BUDGET_PCT_MAX }],
  thresholdsMin: "Keep at least one threshold",
  thresholdsMax: ["At most {max} thresholds", { max: BUDGET_THRESHOLDS_MAX }],
  thresholdsUnique: "Each threshold may appear once",
  recipientsInvalid: "Choose members of the organization",
  recipientsMax: ["At most {max} members", { max: BUDGET_RECIPIENTS_MAX }],
  recipientsNotMembers: "Every recipient must be a member of the organization",
  emailsInvalid: "Enter valid email addresses",
  emailsMax: ["At most {max} extra addresses", { max: BUDGET_EMAILS_MAX }],
  actionInvalid: "Choose notify, block launches or stop instances",
  minutesRequired: "Enter minutes",
  minutesWhole: "Enter whole minutes",
  graceMin: "At least 0 minutes",
  graceMax: "At most 7 days",
});
