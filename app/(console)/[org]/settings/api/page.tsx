import { getTranslations } from "next-intl/server";
import { type ApiDocument, ApiReference } from "@/components/api/api-reference";
import { openApiDocument } from "@/lib/api/openapi/document";
import { getOrgPageContext } from "../../org-context";

/** The API reference for any member, rendered from the same generated document GET /api/v1/openapi.json serves. */
export default async function ApiReferencePage({ params }: { params: Promise<{ org: string }> }) {
  const { org: slug } = await params;
  await getOrgPageContext(slug);
  const t = await getTranslations("ApiReference");
  const doc = JSON.parse(JSON.stringify(openApiDocument())) as ApiDocument;
  return (
    <section aria-labelledby="api-reference-heading" className="flex flex-col gap-4">
      <h2 id="api-reference-heading" className="text-lg font-semibold">
        {t("heading")}
      </h2>
      <p className="text-sm text-slate-700 dark:text-slate-300">
        {t("intro", { version: doc.info.version })}{" "}
        <a href="/api/v1/openapi.json" className="font-medium text-orange-800 underline dark:text-orange-300">
          {t("download")}
        </a>
      </p>
      <ApiReference doc={doc} />
    </section>
  );
}
