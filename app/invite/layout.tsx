import type { ReactNode } from "react";
import { PublicHeader } from "@/components/shell/public-header";

export default function InviteLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <PublicHeader />
      {children}
    </>
  );
}
