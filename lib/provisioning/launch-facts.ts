import "server-only";
import { type SQL, sql } from "drizzle-orm";
import type { OrgAccessRow } from "@/lib/access";
import { hasPoliciesSql } from "@/lib/autoshutdown";
import { launchCapExistsSql } from "@/lib/budgets";
import type { Tx } from "@/lib/db/client";
import { executePrepared } from "@/lib/db/prepared";
import { quotaLockOf, suspensionReasonSql } from "@/lib/quotas";
import {
  currentPriceSql,
  OFFERING_COLUMNS,
  type Offering,
  type OfferingRow,
  offeringOf,
  type PricingModelDb,
} from "./offerings";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Everything launch checks before it writes, as read by one statement (null = not there). */
export type LaunchFacts = {
  /** The gate's read (lib/access orgAccessSql), judged by the caller; undefined: no such organization for this actor. */
  access: OrgAccessRow | undefined;
  suspensionReason: string | null;
  projectId: string | null;
  region: { code: string; active: boolean; jurisdiction: string } | null;
  offering: Offering | null;
  image: { name: string; active: boolean; kinds: string[]; accelerator: string } | null;
  /** The price in force for the asked pricing model (not read for reserved: the term decides it). */
  price: string | null;
  /** The organization has auto-shutdown policies (none: the built-in one applies, nothing more to read). */
  hasPolicies: boolean;
  /** A budget that may block launches covers the project (then its spend is computed). */
  budgetCapped: boolean;
  /**
   * The statement took the quota lock of the organization × GPU model × region (there is a project, a region
   * and an offering): a later statement's snapshot sees every launch that held it before this one.
   */
  quotaLocked: boolean;
};

const NOTHING: Omit<LaunchFacts, "access"> = {
  suspensionReason: null,
  projectId: null,
  region: null,
  offering: null,
  image: null,
  price: null,
  hasPolicies: false,
  budgetCapped: false,
  quotaLocked: false,
};

export type FactsRow = OfferingRow &
  OrgAccessRow & {
    suspension_reason: string | null;
    project_id: string | null;
    region_code: string | null;
    region_active: boolean | null;
    jurisdiction: string | null;
    image_name: string | null;
    image_active: boolean | null;
    image_kinds: string[] | null;
    image_accelerator: string | null;
    price: string | null;
    has_policies: boolean;
    budget_capped: boolean;
    quota_locked: boolean | null;
  };

export type LaunchFactsInput = {
  /** lib/access orgAccessSql for the organization. */
  access: SQL;
  project: string;
  regionCode: string;
  instanceTypeId: string;
  imageId: string;
  pricingModel: PricingModelDb | null;
  now: Date;
};

/** Runs launchFactsQuery's statement. */
export function runLaunchFacts(tx: Tx, query: SQL): Promise<{ rows: FactsRow[] }> {
  // Prepared: its planning took longer than running it (issue 13).
  return executePrepared<FactsRow>(tx, query);
}

/**
 * The organization as the access gate reads it, and the project (by id or slug, in that organization),
 * region, offering, image, current price, suspension, policy and budget-cap facts of a launch in one
 * statement: launch used to read them one statement each, and round trips were most of its cost. Run by
 * runLaunchFacts (launch sends it with its transaction's BEGIN) and read by launchFactsOf: no row for the
 * gate (the slug names nothing this actor belongs to) → only `access` is undefined; nothing else was read.
 */
export function launchFactsQuery(q: LaunchFactsInput): SQL {
  const projectMatch = UUID.test(q.project) ? sql`p.id = ${q.project}::uuid` : sql`p.slug = ${q.project}`;
  const price = q.pricingModel
    ? currentPriceSql(q.instanceTypeId, q.regionCode, q.pricingModel, q.now)
    : sql`null::numeric`;
  return sql`
    select a.*, ${suspensionReasonSql(sql`a.org_id`)} as suspension_reason,
      p.id as project_id,
      r.code as region_code, r.active as region_active, r.jurisdiction,
      ${OFFERING_COLUMNS},
      img.name as image_name, img.active as image_active, img.kinds as image_kinds,
      img.accelerator as image_accelerator,
      ${price}::text as price,
      ${hasPoliciesSql(sql`a.org_id`)} as has_policies,
      ${launchCapExistsSql(sql`a.org_id`, sql`p.id`)} as budget_capped,
      case when r.code is not null and t.id is not null and p.id is not null then (select true from
        (select ${quotaLockOf(sql`a.org_id`, sql`t.gpu_model_id`, sql`r.code`)}) as l) end as quota_locked
    from (${q.access} limit 1) as a
    left join projects p on p.org_id = a.org_id and ${projectMatch}
    left join regions r on r.code = ${q.regionCode}
    left join (instance_types t join gpu_models m on m.id = t.gpu_model_id) on t.id = ${q.instanceTypeId}
    left join images img on img.id = ${q.imageId}`;
}

/** launchFactsQuery's row as facts. */
export function launchFactsOf(f: FactsRow | undefined): LaunchFacts {
  if (!f) return { ...NOTHING, access: undefined };
  return {
    // The row carries the gate's columns (a.*); judgeOrgAccess reads only those.
    access: f,
    suspensionReason: f.suspension_reason,
    projectId: f.project_id,
    region:
      f.region_code === null
        ? null
        : { code: f.region_code, active: Boolean(f.region_active), jurisdiction: f.jurisdiction ?? "" },
    offering: offeringOf(f),
    image:
      f.image_name === null
        ? null
        : {
            name: f.image_name,
            active: Boolean(f.image_active),
            kinds: f.image_kinds ?? [],
            accelerator: f.image_accelerator ?? "",
          },
    price: f.price,
    hasPolicies: f.has_policies,
    budgetCapped: f.budget_capped,
    quotaLocked: f.quota_locked === true,
  };
}
