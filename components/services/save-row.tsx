import { Button } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/form-message";

/** The end of a settings form on the service page: saved or refused, in words, and its save button. */
export function SaveRow({
  ok,
  error,
  saved,
  label,
  pending,
}: {
  ok?: boolean;
  error?: string;
  saved: string;
  label: string;
  pending: boolean;
}) {
  return (
    <>
      <FormMessage message={ok ? saved : error} ok={ok} />
      <div>
        <Button type="submit" disabled={pending}>
          {label}
        </Button>
      </div>
    </>
  );
}
