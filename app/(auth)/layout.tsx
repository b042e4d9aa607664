import type { ReactNode } from "react";
import { PublicHeader } from "@/components/shell/public-header";

export default function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <PublicHeader />
      {children}
    </>
  );
}
