"use client";

import { useState } from "react";

// Narrows the route groups of a page to those whose pattern contains the text (and opens
// them). Works on the rendered groups, so the server-rendered page stays as it is.

export function RouteFilter({ scope }: { scope: string }) {
  const [text, setText] = useState("");
  const apply = (value: string) => {
    setText(value);
    const needle = value.trim().toLowerCase();
    for (const group of document.querySelectorAll<HTMLDetailsElement>(`#${scope} [data-route-group]`)) {
      const match = needle === "" || (group.dataset.routeGroup ?? "").toLowerCase().includes(needle);
      group.hidden = !match;
      if (needle !== "" && match) group.open = true;
    }
  };
  return (
    <label className="route-filter">
      Find a route{" "}
      <input type="search" value={text} onChange={(e) => apply(e.target.value)} placeholder="/v1/search" />
    </label>
  );
}
