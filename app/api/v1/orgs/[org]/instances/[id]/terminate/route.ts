import { notAllowed } from "@/lib/api/not-allowed";
import { terminate } from "@/lib/provisioning";
import { instanceAction } from "../action";

/** Terminate: release the GPUs now and delete the instance; a queued one is cancelled instead. */
export const POST = instanceAction(terminate);

export const { GET, PUT, PATCH, DELETE } = notAllowed("POST");
