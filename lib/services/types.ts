import type { serviceReplicas, services } from "@/lib/db/schema";

export type Service = typeof services.$inferSelect;
export type ServiceReplica = typeof serviceReplicas.$inferSelect;
