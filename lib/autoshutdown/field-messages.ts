import { fieldMessages } from "@/lib/core";

/**
 * Every field message of auto-shutdown (the policy form, the snooze form, a member's settings against the
 * policy), by stable key: catalog namespace AutoShutdownFieldErrors (messages/<locale>/costs.json). Messages
 * whose numbers come from the organization's policy are declared with a sample and raised with
 * fieldMessageWith. Client-safe.
 */
export const AUTOSHUTDOWN_FIELD_MESSAGES = fieldMessages("AutoShutdownFieldErrors", {
  minutesRequired: "Enter minutes",
  minutesWhole: "Enter whole minutes",
  minutesMin1: ["At least {min} minutes", { min: 1 }],
  minutesMin5: ["At least {min} minutes", { min: 5 }],
  minutesMin10: ["At least {min} minutes", { min: 10 }],
  minutesMax120: ["At most {max} minutes", { max: 120 }],
  minutesMax1440: ["At most {max} minutes", { max: 1440 }],
  minutesMax43200: ["At most {max} minutes", { max: 43_200 }],
  pctRequired: "Enter a percentage",
  pctWhole: "Enter a whole percentage",
  pctMin: "At least 1 %",
  pctMax: "At most 100 %",
  countWhole: "Enter a whole number",
  countMin: "At least 0",
  countMax: "At most 20",
  projectInvalid: "Choose a project",
  modelInvalid: "Choose a GPU model",
  idleDefaultRequired: "Set a default idle time when idle shutdown is required",
  defaultAboveLimit: "The default cannot be above the limit",
  defaultBelowMinimum: "The default cannot be below the minimum",
  runtimeDefaultRequired: "Set a default max runtime when you set a limit",
  projectUnknown: "This project does not exist in the organization",
  modelUnknown: "This GPU model does not exist",
  snoozeAbovePolicy: ["Your organization allows at most {max} minutes at a time", { max: 60 }],
  idleRequiredByPolicy: "Your organization requires idle shutdown; only an admin can switch it off",
  idleMinutesAbovePolicy: ["Your organization allows at most {max} idle minutes", { max: 60 }],
  idlePctBelowPolicy: ["Your organization requires an idle threshold of at least {min} %", { min: 5 }],
  runtimeRequiredByPolicy: [
    "Your organization requires a max runtime of at most {max} minutes",
    { max: 600 },
  ],
  runtimeAbovePolicy: ["Your organization allows at most {max} minutes of runtime", { max: 600 }],
});
