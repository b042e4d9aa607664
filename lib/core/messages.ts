/**
 * Field messages as data. A domain declares its field messages once, by stable key, with the English text
 * (the API's problem detail) and, where the text names a limit, the parameters it is built from. The key and
 * parameters travel on the ValidationError, so an edge renders the reader's language from messages/*.json by
 * key and never has to recognise an English sentence.
 */
export type MessageParams = Record<string, string | number>;

/** One message on one field: the catalog key (null when the text came from somewhere uncatalogued), its params, the English text. */
export type FieldMessage = { key: string | null; params: MessageParams; text: string };

type Entry = string | readonly [template: string, params: MessageParams];

const byText = new Map<string, FieldMessage>();
/** Each declared key's template, for messages whose parameters are known only at run time. */
const templates = new Map<string, string>();

/** `{name}` placeholders filled from params (the English catalog holds the same template, in ICU form). */
export function fillTemplate(template: string, params: MessageParams): string {
  return template.replace(/\{(\w+)\}/g, (all, name: string) => (name in params ? String(params[name]) : all));
}

/**
 * Declare a namespace's field messages (catalog `<namespace>.<key>`); returns the English texts by key, which
 * the domain's zod schemas and ValidationError.field use as their messages.
 */
export function fieldMessages<const M extends Record<string, Entry>>(
  namespace: string,
  messages: M,
): { readonly [K in keyof M]: string } {
  const out: Record<string, string> = {};
  for (const [name, entry] of Object.entries(messages)) {
    const [template, params] = typeof entry === "string" ? [entry, {}] : entry;
    const text = fillTemplate(template, params);
    // The first declaration wins: the same sentence in two namespaces is the same message.
    if (!byText.has(text)) byText.set(text, { key: `${namespace}.${name}`, params, text });
    templates.set(`${namespace}.${name}`, template);
    out[name] = text;
  }
  return out as { readonly [K in keyof M]: string };
}

/** The declared message a domain raised (its key and params), or an uncatalogued one shown as it is. */
export function fieldMessageOf(text: string): FieldMessage {
  return byText.get(text) ?? { key: null, params: {}, text };
}

/**
 * A declared message with the parameters of this occasion (a policy's limit, a model's name): `text` is the
 * message as declared (with its sample parameters), `params` the ones to show. Undeclared text stays as it is.
 */
export function fieldMessageWith(text: string, params: MessageParams): FieldMessage {
  const declared = byText.get(text);
  const template = declared?.key ? templates.get(declared.key) : undefined;
  if (!declared?.key || template === undefined) return { key: null, params: {}, text };
  return { key: declared.key, params, text: fillTemplate(template, params) };
}

/** Every declared field message (for the test that checks both catalogs hold each key). */
export function declaredFieldMessages(): FieldMessage[] {
  return [...byText.values()];
}
