import { fieldMessages } from "@/lib/core";

// The limits the messages name live here so each message and its check share one number.
export const REPLICAS_MAX = 64;
export const TARGET_MAX = 10_000;
export const DELAY_SECONDS_MAX = 3600;

/** Every field message of the service spec, by stable key (catalog namespace ServiceFieldErrors). Client-safe. */
export const SERVICE_FIELD_MESSAGES = fieldMessages("ServiceFieldErrors", {
  nameRequired: "Enter a service name",
  namePattern:
    "Use lower-case letters, digits and hyphens (at most 40); start with a letter and end with a letter or digit",
  nameTaken: "A service with this name already exists in this organization",
  imageRequired: "Choose a model-server image",
  portRange: "The port must be a whole number from 1 to 65535",
  offeringRequired: "Choose a GPU offering per replica",
  regionRequired: "Choose a region for the replicas",
  pricingInvalid: "Choose on-demand or spot replicas",
  replicasWhole: "Enter a whole number of replicas, 0 or more",
  replicasMax: ["At most {max} replicas", { max: REPLICAS_MAX }],
  maxBelowMin: "The maximum cannot be below the minimum",
  maxZero: "The maximum must be at least 1",
  metricInvalid: "Choose requests per second or concurrent requests",
  targetPositive: "The target per replica must be greater than 0",
  targetMax: ["At most {max} per replica", { max: TARGET_MAX }],
  delayRange: ["Enter 0 to {max} seconds", { max: DELAY_SECONDS_MAX }],
  probePath: "The readiness path starts with /",
  probeInterval: "Probe every 1 to 60 seconds",
  probeTimeout: "The probe timeout is 1 to 30 seconds and not longer than the interval",
  authInvalid: "Choose service tokens or public",
  commandTooLong: "At most 1024 characters",
});
