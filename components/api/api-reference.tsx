import { getTranslations } from "next-intl/server";

/**
 * The API reference, rendered from the generated OpenAPI document (never a hand-written copy): every operation
 * grouped by tag with its parameters, body fields and answers. The operations' own texts are the document's
 * (English, like the API's field names); the page around them is translated.
 */
type Schema = {
  $ref?: string;
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  description?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
};
type Parameter = { name: string; in: string; required?: boolean; description?: string; schema?: Schema };
type Operation = {
  tags?: string[];
  summary?: string;
  description?: string;
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { description?: string }>;
};
export type ApiDocument = {
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
};

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

function resolve(doc: ApiDocument, s: Schema | undefined): Schema | undefined {
  if (!s?.$ref) return s;
  return doc.components?.schemas?.[s.$ref.replace("#/components/schemas/", "")];
}

function typeOf(doc: ApiDocument, s: Schema | undefined): string {
  const r = resolve(doc, s);
  if (!r) return "";
  if (r.enum) return r.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (r.anyOf) return r.anyOf.map((x) => typeOf(doc, x)).join(" | ");
  const t = Array.isArray(r.type) ? r.type.join(" | ") : (r.type ?? (s?.$ref ? s.$ref.split("/").pop() : ""));
  if (t === "array") return `${typeOf(doc, r.items)}[]`;
  return r.format ? `${t} (${r.format})` : (t ?? "");
}

export const anchorOf = (method: string, path: string) =>
  `${method}-${path}`.replace(/[{}]/g, "").replace(/[^a-zA-Z0-9-]+/g, "-");

type Row = { name: string; required: boolean; cells: string[] };

/** A captioned table of named fields (parameters, body fields); required ones are marked in words too. */
function FieldTable(props: { caption: string; headers: string[]; required: string; rows: Row[] }) {
  if (props.rows.length === 0) return null;
  return (
    <table className="text-sm">
      <caption className="text-left text-sm font-medium">{props.caption}</caption>
      <thead>
        <tr>
          {props.headers.map((h) => (
            <th key={h} scope="col" className="py-1 pr-4 text-left font-medium">
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {props.rows.map((r) => (
          <tr key={r.name}>
            <td className="py-1 pr-4 font-mono">
              {r.name}
              {r.required ? <span className="sr-only"> ({props.required})</span> : null}
              {r.required ? <span aria-hidden="true">*</span> : null}
            </td>
            {r.cells.map((c, i) => (
              <td key={i} className="py-1 pr-4">
                {c}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export async function ApiReference({ doc }: { doc: ApiDocument }) {
  const t = await getTranslations("ApiReference");
  const ops = Object.entries(doc.paths).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((m) => ({ path, method: m, op: item[m] as Operation })),
  );
  const tags = [...new Set(ops.map((o) => o.op.tags?.[0] ?? "Other"))];
  return (
    <div className="flex flex-col gap-6">
      <nav aria-label={t("contents")}>
        <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
          {tags.map((tag) => (
            <li key={tag}>
              <a href={`#tag-${tag}`} className="text-orange-800 underline dark:text-orange-300">
                {tag}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {tags.map((tag) => (
        <section key={tag} aria-labelledby={`tag-${tag}`} className="flex flex-col gap-4">
          <h2 id={`tag-${tag}`} className="text-lg font-semibold">
            {tag}
          </h2>
          {ops
            .filter((o) => (o.op.tags?.[0] ?? "Other") === tag)
            .map(({ path, method, op }) => {
              const id = anchorOf(method, path);
              const params = op.parameters ?? [];
              const body = resolve(doc, op.requestBody?.content?.["application/json"]?.schema);
              const fields = Object.entries(body?.properties ?? {});
              return (
                <article
                  key={id}
                  aria-labelledby={id}
                  className="flex flex-col gap-2 rounded-md border border-slate-200 p-4 dark:border-slate-700"
                >
                  <h3 id={id} className="font-mono text-sm font-semibold">
                    <span className="mr-2 rounded bg-slate-100 px-1.5 py-0.5 uppercase dark:bg-slate-800">
                      {method}
                    </span>{" "}
                    /api/v1{path}
                  </h3>
                  {op.summary ? <p className="font-medium">{op.summary}</p> : null}
                  {op.description ? (
                    <p className="text-sm text-slate-700 dark:text-slate-300">{op.description}</p>
                  ) : null}
                  <FieldTable
                    caption={t("parameters")}
                    headers={[t("name"), t("in"), t("type"), t("description")]}
                    required={t("required")}
                    rows={params.map((p) => ({
                      name: p.name,
                      required: Boolean(p.required),
                      cells: [
                        p.in,
                        typeOf(doc, p.schema),
                        p.description ?? resolve(doc, p.schema)?.description ?? "",
                      ],
                    }))}
                  />
                  <FieldTable
                    caption={t("body")}
                    headers={[t("field"), t("type"), t("description")]}
                    required={t("required")}
                    rows={fields.map(([name, f]) => ({
                      name,
                      required: Boolean(body?.required?.includes(name)),
                      cells: [typeOf(doc, f), resolve(doc, f)?.description ?? ""],
                    }))}
                  />
                  <dl aria-label={t("responses")} className="grid grid-cols-[4rem_1fr] gap-x-2 text-sm">
                    {Object.entries(op.responses ?? {}).map(([status, r]) => (
                      <div key={status} className="contents">
                        <dt className="font-mono">{status}</dt>
                        <dd>{r.description}</dd>
                      </div>
                    ))}
                  </dl>
                </article>
              );
            })}
        </section>
      ))}
    </div>
  );
}
