import { cancel } from "@/lib/provisioning";
import { instanceAction } from "../action";

/** Cancel a queued launch before it runs. */
export const POST = instanceAction(cancel);
