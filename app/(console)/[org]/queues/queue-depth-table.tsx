import { getFormatter, getTranslations } from "next-intl/server";
import { waitParts } from "@/components/charts/wait-duration";

export type DepthRow = {
  regionName: string;
  gpuModelName: string;
  queued: number;
  gpusQueued: number;
  oldestWaitSeconds: number | null;
  expectedWaitSeconds: number | null;
};

/** What is waiting now, per region × GPU model, with the recent typical wait next to it. */
export async function QueueDepthTable({ rows }: { rows: DepthRow[] }) {
  const [t, format] = await Promise.all([getTranslations("Charts"), getFormatter()]);
  const wait = (seconds: number | null) => {
    if (seconds === null) return t("noValue");
    const p = waitParts(seconds);
    return t("valueWithUnit", { value: format.number(p.value), unit: t(`units.${p.unit}`) });
  };
  const th = "border-b border-slate-200 px-3 py-2 font-semibold dark:border-slate-700";
  const td = "border-b border-slate-100 px-3 py-2 dark:border-slate-800";
  const total = rows.reduce((n, r) => n + r.queued, 0);
  return (
    <section aria-labelledby="queue-depth" className="flex flex-col gap-2">
      <h2 id="queue-depth" className="text-lg font-semibold">
        {t("queues.depthTitle")}
      </h2>
      {total === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">{t("queues.depthEmpty")}</p>
      ) : null}
      <div className="overflow-x-auto">
        <table className="w-full border-collapse text-left text-sm tabular-nums">
          <caption className="sr-only">{t("queues.depthCaption")}</caption>
          <thead>
            <tr>
              <th scope="col" className={th}>
                {t("queues.region")}
              </th>
              <th scope="col" className={th}>
                {t("queues.model")}
              </th>
              <th scope="col" className={`${th} text-right`}>
                {t("queues.queued")}
              </th>
              <th scope="col" className={`${th} text-right`}>
                {t("queues.queuedGpus")}
              </th>
              <th scope="col" className={`${th} text-right`}>
                {t("queues.oldestWait")}
              </th>
              <th scope="col" className={`${th} text-right`}>
                {t("queues.expectedWait")}
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={`${r.regionName}/${r.gpuModelName}`}>
                <th scope="row" className={`${td} font-normal`}>
                  {r.regionName}
                </th>
                <td className={td}>{r.gpuModelName}</td>
                <td className={`${td} text-right`}>{format.number(r.queued)}</td>
                <td className={`${td} text-right`}>{format.number(r.gpusQueued)}</td>
                <td className={`${td} text-right`}>{wait(r.oldestWaitSeconds)}</td>
                <td className={`${td} text-right`}>{wait(r.expectedWaitSeconds)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
