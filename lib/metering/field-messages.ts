import { fieldMessages } from "@/lib/core";

export const COST_RANGE_MAX_DAYS = 366;
export const RESERVATION_GPUS_MAX = 512;

/**
 * Every field message of the cost explorer's inputs and of a reservation, by stable key: catalog namespace
 * CostFieldErrors (messages/<locale>/costs.json). Messages naming the catalog (a model, a region, the
 * organization's jurisdictions) are declared with a sample and raised with fieldMessageWith. Client-safe.
 */
export const COST_FIELD_MESSAGES = fieldMessages("CostFieldErrors", {
  startRequired: "Enter a start date",
  endRequired: "Enter an end date",
  endAfterStart: "The end must be after the start",
  rangeTooLong: ["At most {max} days", { max: COST_RANGE_MAX_DAYS }],
  projectInvalid: "Choose a project",
  groupInvalid: "Group by project, GPU model, region, pricing model or service",
  limitInvalid: "Enter a whole number from 1 to 100",
  monthFormat: "Use a month like 2030-01",
  modelRequired: "Choose a GPU model",
  regionRequired: "Choose a region",
  gpusRequired: "Enter a number of GPUs",
  gpusWhole: "Enter a whole number of GPUs",
  gpusMin: "At least 1 GPU",
  gpusMax: ["At most {max} GPUs", { max: RESERVATION_GPUS_MAX }],
  termInvalid: "Choose a 1-month or 1-year term",
  keyInvalid: "Enter a key of 1 to 200 characters",
  keyTooLong: "At most 200 characters",
  modelUnknown: "This GPU model does not exist",
  regionUnknown: "This region does not exist or is closed",
  residency: [
    "Your organization's data-residency policy allows only {jurisdictions}",
    { jurisdictions: "EU" },
  ],
  termNotOffered: [
    "{model} is not offered on this term in {region}",
    { model: "NVIDIA H100", region: "eu-1" },
  ],
});
