import { notAllowed } from "@/lib/api/not-allowed";
import { cancel } from "@/lib/provisioning";
import { instanceAction } from "../action";

/** Cancel a queued launch before it runs. */
export const POST = instanceAction(cancel);

export const { GET, PUT, PATCH, DELETE } = notAllowed("POST");
