"use server";

import { orgAction } from "@/app/_kit/org-action";
import { scalingFromForm, specFromForm } from "@/components/services/service-form-data";
import type { ActionResult } from "@/lib/core";
import { createService, deleteService, setServiceAuth, updateServiceScaling } from "@/lib/services";

type Prev = ActionResult<unknown> | null;
const opts = (label: string) => ({ label, revalidate: "/services" });

/** Create from the form; the token (shown once) comes back to the form instead of a redirect. */
export const createServiceAction = orgAction<[Prev, FormData], { id: string; token: string | null }>(
  opts("service.create"),
  async (ctx, orgSlug, _prev, fd) => {
    const { service, token } = await createService(ctx, orgSlug, specFromForm(fd));
    if (!token) return { redirectTo: `/${orgSlug}/services/${service.id}` };
    return { data: { id: service.id, token } };
  },
);

export const updateServiceScalingAction = orgAction<[string, Prev, FormData]>(
  opts("service.scaling"),
  async (ctx, orgSlug, serviceId, _prev, fd) => {
    await updateServiceScaling(ctx, orgSlug, serviceId, scalingFromForm(fd));
    return { revalidate: `/services/${serviceId}` };
  },
);

/** Public or token; a new token comes back to the form, shown once. */
export const setServiceAuthAction = orgAction<[string, Prev, FormData], { token: string | null }>(
  opts("service.auth"),
  async (ctx, orgSlug, serviceId, _prev, fd) => {
    const { token } = await setServiceAuth(ctx, orgSlug, serviceId, { auth: fd.get("auth") });
    return { data: { token }, revalidate: `/services/${serviceId}` };
  },
);

export const deleteServiceAction = orgAction<[string, Prev, FormData]>(
  opts("service.delete"),
  async (ctx, orgSlug, serviceId, _prev, _fd) => {
    await deleteService(ctx, orgSlug, serviceId);
    return { redirectTo: `/${orgSlug}/services` };
  },
);
