import type { Locale } from "@/i18n/config";
import enAdmin from "./en/admin.json";
import enApi from "./en/api.json";
import enAuth from "./en/auth.json";
import enCatalog from "./en/catalog.json";
import enCharts from "./en/charts.json";
import enCommon from "./en/common.json";
import enCostNotices from "./en/costNotices.json";
import enCosts from "./en/costs.json";
import enInstances from "./en/instances.json";
import enOperator from "./en/operator.json";
import enQuotas from "./en/quotas.json";
import enServices from "./en/services.json";
import enSettings from "./en/settings.json";
import enShell from "./en/shell.json";
import enWebhooks from "./en/webhooks.json";
import esAdmin from "./es/admin.json";
import esApi from "./es/api.json";
import esAuth from "./es/auth.json";
import esCatalog from "./es/catalog.json";
import esCharts from "./es/charts.json";
import esCommon from "./es/common.json";
import esCostNotices from "./es/costNotices.json";
import esCosts from "./es/costs.json";
import esInstances from "./es/instances.json";
import esOperator from "./es/operator.json";
import esQuotas from "./es/quotas.json";
import esServices from "./es/services.json";
import esSettings from "./es/settings.json";
import esShell from "./es/shell.json";
import esWebhooks from "./es/webhooks.json";

/**
 * Message catalog, one JSON file per namespace and language. Add a namespace by importing both files here.
 * test/messages.test.ts checks that both languages have the same keys and ICU arguments, and that each file is registered.
 */
const catalogs = {
  en: {
    ...enCommon,
    ...enCostNotices,
    ...enCosts,
    ...enAuth,
    ...enCharts,
    ...enAdmin,
    ...enSettings,
    ...enShell,
    ...enQuotas,
    ...enOperator,
    ...enCatalog,
    ...enInstances,
    ...enApi,
    ...enServices,
    ...enWebhooks,
  },
  es: {
    ...esCommon,
    ...esCostNotices,
    ...esCosts,
    ...esAuth,
    ...esCharts,
    ...esAdmin,
    ...esSettings,
    ...esShell,
    ...esQuotas,
    ...esOperator,
    ...esCatalog,
    ...esInstances,
    ...esApi,
    ...esServices,
    ...esWebhooks,
  },
} satisfies Record<Locale, Record<string, unknown>>;

export type Messages = (typeof catalogs)["en"];

export function messagesFor(locale: Locale): Messages {
  return catalogs[locale];
}
export const allCatalogs = catalogs;
