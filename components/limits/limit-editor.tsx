"use client";

import { useRouter } from "next/navigation";
import { useMemo, useState, type FormEvent } from "react";
import type { LimitDoc, LimitFields } from "@/lib/control/config/document";
import { ACTIONS, CONSISTENCY, LIMIT_BY, MODES, STORE_FAILURE, type LimitBy } from "@/lib/shared/limit-types";
import type { LimitTarget } from "@/lib/control/edits/limit-target";
import type { ActionResult } from "@/components/forms/action-result";
import { AlgorithmPicker } from "@/components/limits/algorithm-picker";
import { BurstChart } from "@/components/limits/burst-chart";
import { FormErrors } from "@/components/limits/form-errors";
import { PickField, TextField } from "@/components/limits/limit-fields";
import { RouteSelect } from "@/components/limits/route-select";
import { describeRule } from "@/components/limits/format-limit";
import { OverAdmissionBound } from "@/components/limits/over-admission-bound";
import { localSettingOf } from "@/components/limits/over-admission";
import { ReplayPanel, type ReplayAction } from "@/components/limits/replay-panel";
import {
  previewBlocker,
  previewRule,
  validate,
  valuesOf,
  type FieldName,
  type FormValues,
} from "@/components/limits/limit-form-values";
import { useHydrated } from "@/components/forms/use-hydrated";
import { ProposedChange } from "@/components/limits/proposed-change";
import { savedHref } from "@/components/limits/editor-href";
import { calendarResetLine } from "@/components/limits/calendar-reset";
import { CALENDAR_PERIODS } from "@/lib/shared/calendar";
import { formatDuration } from "@/lib/shared/duration";

type SaveAction = (input: {
  target: LimitTarget;
  originalName: string | null;
  limit: LimitDoc;
}) => Promise<ActionResult<{ configVersion: number | null }>>;

export function LimitEditor({
  target,
  originalName,
  initial,
  inherited,
  backHref,
  save,
  replay,
  routes = [],
}: {
  target: LimitTarget;
  originalName: string | null;
  initial: LimitDoc | null;
  /** the values this level would inherit for the name, when it overrides */
  inherited: LimitFields | null;
  backHref: string;
  save: SaveAction;
  /** the what-if replay (docs/replay.md); absent: no replay section */
  replay?: ReplayAction;
  /** declared route patterns "Only on route" may name (the tenant's and the global ones) */
  routes?: readonly string[];
}) {
  const router = useRouter();
  const [values, setValues] = useState<FormValues>(() => valuesOf(initial, ""));
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const [others, setOthers] = useState<{ path: string; message: string }[]>([]);
  const [message, setMessage] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const hydrated = useHydrated();
  const isBase = inherited === null;
  const saved = useMemo(() => valuesOf(initial, ""), [initial]);
  // Checked as you type, with the server's schema and messages: a field you changed says
  // what is wrong before Save; the preview waits for the fields it reads to be right.
  const live = useMemo(() => validate(values, isBase).errors, [values, isBase]);
  const blocker = previewBlocker(values, live);
  const typedRule = useMemo(() => previewRule(values, inherited), [values, inherited]);
  const rule = blocker ? null : typedRule;
  const shown = (field: string): string | undefined =>
    errors[field] ?? (values[field as FieldName] !== saved[field as FieldName] ? live[field] : undefined);
  // What applies today: the saved limit (or, for a new override, what it inherits).
  const currentRule = useMemo(
    () =>
      initial?.disabled || (!initial && !inherited) ? null : previewRule(valuesOf(initial, ""), inherited),
    [initial, inherited],
  );
  // Editing a field clears its message: the next save re-checks everything anyway.
  const set = (field: FieldName) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const checked = validate(values, isBase);
    setErrors(checked.errors);
    setOthers([]);
    if (!checked.limit) return setMessage("Some fields need fixing; nothing was saved.");
    setPending(true);
    const result = await save({ target, originalName, limit: checked.limit });
    setPending(false);
    if (result.ok) {
      // back to the list, which confirms the save, scrolls to the row and offers an undo
      router.push(savedHref(backHref, target, checked.limit.name, result.data.configVersion));
      router.refresh();
      return;
    }
    setMessage(result.message);
    setErrors(result.fieldErrors ?? {});
    setOthers(result.errors ?? []);
  }

  const text = (field: FieldName, label: string, hint: string, placeholder?: string) => (
    <TextField
      field={field}
      label={label}
      hint={hint}
      value={values[field]}
      onChange={set(field)}
      error={shown(field)}
      placeholder={placeholder}
    />
  );
  const pick = (field: FieldName, label: string, options: readonly string[], inheritedValue?: string) => (
    <PickField
      field={field}
      label={label}
      options={options}
      value={values[field]}
      onChange={set(field)}
      error={shown(field)}
      inheritedValue={inheritedValue}
    />
  );

  return (
    <form onSubmit={onSubmit} noValidate className="limit-editor" data-testid="limit-editor">
      {/* controlled fields: typing before hydration would show text the state never sees */}
      <fieldset className="bare" disabled={!hydrated}>
        {inherited && (
          <p className="inherit-note">
            Overrides the inherited <strong>{describeRule(inherited)}</strong>. Leave a field empty to keep
            the inherited value.
          </p>
        )}
        <div className="grid-2">
          {text("name", "Name", "a-z, 0-9 and -; the same name as an inherited limit overrides it")}
          {pick("by", "Counted per", LIMIT_BY, inherited?.by)}
        </div>
        <AlgorithmPicker
          value={values.algorithm}
          onChange={set("algorithm")}
          inherited={inherited?.algorithm}
          canInherit={!isBase}
          error={shown("algorithm")}
        />
        <div className="grid-3">
          {text("limit", "Limit", "requests (cost units) per window", inherited?.limit?.toString())}
          {text(
            "window",
            "Window",
            "250ms, 1s, 5m, 1h or 1d",
            inherited?.windowMs ? formatDuration(inherited.windowMs) : "1s",
          )}
          {text("burst", "Burst", "optional; defaults to the limit", inherited?.burst?.toString())}
        </div>
        {(values.algorithm || inherited?.algorithm) === "calendar" && (
          <div className="grid-3">
            {pick("period", "Period", CALENDAR_PERIODS, inherited?.period)}
            {text(
              "timeZone",
              "Time zone",
              "IANA name; empty: the tenant's time zone, else UTC",
              inherited?.timeZone ?? "Europe/Berlin",
            )}
            <p className="muted" data-testid="calendar-reset">
              {calendarResetLine(values, inherited)}
            </p>
          </div>
        )}
        <div className="grid-3">
          {pick("action", "When over", ACTIONS, inherited?.action)}
          {text("maxDelay", "Longest delay", "with action delay (gcra, leaky bucket)")}
          {pick("mode", "Mode", MODES, inherited?.mode)}
        </div>
        <div className="grid-2">
          {pick("onStoreFailure", "If Redis is unreachable", STORE_FAILURE, inherited?.onStoreFailure)}
          {target.kind === "tenant" || target.kind === "key" ? (
            <RouteSelect
              routes={routes}
              value={values.route}
              onChange={set("route")}
              error={shown("route")}
            />
          ) : (
            <span />
          )}
        </div>
        <div className="grid-3">
          {pick("consistency", "Consistency", CONSISTENCY, inherited?.consistency)}
          {text(
            "syncEvery",
            "Sync every",
            "with consistency local: 10ms to 60s",
            inherited?.syncEveryMs ? formatDuration(inherited.syncEveryMs) : "100ms",
          )}
          <OverAdmissionBound rule={rule} setting={localSettingOf(values, inherited)} />
        </div>
        <div className="grid-2">
          {text(
            "penaltyBlock",
            "Penalty block",
            "optional: block the identity this long after a denial (5m)",
          )}
          {text("penaltyGrow", "Penalty grows", "optional: x this per repeat within the window (2)")}
        </div>
        <div className="grid-2">
          {text("penaltyMax", "Longest block", "with a growing penalty (1h)")}
          {text("penaltyWindow", "Repeats within", "with a growing penalty (1d)")}
        </div>
        <h3>How it treats a burst</h3>
        <BurstChart rule={rule} waitingFor={blocker ? `${blocker.label} ${blocker.message}` : null} />
        {replay && (
          <ReplayPanel
            target={target}
            by={((values.by || inherited?.by) as LimitBy | undefined) ?? null}
            route={values.route || inherited?.route || null}
            proposed={rule}
            current={currentRule}
            replay={replay}
          />
        )}
        <ProposedChange current={saved} proposed={values} isNew={originalName === null} />
        <FormErrors message={message} formError={errors._form} others={others} />
        <div className="form-actions">
          <button type="submit" disabled={pending}>
            {pending ? "Saving…" : "Save limit"}
          </button>
          <button type="button" className="secondary" onClick={() => router.push(backHref)}>
            Cancel
          </button>
        </div>
      </fieldset>
    </form>
  );
}
