import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { PRICING_MODELS, priceRowSchema, schedulePriceSchema } from "@/lib/catalog";
import { createdResponses, idempotencyHeader, json, listOf, pageParams, responses } from "./parts";

const scheduledSchema = z
  .object({
    id: z.uuid(),
    instanceTypeId: z.string(),
    regionCode: z.string(),
    pricingModel: z.enum(PRICING_MODELS),
    usdPerHour: z.number(),
    effectiveFrom: z.date(),
    effectiveTo: z.date().nullable().meta({ description: "Exclusive; null = until a later change" }),
  })
  .meta({ id: "ScheduledPrice" });

/** Operators' price administration: the price book, scheduled changes and their cancellation. */
export const pricePaths: ZodOpenApiPathsObject = {
  "/admin/prices": {
    get: {
      tags: ["Operators"],
      summary: "List prices",
      description:
        "Platform operators only. Every instance type × region × pricing model on sale now or scheduled: the price in force, its per-GPU-hour figure against the public market median for the GPU model (`vsMarket`, the margin) with the market's 10th–90th percentile range, and the changes still to come. Filter by `region` and `gpuModel`.",
      requestParams: {
        query: pageParams.extend({ region: z.string().optional(), gpuModel: z.string().optional() }),
      },
      responses: responses(
        { "200": json("Prices", listOf(priceRowSchema.meta({ id: "PriceRow" }))) },
        [403, 422],
      ),
    },
    post: {
      tags: ["Operators"],
      summary: "Schedule a price change",
      description:
        "Platform operators only. The price takes effect at `effectiveFrom` (in the future; never applied early): the catalog, launches and metering use it from that instant, the price in force until then. A time already taken for the same key is a 409.",
      requestParams: { header: idempotencyHeader },
      requestBody: { required: true, content: { "application/json": { schema: schedulePriceSchema } } },
      responses: responses(
        createdResponses("Price change", scheduledSchema, { location: false }),
        [400, 403, 409, 413, 422],
      ),
    },
  },
  "/admin/prices/{id}": {
    delete: {
      tags: ["Operators"],
      summary: "Cancel a scheduled price change",
      description:
        "Platform operators only. Only a change that has not taken effect (409 otherwise); the price before it runs on as it did.",
      requestParams: { path: z.object({ id: z.uuid().meta({ description: "Price id" }) }) },
      responses: responses({ "200": json("Cancelled", scheduledSchema) }, [403, 409]),
    },
  },
};
