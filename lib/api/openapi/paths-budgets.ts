import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { budgetAlertViewSchema, budgetSchema, budgetStatusViewSchema, budgetViewSchema } from "@/lib/budgets";
import {
  createdResponses,
  idempotencyHeader,
  ifMatchHeader,
  json,
  jsonWithEtag,
  listOf,
  orgParam,
  orgPath,
  pageParams,
  responses,
} from "./parts";

const budgetPath = z.object({ org: orgParam, id: z.uuid().meta({ description: "Budget id" }) });
const body = { required: true, content: { "application/json": { schema: budgetSchema } } };
const withEtag = (description: string) => jsonWithEtag(description, budgetViewSchema);

export const budgetPaths: ZodOpenApiPathsObject = {
  "/orgs/{org}/budgets": {
    get: {
      tags: ["Budgets"],
      summary: "List budgets with this month's standing",
      requestParams: { path: orgPath, query: pageParams },
      responses: responses({ "200": json("By name", listOf(budgetStatusViewSchema)) }, [422]),
    },
    post: {
      tags: ["Budgets"],
      summary: "Create a monthly budget (admins and owners)",
      description:
        "For the organization or one project; thresholds on actual and forecast spend (default 50/80/100 % actual, 100 % forecast) and the action at 100 %.",
      requestParams: { path: orgPath, header: idempotencyHeader },
      requestBody: body,
      responses: responses(createdResponses("Budget", budgetViewSchema), [400, 403, 409, 413, 422]),
    },
  },
  "/orgs/{org}/budgets/{id}": {
    get: {
      tags: ["Budgets"],
      summary: "Get a budget",
      requestParams: { path: budgetPath },
      responses: responses({ "200": withEtag("The budget") }),
    },
    put: {
      tags: ["Budgets"],
      summary: "Replace a budget's settings (admins and owners)",
      description: "Alerts already sent this month stay sent. Send If-Match with the ETag you read.",
      requestParams: { path: budgetPath, header: ifMatchHeader },
      requestBody: body,
      responses: responses({ "200": withEtag("Saved") }, [400, 403, 412, 413, 422]),
    },
    delete: {
      tags: ["Budgets"],
      summary: "Delete a budget (admins and owners)",
      requestParams: { path: budgetPath, header: ifMatchHeader },
      responses: responses({ "204": { description: "Deleted" } }, [403, 412]),
    },
  },
  "/orgs/{org}/budgets/{id}/alerts": {
    get: {
      tags: ["Budgets"],
      summary: "The budget's alert history",
      description: "Each threshold alerts once per month; newest first.",
      requestParams: { path: budgetPath, query: pageParams },
      responses: responses({ "200": json("Newest first", listOf(budgetAlertViewSchema)) }, [422]),
    },
  },
};
