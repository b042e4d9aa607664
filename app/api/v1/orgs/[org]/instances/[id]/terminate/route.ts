import { terminate } from "@/lib/provisioning";
import { instanceAction } from "../action";

/** Terminate: release the GPUs now and delete the instance; a queued one is cancelled instead. */
export const POST = instanceAction(terminate);
