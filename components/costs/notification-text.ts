import "server-only";
import { getFormatter, getTranslations } from "next-intl/server";

export type NotificationLike = {
  kind: string;
  title: string;
  body: string;
  params: Record<string, string | number>;
};

/**
 * A notification's title and body in the reader's language, rebuilt from the values it was made from with the
 * same CostNotices messages the emails use. Kinds this console does not know keep their stored (English) text.
 */
export async function notificationTexter(orgName: string) {
  const t = await getTranslations("CostNotices");
  const format = await getFormatter();
  const usd = (v: string | number | undefined) =>
    format.number(Number(v ?? 0), { style: "currency", currency: "USD" });
  const str = (v: string | number | undefined) => String(v ?? "");
  return (n: NotificationLike): { title: string; body: string } => {
    const p = n.params;
    if (n.kind === "budget.actual" || n.kind === "budget.forecast") {
      const scope = p.scope
        ? t("scopeProject", { project: str(p.scope), org: orgName })
        : t("scopeOrg", { org: orgName });
      const amount = Number(p.amount ?? 0);
      const pctOf = (v: string | number | undefined) =>
        amount > 0 ? Math.floor((Number(v ?? 0) / amount) * 100) : 0;
      const title =
        n.kind === "budget.actual"
          ? t("budgetActualSubject", {
              name: str(p.name),
              pct: str(p.pct),
              spent: usd(p.spent),
              amount: usd(amount),
            })
          : t("budgetForecastSubject", {
              name: str(p.name),
              pct: str(p.pct),
              forecast: usd(p.forecast),
              amount: usd(amount),
            });
      const body = [
        t("budgetSpent", {
          scope,
          period: str(p.period),
          spent: usd(p.spent),
          amount: usd(amount),
          actualPct: pctOf(p.spent),
        }),
        t("budgetForecast", { forecast: usd(p.forecast), forecastPct: pctOf(p.forecast) }),
      ].join(" ");
      return { title, body };
    }
    if (n.kind === "autoshutdown.warning" || n.kind === "autoshutdown.stopped") {
      const rule =
        p.rule === "idle"
          ? t("ruleIdle", { minutes: str(p.minutes), pct: str(p.pct) })
          : p.rule === "max_runtime"
            ? t("ruleMaxRuntime", { minutes: str(p.minutes) })
            : t("ruleSchedule", { cron: str(p.cron), timeZone: str(p.timeZone) });
      const instance = str(p.instance);
      if (n.kind === "autoshutdown.stopped") {
        return {
          title: t("shutdownStoppedTitle", { instance }),
          body: t("shutdownStoppedBody", { instance, rule }),
        };
      }
      const time = format.dateTime(new Date(str(p.actsAt)), {
        dateStyle: "medium",
        timeStyle: "short",
        timeZone: "UTC",
      });
      return {
        title: t("shutdownWarningSubject", { instance, time, rule }),
        body: t("shutdownWarningBody", { instance, org: orgName, time, rule }),
      };
    }
    if (n.kind === "budget.stopped") {
      // The body's amounts are not kept with it: the title is rebuilt, the body stays as written.
      return {
        title: t("budgetStoppedSubject", { name: str(p.name), count: Number(p.count ?? 0) }),
        body: n.body,
      };
    }
    return { title: n.title, body: n.body };
  };
}
