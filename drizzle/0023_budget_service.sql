ALTER TABLE "budgets" ADD COLUMN "service_id" uuid;--> statement-breakpoint
ALTER TABLE "budgets" ADD CONSTRAINT "budgets_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "budgets_service_idx" ON "budgets" USING btree ("service_id") WHERE service_id is not null;