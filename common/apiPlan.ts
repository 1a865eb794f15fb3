// The query plan of an API's SQL as the server answers it (issue 25 §3; server-stub/modules/apiplatform/plan.ts)
// and the test pane and approval screen show it (runtime/apimgr/PlanView.tsx). Framework-free: both sides import it.

/** One step of a plan. */
export interface PlanNode {
  op: string;
  table?: string | null;
  rows?: number | null;
  cost?: number | null;
  detail?: string | null;
  children?: PlanNode[];
}

export type PlanWarningCode = 'fullScan' | 'noLimit' | 'crossJoin' | 'secretHidden';
export interface PlanWarning {
  code: PlanWarningCode;
  message: string;
}

/** The plan of an API's SQL with its values bound, taken with EXPLAIN only, and its warnings. */
export interface ApiPlan<Dialect extends string = string> {
  dialect: Dialect;
  estimatedRows: number | null;
  scanRows: number | null;
  cost: number | null;
  nodes: PlanNode[];
  /** the plan as the database answered it (left out when a secret is bound) */
  raw: unknown;
  warnings: PlanWarning[];
  /** the SQL as sent, with placeholders, and the values bound to them in order (secrets as ******) */
  sql: string;
  boundValues: unknown[];
  /** the cost guard: the rows compared, the threshold, and whether approving needs a reason */
  guardRows: number;
  /** guardRows is a count stopped at the threshold + 1 (SQLite without sqlite_stat1): the table has at least that many */
  guardCapped: boolean;
  threshold: number;
  reasonRequired: boolean;
}
