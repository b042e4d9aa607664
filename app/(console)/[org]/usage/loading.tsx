import { PageSkeleton } from "@/components/costs/page-skeleton";

export default function UsageLoading() {
  return <PageSkeleton label="usage.loading" />;
}
