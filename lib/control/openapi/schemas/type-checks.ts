import type { z } from "zod";
import type { HealthReport } from "@/lib/control/data/health/health";
import type { AuditPage } from "@/lib/control/data/audit-log";
import type { CreatedKey } from "@/lib/control/data/api-keys";
import type { ResetResult } from "@/lib/control/data/counter-reset";
import type { CounterState } from "@/lib/control/data/counters";
import type { ImportResult } from "@/lib/control/data/import-config";
import type { DocumentReplays } from "@/lib/control/replay/document-replays";
import type { ReplayResult } from "@/lib/control/replay/types";
import type { ReplayResultSchema } from "@/lib/control/openapi/schemas/replay";
import type { CreatedToken } from "@/lib/control/data/tokens";
import type { DecisionBody, LimitReport } from "@/lib/check/types";
import type {
  AuditPageSchema,
  CounterStateSchema,
  CreatedKeySchema,
  CreatedTokenSchema,
  HealthSchema,
  ImportResultSchema,
  ResetResultSchema,
} from "@/lib/control/openapi/schemas/admin";
import type { DecisionSchema, LimitReportSchema } from "@/lib/control/openapi/schemas/check";
import type {
  HistoryPageSchema,
  LookupSchema,
  RollbackResultSchema,
  SimulationSchema,
} from "@/lib/control/openapi/schemas/ops-tools";
import type { Simulation } from "@/lib/control/data/simulate-check";
import type { Lookup } from "@/lib/control/ops/identifier-lookup";
import type { HistoryPage } from "@/lib/control/data/config-history";
import type { RollbackResult } from "@/lib/control/data/config-rollback";

// Compile-time drift guard: each response schema of the document has exactly the shape of
// the type its handler answers with. Change one without the other and typecheck fails.
// (The contract test checks the same against real answers at run time.)

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;

export type ResponseSchemaChecks = [
  Assert<Same<z.infer<typeof SimulationSchema>, Simulation>>,
  Assert<Same<z.infer<typeof LookupSchema>, Lookup>>,
  Assert<Same<z.infer<typeof HistoryPageSchema>, HistoryPage>>,
  Assert<Same<z.infer<typeof RollbackResultSchema>, RollbackResult>>,
  Assert<Same<z.infer<typeof DecisionSchema>, DecisionBody>>,
  Assert<Same<z.infer<typeof LimitReportSchema>, LimitReport>>,
  Assert<Same<z.infer<typeof HealthSchema>, HealthReport>>,
  Assert<Same<z.infer<typeof CounterStateSchema>, CounterState>>,
  Assert<Same<z.infer<typeof ResetResultSchema>, ResetResult>>,
  Assert<Same<z.infer<typeof AuditPageSchema>, AuditPage>>,
  Assert<
    Same<z.infer<typeof ImportResultSchema>, ImportResult & { dryRun: boolean; replay?: DocumentReplays }>
  >,
  Assert<Same<z.infer<typeof ReplayResultSchema>, ReplayResult>>,
  Assert<Same<z.infer<typeof CreatedTokenSchema>, CreatedToken>>,
  Assert<Same<z.infer<typeof CreatedKeySchema>, CreatedKey>>,
];
