/**
 * The Next.js request scope replaced for server actions called in tests (the action sweep and the role
 * matrix): the session (next-auth's getServerSession, read by the real lib/auth/session), cookies/headers,
 * revalidation, the message catalog, and the errors the form adapter saw. Each test file installs them with
 * `vi.mock("next-auth", async (orig) => (await import("./action-mocks")).mocks.nextAuth(orig))`; this module
 * imports nothing of the product, so loading it from a mock factory cannot loop back into a mocked module.
 */
export const session = { userId: null as string | null, errors: [] as unknown[] };

export const mocks = {
  nextAuth: async (orig: () => Promise<Record<string, unknown>>) => ({
    ...(await orig()),
    getServerSession: async () => (session.userId ? { user: { id: session.userId } } : null),
  }),
  nextCache: { revalidatePath: () => {}, revalidateTag: () => {} },
  nextHeaders: (() => {
    const jar = new Map<string, { name: string; value: string }>();
    const cookies = {
      get: (n: string) => jar.get(n),
      getAll: () => [...jar.values()],
      has: (n: string) => jar.has(n),
      set: (n: string, value: string) => void jar.set(n, { name: n, value }),
      delete: (n: string) => void jar.delete(n),
    };
    return {
      cookies: async () => cookies,
      headers: async () => new Headers({ host: "forja.test", origin: "http://forja.test" }),
    };
  })(),
  nextIntl: (() => {
    const t = Object.assign((key: string) => key, { has: () => false, rich: (key: string) => key });
    return { getTranslations: async () => t, getLocale: async () => "en", getFormatter: async () => ({}) };
  })(),
  // Every error an action maps for its form, so a refusal is checked by its class, not by its words.
  formError: async (orig: () => Promise<typeof import("@/app/_kit/form-error")>) => {
    const real = await orig();
    return {
      formError: (err: unknown, label: string, area?: string) => {
        session.errors.push(err);
        return real.formError(err, label, area);
      },
    };
  },
};
