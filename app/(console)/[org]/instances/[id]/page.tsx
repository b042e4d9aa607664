import Link from "next/link";
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { parseRange } from "@/components/charts";
import { ShutdownWarning } from "@/components/costs/shutdown-warning";
import { InstanceChartsLoading } from "@/components/instances/instance-charts-frame";
import { LazyInstanceCharts } from "@/components/instances/instance-charts-lazy";
import { InstanceDetail } from "@/components/instances/instance-detail";
import { LazyInstanceLive } from "@/components/instances/instance-live-lazy";
import { LogsFrame, LogsLoading } from "@/components/instances/logs-frame";
import { LazyLogsPanel } from "@/components/instances/logs-panel-lazy";
import { ManifestsPanel } from "@/components/instances/manifests-panel";
import { PendingActions } from "@/components/instances/pending-actions";
import { roleAtLeast } from "@/lib/access";
import { type Ctx, InvalidStateError, NotFoundError } from "@/lib/core";
import { instanceManifests, instanceManifestsYaml, loadInstanceDetail } from "@/lib/provisioning";
import { getOrgPageContext } from "../../org-context";
import { instanceAction } from "../actions";
import { snoozeShutdownAction } from "./actions";

async function load(...args: Parameters<typeof loadInstanceDetail>) {
  try {
    return await loadInstanceDetail(...args);
  } catch (err) {
    // Another organization's instance (or a made-up id) looks exactly like a missing one.
    if (err instanceof NotFoundError) notFound();
    throw err;
  }
}

/** The manifests' YAML for admins and owners, when the instance runs on Kubernetes (else null). */
async function manifestsYaml(ctx: Ctx, slug: string, id: string): Promise<string | null> {
  try {
    return await instanceManifestsYaml(await instanceManifests(ctx, slug, id));
  } catch (err) {
    if (err instanceof InvalidStateError) return null;
    throw err;
  }
}

type SearchParams = Promise<Record<string, string | string[] | undefined>>;
const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) || undefined;

export default async function InstancePage({
  params,
  searchParams,
}: {
  params: Promise<{ org: string; id: string }>;
  searchParams: SearchParams;
}) {
  const { org: slug, id } = await params;
  const sp = await searchParams;
  const { ctx, role } = await getOrgPageContext(slug);
  const t = await getTranslations("Instances");
  const detail = await load(ctx, slug, id);
  const canConnect = roleAtLeast(role, "member");
  const manifests = roleAtLeast(role, "admin") ? await manifestsYaml(ctx, slug, id) : null;
  return (
    <div className="flex flex-col gap-4">
      <nav aria-label={t("breadcrumb")} className="text-sm">
        <Link href={`/${slug}/instances`} className="text-orange-800 underline dark:text-orange-300">
          {t("backToList")}
        </Link>
      </nav>
      <ShutdownWarning
        org={slug}
        instanceId={detail.id}
        snooze={snoozeShutdownAction.bind(null, slug, detail.id)}
      />
      <LazyInstanceLive
        org={slug}
        initial={detail}
        run={instanceAction.bind(null, slug)}
        canConnect={canConnect}
        fallback={
          <InstanceDetail
            org={slug}
            data={detail}
            canConnect={canConnect}
            actions={<PendingActions actions={detail.actions} />}
          />
        }
      />
      <LazyInstanceCharts
        org={slug}
        instanceId={detail.id}
        gpuCount={detail.gpuCount}
        fallback={
          <InstanceChartsLoading
            range={parseRange(first(sp.range), "1h")}
            perGpu={detail.gpuCount > 1 && first(sp.gpus) === "each"}
            gpuCount={detail.gpuCount}
          />
        }
      />
      {/* A notebook's logs are its Jupyter server's output (a Slurm job's stdout/stderr, a pod's log). */}
      <LazyLogsPanel
        org={slug}
        id={detail.id}
        fallback={
          <LogsFrame>
            <LogsLoading />
          </LogsFrame>
        }
      />
      {manifests ? <ManifestsPanel org={slug} id={detail.id} yaml={manifests} /> : null}
    </div>
  );
}
