// The address of a list page with some of its parameters changed: the list's state lives in
// the URL (shareable, the back button works, a reload shows the same page).

export type ListState = Record<string, string | number | undefined>;

export function listHref(path: string, state: ListState, change: ListState = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries({ ...state, ...change }))
    if (value !== undefined && value !== "") params.set(name, String(value));
  const text = params.toString();
  return text === "" ? path : `${path}?${text}`;
}
