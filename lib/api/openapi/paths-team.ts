import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { policySchema } from "@/lib/autoshutdown";
import { ASSIGNABLE_ROLES, createProjectSchema, inviteSchema } from "@/lib/tenancy";
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
  rowEtag,
} from "./parts";
import { projectListSchema } from "./responses";

/** What organization admins manage: auto-shutdown policies, members, invitations, projects. */
const isoTime = z.string().meta({ format: "date-time" });
const idPath = (what: string) => z.object({ org: orgParam, id: z.uuid().meta({ description: what }) });
const nullableInt = z.int().nullable();
const role = z.enum(["owner", "admin", "member", "viewer"]);

const policyView = z
  .object({
    id: z.uuid(),
    orgId: z.uuid(),
    projectId: z.uuid().nullable(),
    gpuModelId: z.string().nullable(),
    defaultIdlePct: z.number(),
    defaultIdleMinutes: nullableInt,
    idleRequired: z.boolean(),
    idleMinutesMax: nullableInt,
    idlePctMin: z.number().nullable(),
    defaultMaxRuntimeMinutes: nullableInt,
    maxRuntimeMinutesMax: nullableInt,
    allowSnooze: z.boolean(),
    snoozeMinutesMax: z.int(),
    maxSnoozes: z.int(),
    warningMinutes: z.int(),
    updatedBy: z.uuid().nullable(),
    createdAt: isoTime,
    updatedAt: isoTime,
  })
  .meta({ id: "AutoShutdownPolicy" });

const memberView = z
  .object({ userId: z.uuid(), name: z.string(), email: z.string(), role, joinedAt: isoTime })
  .meta({ id: "Member" });

const invitationView = z
  .object({
    id: z.uuid(),
    email: z.string(),
    role,
    expiresAt: isoTime,
    createdAt: isoTime,
    invitedByName: z.string().nullable(),
    expired: z.boolean(),
  })
  .meta({ id: "Invitation" });

const projectView = projectListSchema.shape.items.element;

export const teamPaths: ZodOpenApiPathsObject = {
  "/orgs/{org}/auto-shutdown/policies": {
    get: {
      tags: ["Auto-shutdown"],
      summary: "List auto-shutdown policies",
      description:
        "The organization's policy, then per project and GPU model: defaults, enforced minimums, snooze limits.",
      requestParams: { path: orgPath, query: pageParams },
      responses: responses(
        {
          "200": json(
            "Policies",
            listOf(
              policyView.extend({ projectName: z.string().nullable(), gpuModelName: z.string().nullable() }),
            ),
          ),
        },
        [422],
      ),
    },
    put: {
      tags: ["Auto-shutdown"],
      summary: "Set the policy of a scope (admins and owners)",
      description:
        "Creates or replaces the policy of the body's scope (project and gpuModelId; both empty: the organization's). A scope has one policy, so repeating it is harmless. With If-Match (the ETag of GET …/policies/{id}), a policy changed since you read it — or a scope that has none — is a 412 and nothing is written.",
      requestParams: { path: orgPath, header: ifMatchHeader },
      requestBody: { required: true, content: { "application/json": { schema: policySchema } } },
      responses: responses({ "200": jsonWithEtag("Saved", policyView) }, [400, 403, 412, 413, 422]),
    },
  },
  "/orgs/{org}/auto-shutdown/policies/{id}": {
    get: {
      tags: ["Auto-shutdown"],
      summary: "Get a policy, with its ETag",
      requestParams: { path: idPath("Policy id") },
      responses: responses({ "200": jsonWithEtag("The policy", policyView) }),
    },
    delete: {
      tags: ["Auto-shutdown"],
      summary: "Delete a policy (admins and owners)",
      requestParams: { path: idPath("Policy id"), header: ifMatchHeader },
      responses: responses({ "204": { description: "Deleted; the broader policy applies" } }, [403, 412]),
    },
  },
  "/orgs/{org}/members": {
    get: {
      tags: ["Members"],
      summary: "List members",
      requestParams: { path: orgPath, query: pageParams },
      responses: responses({ "200": json("By role, then name", listOf(memberView)) }, [422]),
    },
  },
  "/orgs/{org}/members/{id}": {
    get: {
      tags: ["Members"],
      summary: "Get a member, with the ETag of their role",
      requestParams: { path: idPath("The member's user id") },
      responses: responses({ "200": jsonWithEtag("The member", memberView) }),
    },
    put: {
      tags: ["Members"],
      summary: "Change a member's role (admins; owners only by owners)",
      description:
        "The last owner cannot be demoted (409). With If-Match (the ETag of GET …/members/{id}), a role changed since you read it is a 412 and nothing is written.",
      requestParams: { path: idPath("The member's user id"), header: ifMatchHeader },
      requestBody: {
        required: true,
        content: { "application/json": { schema: z.object({ role: z.enum([...ASSIGNABLE_ROLES]) }) } },
      },
      responses: responses(
        { "200": jsonWithEtag("Changed", z.object({ userId: z.uuid(), role })) },
        [400, 403, 409, 412, 413, 422],
      ),
    },
    delete: {
      tags: ["Members"],
      summary: "Remove a member (admins; owners only by owners)",
      requestParams: { path: idPath("The member's user id"), header: ifMatchHeader },
      responses: responses({ "204": { description: "Removed" } }, [403, 409, 412, 422]),
    },
  },
  "/orgs/{org}/invitations": {
    get: {
      tags: ["Members"],
      summary: "Open invitations (admins and owners)",
      requestParams: { path: orgPath, query: pageParams },
      responses: responses(
        { "200": json("Newest first", listOf(invitationView.extend({ etag: rowEtag("DELETE") }))) },
        [403, 422],
      ),
    },
    post: {
      tags: ["Members"],
      summary: "Invite someone by email (admins; owners only by owners)",
      description: "The invitee gets a link by email; the link's token is never returned by the API.",
      requestParams: { path: orgPath, header: idempotencyHeader },
      requestBody: { required: true, content: { "application/json": { schema: inviteSchema } } },
      responses: responses(
        createdResponses(
          "Invitation",
          z.object({ id: z.uuid(), email: z.string(), role, expiresAt: isoTime }),
        ),
        [400, 403, 409, 413, 422],
      ),
    },
  },
  "/orgs/{org}/invitations/{id}": {
    delete: {
      tags: ["Members"],
      summary: "Revoke an invitation (admins and owners)",
      description:
        "With If-Match (the row's `etag` from the list), an invitation resent or changed since it was read is a 412 and stays open.",
      requestParams: { path: idPath("Invitation id"), header: ifMatchHeader },
      responses: responses({ "204": { description: "Revoked" } }, [403, 409, 412, 422]),
    },
  },
};

/** POST on the project list, merged into its path item by the document. */
export const createProjectOperation = {
  tags: ["Projects"],
  summary: "Create a project (admins and owners)",
  requestParams: { path: orgPath, header: idempotencyHeader },
  requestBody: { required: true, content: { "application/json": { schema: createProjectSchema } } },
  responses: responses(createdResponses("Project", projectView), [400, 403, 409, 413, 422]),
};
