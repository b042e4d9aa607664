import { cookies, headers } from "next/headers";
import { getRequestConfig } from "next-intl/server";
import { compiledMessagesFor } from "./compiled-messages";
import { isLocale, LOCALE_COOKIE, negotiateLocale } from "./config";

// Locale: the user's explicit choice (cookie) first, else the browser's Accept-Language.
export default getRequestConfig(async () => {
  const cookieLocale = (await cookies()).get(LOCALE_COOKIE)?.value;
  const locale = isLocale(cookieLocale)
    ? cookieLocale
    : negotiateLocale((await headers()).get("accept-language"));
  return { locale, messages: compiledMessagesFor(locale), timeZone: "UTC" };
});
