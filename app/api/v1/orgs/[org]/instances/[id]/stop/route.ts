import { notAllowed } from "@/lib/api/not-allowed";
import { stop } from "@/lib/provisioning";
import { instanceAction } from "../action";

/** Stop a running instance (running → stopping → stopped); its disk is kept and billed. */
export const POST = instanceAction(stop);

export const { GET, PUT, PATCH, DELETE } = notAllowed("POST");
