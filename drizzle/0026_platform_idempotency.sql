ALTER TABLE "api_idempotency_keys" DROP CONSTRAINT "api_idempotency_keys_org_id_user_id_key_pk";--> statement-breakpoint
ALTER TABLE "api_idempotency_keys" ALTER COLUMN "org_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "api_idempotency_keys" ADD CONSTRAINT "api_idempotency_keys_scope_key" UNIQUE NULLS NOT DISTINCT("org_id","user_id","key");