import { getFormatter, getTranslations } from "next-intl/server";
import type { FormAction } from "@/components/ui/use-action-form";
import type { ApiTokenView } from "@/lib/tenancy";
import { RevokeToken } from "./revoke-token";

function When({
  at,
  now,
  format,
}: {
  at: Date;
  now: Date;
  format: Awaited<ReturnType<typeof getFormatter>>;
}) {
  return (
    <time dateTime={at.toISOString()} title={format.dateTime(at, { dateStyle: "long", timeStyle: "short" })}>
      {format.relativeTime(at, now)}
    </time>
  );
}

/** The tokens the reader may see; the owner column only when they can see other people's. */
export async function TokensTable({
  tokens,
  showOwner,
  revokeAction,
}: {
  tokens: ApiTokenView[];
  showOwner: boolean;
  revokeAction: FormAction;
}) {
  const [t, format] = await Promise.all([getTranslations("ApiTokens"), getFormatter()]);
  const now = new Date();
  const th = "py-2 pr-4";
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <thead className="border-b border-slate-200 dark:border-slate-700">
          <tr>
            <th scope="col" className={th}>
              {t("colName")}
            </th>
            <th scope="col" className={th}>
              {t("colToken")}
            </th>
            {showOwner ? (
              <th scope="col" className={th}>
                {t("colOwner")}
              </th>
            ) : null}
            <th scope="col" className={th}>
              {t("colCreated")}
            </th>
            <th scope="col" className={th}>
              {t("colLastUsed")}
            </th>
            <th scope="col" className={th}>
              {t("colScope")}
            </th>
            <th scope="col" className={th}>
              {t("colExpires")}
            </th>
            <th scope="col" className={th}>
              {t("colStatus")}
            </th>
            <th scope="col" className="py-2">
              {t("colActions")}
            </th>
          </tr>
        </thead>
        <tbody>
          {tokens.map((tok) => (
            <tr key={tok.id} className="border-b border-slate-100 dark:border-slate-800">
              <th scope="row" className="py-2 pr-4 font-medium">
                {tok.name}
              </th>
              <td className="py-2 pr-4 font-mono text-xs">{tok.prefix}…</td>
              {showOwner ? <td className="py-2 pr-4">{tok.userEmail}</td> : null}
              <td className="py-2 pr-4">
                <When at={tok.createdAt} now={now} format={format} />
              </td>
              <td className="py-2 pr-4">
                {tok.lastUsedAt ? <When at={tok.lastUsedAt} now={now} format={format} /> : t("neverUsed")}
              </td>
              <td className="py-2 pr-4">{t(`scopes.${tok.scope}`)}</td>
              <td className="py-2 pr-4">
                {tok.expiresAt ? <When at={tok.expiresAt} now={now} format={format} /> : t("noExpiry")}
              </td>
              <td className="py-2 pr-4">
                <span
                  className={`rounded-full border px-2 py-0.5 text-xs ${
                    tok.status === "active"
                      ? "border-green-700 text-green-800 dark:text-green-300"
                      : "border-slate-400 text-slate-700 dark:text-slate-300"
                  }`}
                >
                  {t(`status.${tok.status}`)}
                </span>
              </td>
              <td className="py-2">
                {tok.status === "revoked" ? null : (
                  <RevokeToken
                    token={{ id: tok.id, name: tok.name, prefix: tok.prefix }}
                    action={revokeAction}
                  />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
