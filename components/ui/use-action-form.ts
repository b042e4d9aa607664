"use client";

import { type FormEvent, startTransition, useActionState, useEffect, useRef } from "react";
import type { ActionResult } from "@/lib/core";

export type FormAction<T = undefined> = (
  prev: ActionResult<T> | null,
  formData: FormData,
) => Promise<ActionResult<T>>;

/**
 * useActionState driven from onSubmit: React resets a form after an action-prop submission, which would wipe
 * what the person typed when the server answers with field errors. Here the fields keep their values on
 * error, and are reset only on success when asked to. Pass `formAction` as the form's `action` too: before
 * JavaScript has loaded the browser then POSTs the form to the server action (progressive enhancement)
 * instead of submitting it as a GET with every field in the URL; once it has, onSubmit prevents that and
 * React does not run the action a second time.
 */
export function useActionForm<T = undefined>(action: FormAction<T>, opts: { resetOnSuccess?: boolean } = {}) {
  const [state, dispatch, pending] = useActionState(action, null);
  const formRef = useRef<HTMLFormElement>(null);
  const reset = opts.resetOnSuccess ?? false;
  useEffect(() => {
    if (state?.ok && reset) formRef.current?.reset();
  }, [state, reset]);
  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const fd = new FormData(e.currentTarget);
    startTransition(() => dispatch(fd));
  }
  const fieldErrors = state && !state.ok ? state.fieldErrors : undefined;
  const error = state && !state.ok ? state.message : undefined;
  const success = state?.ok ? state.message : undefined;
  return { state, formAction: dispatch, onSubmit, pending, formRef, fieldErrors, error, success };
}
