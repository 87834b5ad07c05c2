"use client";

import { ALGORITHMS } from "@/lib/shared/limit-types";
import { ALGORITHM_HELP } from "@/components/limits/algorithms";

// The algorithm radio group; an override may also inherit the algorithm.

export function AlgorithmPicker(props: {
  value: string;
  onChange: (v: string) => void;
  /** the inherited algorithm's name; undefined on a base limit (no "Inherit" choice) */
  inherited?: string;
  canInherit: boolean;
  error?: string;
}) {
  return (
    <fieldset className="algorithms">
      <legend>Algorithm</legend>
      {props.canInherit && (
        <label className="algo">
          <input
            type="radio"
            name="algorithm"
            value=""
            checked={props.value === ""}
            onChange={() => props.onChange("")}
          />
          <span>
            <strong>Inherit</strong> <span className="muted">{props.inherited ?? ""}</span>
          </span>
        </label>
      )}
      {ALGORITHMS.map((a) => (
        <label key={a} className="algo">
          <input
            type="radio"
            name="algorithm"
            value={a}
            checked={props.value === a}
            onChange={() => props.onChange(a)}
          />
          <span>
            <strong>{ALGORITHM_HELP[a].title}</strong> <span className="muted">{ALGORITHM_HELP[a].line}</span>
          </span>
        </label>
      ))}
      {props.error && <small className="error">{props.error}</small>}
    </fieldset>
  );
}
