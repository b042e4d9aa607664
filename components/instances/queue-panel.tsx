import Link from "next/link";
import { useFormatter, useTranslations } from "next-intl";
import type { QueueView } from "@/lib/provisioning";
import { formatDuration } from "./duration";
import { gpuLabel } from "./labels";

/** While queued: where the instance stands, when it should start (and how that was estimated), and launches
 * that would start now instead, each with its price and a link that opens the launch form pre-filled. */
export function QueuePanel({ org, queue }: { org: string; queue: QueueView }) {
  const t = useTranslations("Instances");
  const format = useFormatter();
  const usd = (n: number) => format.number(n, { style: "currency", currency: "USD" });
  return (
    <section
      aria-labelledby="queue-heading"
      className="rounded-lg border border-amber-300 bg-amber-50 p-4 dark:border-amber-700 dark:bg-amber-950"
    >
      <h2 id="queue-heading" className="text-lg font-semibold">
        {t("queue.title")}
      </h2>
      <dl className="mt-2 grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="font-medium">{t("queue.position")}</dt>
        <dd>{t("queue.positionValue", { position: queue.position })}</dd>
        <dt className="font-medium">{t("queue.eta")}</dt>
        <dd>
          {queue.etaSeconds === null ? t("queue.etaUnknown") : formatDuration(queue.etaSeconds, t)}
          <span className="block text-xs text-slate-700 dark:text-slate-300">
            {t(`queue.method.${queue.method}`)}
          </span>
        </dd>
      </dl>
      <h3 className="mt-4 font-semibold">{t("queue.alternatives")}</h3>
      {queue.alternatives.length === 0 ? (
        <p className="text-sm text-slate-700 dark:text-slate-300">{t("queue.noAlternatives")}</p>
      ) : (
        <ul className="mt-2 flex flex-col gap-2">
          {queue.alternatives.map((a) => {
            const qs = new URLSearchParams({
              instanceType: a.instanceTypeId,
              region: a.regionCode,
              pricing: a.pricingModel,
            });
            const gpu = gpuLabel(a, t);
            return (
              <li
                key={`${a.kind}-${a.instanceTypeId}-${a.regionCode}-${a.pricingModel}`}
                className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-amber-200 bg-white p-2 text-sm dark:border-amber-800 dark:bg-slate-900"
              >
                <span>
                  <span className="font-medium">{t(`queue.kind.${a.kind}`)}</span>
                  <span className="text-slate-700 dark:text-slate-300">
                    {" "}
                    · {gpu} ({t("queue.memory", { gib: a.gpuMemoryGib })}) · {a.regionCode} ·{" "}
                    {t(`pricing.${a.pricingModel}`)} · {t("price.perHour", { price: usd(a.usdPerHour) })}
                  </span>
                </span>
                <Link
                  href={`/${org}/instances/new?${qs}`}
                  className="rounded-md border border-slate-300 px-2 py-1 font-medium text-orange-800 underline dark:border-slate-700 dark:text-orange-300"
                >
                  {t("queue.launchThis", { type: a.instanceTypeId, region: a.regionCode })}
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
