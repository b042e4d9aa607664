import Link from "next/link";
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { ShutdownWarning } from "@/components/costs/shutdown-warning";
import { LazyInstanceCharts } from "@/components/instances/instance-charts-lazy";
import { InstanceLive } from "@/components/instances/instance-live";
import { LazyLogsPanel } from "@/components/instances/logs-panel-lazy";
import { ManifestsPanel } from "@/components/instances/manifests-panel";
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

export default async function InstancePage({ params }: { params: Promise<{ org: string; id: string }> }) {
  const { org: slug, id } = await params;
  const { ctx, role } = await getOrgPageContext(slug);
  const t = await getTranslations("Instances");
  const detail = await load(ctx, slug, id);
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
      <InstanceLive
        org={slug}
        initial={detail}
        run={instanceAction.bind(null, slug)}
        canConnect={roleAtLeast(role, "member")}
      />
      <LazyInstanceCharts org={slug} instanceId={detail.id} gpuCount={detail.gpuCount} />
      {/* A notebook's logs are its Jupyter server's output (a Slurm job's stdout/stderr, a pod's log). */}
      <LazyLogsPanel org={slug} id={detail.id} />
      {manifests ? <ManifestsPanel org={slug} id={detail.id} yaml={manifests} /> : null}
    </div>
  );
}
