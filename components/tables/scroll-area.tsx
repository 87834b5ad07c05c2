"use client";

import { useEffect, useRef, useState, type ReactNode } from "react";

// A wide table's frame: it scrolls sideways inside its panel, and while columns are out of
// view to the right a line under it says so (a table cut at the screen's edge looks
// complete on a phone). Measured on resize and scroll; nothing shows when it fits.

export function ScrollArea({ children }: { children: ReactNode }) {
  const frame = useRef<HTMLDivElement>(null);
  const [more, setMore] = useState(false);
  useEffect(() => {
    const el = frame.current;
    if (!el) return;
    // a pixel of slack: sub-pixel widths round differently in layout and scrollWidth
    const measure = () => setMore(el.scrollLeft + el.clientWidth < el.scrollWidth - 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    if (el.firstElementChild) observer.observe(el.firstElementChild);
    el.addEventListener("scroll", measure, { passive: true });
    return () => {
      observer.disconnect();
      el.removeEventListener("scroll", measure);
    };
  }, []);
  return (
    <>
      <div ref={frame} className="scroll-area" data-testid="scroll-area">
        {children}
      </div>
      {more && (
        <p className="scroll-hint" data-testid="scroll-hint" aria-hidden="true">
          More columns to the right: scroll sideways →
        </p>
      )}
    </>
  );
}
