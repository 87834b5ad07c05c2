"use client";

import { usePathname } from "next/navigation";
import { useState, type ReactNode } from "react";

// The header's links and account line: inline on wide screens; on a phone they fold behind
// a Menu button (CSS decides which), and close again after a link is followed.

export function HeaderMenu({ children }: { children: ReactNode }) {
  const pathname = usePathname();
  // open for the page it was opened on: following a link closes it
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  return (
    <>
      <button
        type="button"
        className="secondary menu-toggle"
        aria-expanded={open}
        aria-controls="shell-menu"
        onClick={() => setOpenOn(open ? null : pathname)}
      >
        Menu
      </button>
      <div id="shell-menu" className={open ? "shell-menu open" : "shell-menu"}>
        {children}
      </div>
    </>
  );
}
