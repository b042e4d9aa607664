import { fieldMessages } from "@/lib/core";

// The limits the messages name live here so each message and its check share one number.
export const DISK_GIB_MIN = 10;
export const DISK_GIB_MAX = 4096;
/** Higher runs first. Members may only lower their own work (batch jobs); admins and owners may raise it. */
export const PRIORITY_MIN = -100;
export const PRIORITY_MAX = 100;
/** What a launch gets when it sets none; only admins and owners may go above it. */
export const DEFAULT_PRIORITY = 0;

/**
 * Every field message of the launch spec, by stable key (catalog namespace LaunchFieldErrors). The English
 * text is the API's problem detail; the console shows the key in the reader's language. Client-safe.
 */
export const LAUNCH_FIELD_MESSAGES = fieldMessages("LaunchFieldErrors", {
  pctMin: "At least 1 %",
  pctMax: "At most 100 %",
  idleMinutesMin: "At least 5 minutes",
  idleMinutesMax: "At most 1440 minutes (a day)",
  runtimeMin10: "At least 10 minutes",
  cronRequired: "Enter a cron expression",
  cronInvalid: "Not a valid cron expression",
  timeZoneInvalid: "Not a known time zone (use e.g. Europe/Madrid)",
  kindInvalid: "Choose notebook or container",
  nameRequired: "Enter a name",
  nameTooLong: "At most 63 characters",
  namePattern:
    "Use lower-case letters, digits and hyphens; start with a letter and end with a letter or digit",
  projectRequired: "Choose a project",
  regionRequired: "Choose a region",
  instanceTypeRequired: "Choose an instance type",
  pricingInvalid: "Choose on-demand, spot or reserved",
  imageRequired: "Choose an image",
  commandTooLong: "At most 1024 characters",
  argTooLong: "At most 1024 characters per argument",
  argsTooMany: "At most 64 arguments",
  envName: "Variable names use letters, digits and _",
  envTooMany: "At most 64 variables",
  wholeNumber: "Enter a whole number",
  portRange: "Ports are 1–65535",
  diskWhole: "Enter a whole number of GiB",
  diskMin: ["At least {min} GiB", { min: DISK_GIB_MIN }],
  diskMax: ["At most {max} GiB", { max: DISK_GIB_MAX }],
  minutesWhole: "Enter a whole number of minutes",
  runtimeMin: "At least 1 minute",
  runtimeMax: "At most 30 days",
  priorityMin: ["At least {min}", { min: PRIORITY_MIN }],
  priorityMax: ["At most {max}", { max: PRIORITY_MAX }],
  keyTooLong: "At most 200 characters",
  containerOnly: "Only containers take this; notebooks do not",
  autoRecoverSpot: "Only spot instances can auto-recover after a preemption",
  priorityAdminOnly: ["Only admins and owners can set a priority above {max}", { max: DEFAULT_PRIORITY }],
  regionUnknown: "This region does not exist or is closed",
  residency: [
    "Your organization's data-residency policy allows only {allowed}; {region} is in {jurisdiction}",
    { allowed: "EU", region: "us-east-1", jurisdiction: "US" },
  ],
  instanceTypeUnknown: "This instance type does not exist",
  imageUnknown: "This image does not exist",
  imageKind: [
    "{image} cannot run as a {kind}; choose another image",
    { image: "JupyterLab", kind: "container" },
  ],
  imageAccelerator: [
    "{image} is built for {accelerator} GPUs, not {vendor}",
    { image: "PyTorch", accelerator: "NVIDIA", vendor: "AMD" },
  ],
  notOffered: [
    "{instanceType} is not offered {pricing} in {region}",
    { instanceType: "h100.1x", pricing: "spot", region: "eu-1" },
  ],
  noReservation: [
    "Your organization has no active reservation for {model} in {region} with enough unused GPUs; choose on-demand or spot",
    { model: "NVIDIA H100", region: "eu-1" },
  ],
});
