import { fieldMessages } from "@/lib/core";

/** Field messages of the API's own inputs (headers, cursors), by key: catalog namespace ApiFieldErrors. */
export const API_FIELD_MESSAGES = fieldMessages("ApiFieldErrors", {
  idempotencyKey: "Use 1–200 visible ASCII characters, e.g. a UUID",
  cursorForeign: "This cursor was not issued by this list; start again without it",
});
