import { headers } from "next/headers";
import { getTranslations } from "next-intl/server";
import { CreateTokenForm } from "@/components/api/create-token-form";
import { CurlExample, curlLaunch, curlList } from "@/components/api/curl-example";
import { TokensTable } from "@/components/api/tokens-table";
import { roleAtLeast } from "@/lib/access";
import { API_TOKEN_EXPIRY_DAYS, listApiTokens } from "@/lib/tenancy";
import { getOrgPageContext } from "../../org-context";
import { createTokenAction, revokeTokenAction } from "./actions";

/** Where this console is reached, for copy-paste examples (behind a proxy, its forwarded host and scheme). */
async function origin(): Promise<string> {
  const h = await headers();
  const host = h.get("x-forwarded-host") ?? h.get("host");
  if (!host) return process.env.NEXTAUTH_URL ?? "http://localhost:3000";
  return `${h.get("x-forwarded-proto") ?? "http"}://${host}`;
}

export default async function ApiTokensPage({ params }: { params: Promise<{ org: string }> }) {
  const { org: slug } = await params;
  const { ctx, org, role } = await getOrgPageContext(slug);
  const [tokens, t, base] = await Promise.all([
    listApiTokens(ctx, slug),
    getTranslations("ApiTokens"),
    origin(),
  ]);
  const canCreate = roleAtLeast(role, "member");
  const seesAll = roleAtLeast(role, "admin");
  return (
    <div className="flex flex-col gap-8">
      <section aria-labelledby="tokens-heading" className="flex flex-col gap-3">
        <h2 id="tokens-heading" className="text-lg font-semibold">
          {t("heading")}
        </h2>
        <p className="text-sm text-slate-700 dark:text-slate-300">{t("intro", { org: org.name })}</p>
        {canCreate ? null : (
          <p role="note" className="rounded-md border border-slate-200 p-3 text-sm dark:border-slate-700">
            {t("viewerNote")}
          </p>
        )}
      </section>
      {canCreate ? (
        <section aria-labelledby="create-token-heading" className="flex flex-col gap-3">
          <h2 id="create-token-heading" className="text-lg font-semibold">
            {t("createHeading")}
          </h2>
          <CreateTokenForm
            action={createTokenAction.bind(null, org.slug)}
            expiryDays={API_TOKEN_EXPIRY_DAYS}
            origin={base}
            orgSlug={org.slug}
            operator={ctx.actor.kind === "user" && ctx.actor.isOperator}
          />
        </section>
      ) : null}
      <section aria-labelledby="token-list-heading" className="flex flex-col gap-3">
        <h2 id="token-list-heading" className="text-lg font-semibold">
          {seesAll ? t("listHeadingAll") : t("listHeading")}
        </h2>
        {seesAll ? <p className="text-sm text-slate-700 dark:text-slate-300">{t("listIntroAll")}</p> : null}
        {tokens.length === 0 ? (
          <p className="text-sm">{canCreate ? t("empty") : t("emptyViewer")}</p>
        ) : (
          <TokensTable
            tokens={tokens}
            showOwner={seesAll}
            revokeAction={revokeTokenAction.bind(null, org.slug)}
          />
        )}
      </section>
      <section aria-labelledby="api-usage-heading" className="flex flex-col gap-3">
        <h2 id="api-usage-heading" className="text-lg font-semibold">
          {t("usageHeading")}
        </h2>
        <p className="text-sm text-slate-700 dark:text-slate-300">{t("usageIntro")}</p>
        <CurlExample label={t("curlList")} command={curlList(base, org.slug)} />
        <CurlExample label={t("curlLaunch")} command={curlLaunch(base, org.slug)} />
        <p className="text-sm">
          <a
            href="/api/v1/openapi.json"
            className="font-medium text-orange-800 underline dark:text-orange-300"
          >
            {t("openapi")}
          </a>{" "}
          — {t("openapiNote")}
        </p>
      </section>
    </div>
  );
}
