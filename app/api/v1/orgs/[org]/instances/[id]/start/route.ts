import { notAllowed } from "@/lib/api/not-allowed";
import { start } from "@/lib/provisioning";
import { instanceAction } from "../action";

/** Start a stopped or preempted instance again: it queues for capacity with the quota checked anew. */
export const POST = instanceAction(start);

export const { GET, PUT, PATCH, DELETE } = notAllowed("POST");
