import type { OverrideChoice } from "@/lib/control/data/override-list";
import { formatDuration } from "@/lib/shared/duration";

// How the override form names a limit: with the values it has now, so whoever raises it
// sees from what ("api-rpm: 100 / 1m, burst 200"); a name with other values on some keys
// lists each, at most three.

const SHOWN = 3;

function ruleText(rule: OverrideChoice["rules"][number]): string {
  const rate = `${rule.limit.toLocaleString("en")} / ${formatDuration(rule.windowMs)}`;
  return rule.burst === null ? rate : `${rate}, burst ${rule.burst.toLocaleString("en")}`;
}

export function choiceLabel(choice: OverrideChoice): string {
  const shown = choice.rules.slice(0, SHOWN).map(ruleText).join(" or ");
  const more = choice.rules.length > SHOWN ? ` and ${choice.rules.length - SHOWN} more` : "";
  return `${choice.name}: ${shown}${more}`;
}
