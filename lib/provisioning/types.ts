import type { instanceEvents, instances } from "@/lib/db/schema";

export type Instance = typeof instances.$inferSelect;
export type InstanceEvent = typeof instanceEvents.$inferSelect;
