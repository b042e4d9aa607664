"use client";

import { Button } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/form-message";
import { type FormAction, useActionForm } from "@/components/ui/use-action-form";

/** "Mark as read" for one notification (or all): a tiny form so it works from a server-rendered list. */
export function MarkReadButton({
  action,
  id,
  all,
  label,
  context,
}: {
  action: FormAction;
  id?: string;
  all?: boolean;
  label: string;
  /** The notification's title, so each button has a distinct accessible name in the list. */
  context?: string;
}) {
  const { formAction, onSubmit, pending, error } = useActionForm(action);
  return (
    <form action={formAction} onSubmit={onSubmit} className="flex items-center gap-2">
      {id ? <input type="hidden" name="id" value={id} /> : null}
      {all ? <input type="hidden" name="all" value="1" /> : null}
      <Button
        type="submit"
        variant="secondary"
        disabled={pending}
        aria-busy={pending}
        aria-label={context ? `${label}: ${context}` : undefined}
        className="px-2 py-1 text-xs"
      >
        {label}
      </Button>
      {error ? <FormMessage message={error} /> : null}
    </form>
  );
}
