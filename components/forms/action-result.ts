// What every dashboard server action answers. Isomorphic: forms read it.

export interface ActionError {
  ok: false;
  /** 401 signed out, 403 role too low, 404 not found (or not yours), 409, 422, 500 */
  status?: number;
  message: string;
  /** field name -> first problem */
  fieldErrors?: Record<string, string>;
  /** every problem with its document path (imports, limit saves) */
  errors?: { path: string; message: string; line?: number; column?: number }[];
}

export type ActionResult<T = null> = { ok: true; data: T } | ActionError;
