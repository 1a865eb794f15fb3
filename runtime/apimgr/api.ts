// The calls of the API design and approval screens (spec part 2 §7), paths relative to /api.
import { get, post } from '../core/request';
import type { ParamRow } from '../editors';

export interface ApiDesign {
  id: number;
  groupId: number | null;
  groupName: string | null;
  apiNum: string | null;
  apiName: string;
  apiComment: string;
  apiDesc: string | null;
  apiPath: string;
  latestApiVersion: number | null;
  onlineVersion: number | null;
  apiStatus: number;
  onlineStatus: number;
  designUser: string;
  designUserName: string | null;
  designTime: string;
  reqParamList: ParamRow[];
  respParamList: ParamRow[];
  approveResult: string | null;
  /** the design has a passed version */
  resolve: boolean;
  /** a newer version is in the works (draft, waiting, rejected, or passed and not online) while another serves */
  pending?: boolean;
  pendingVersion?: number | null;
  isPublic: number;
  dsName: string | null;
  cacheable: number;
  cacheTime: number | null;
}

export interface ApiConfig {
  id: number;
  apiId: number;
  apiName: string;
  apiComment: string;
  apiVersion: number | null;
  dsName: string | null;
  cacheable: number;
  cacheTime: number | null;
  /** issue 25 §4: a paged list API (1), the largest page it serves, the most rows it answers (null: defaults) */
  pageable?: number;
  pageSizeMax?: number | null;
  maxRows?: number | null;
  script: string | null;
  reqParamList: ParamRow[];
  respParamList: ParamRow[];
  reqParams: string;
  respResult: string | null;
  querySql: string | null;
  isPublic: number;
}

import type { ApiPlan } from '../../common/apiPlan';
export type { ApiPlan, PlanNode } from '../../common/apiPlan';

export interface ExecuteResult {
  respResult: unknown[];
  columns: string[];
  rowCount: number;
  truncated: boolean;
  querySql: string;
  boundValues: unknown[];
  /** the plan of the same SQL (null with planError when it could not be taken) */
  plan: ApiPlan | null;
  planError: string | null;
}

export interface VersionOption {
  value: number;
  label: string;
  approveUser: string;
  createTime: string;
}

export interface AuditEntry {
  id: number;
  action: string;
  actionLabel: string;
  version: number | null;
  userName: string;
  comment: string | null;
  /** the approver's reason for passing a plan above the cost threshold */
  costReason?: string | null;
  /** the plan's estimate when it was approved */
  planRows?: number | null;
  createTime: string;
}

export interface CallStats {
  count: number;
  errors: number;
  p50: number | null;
  p95: number | null;
  since: string;
}

export interface ApproveInfo {
  api: ApiDesign;
  submitted: ApiConfig;
  online: (ApiConfig & { apiVersion: number }) | null;
}

export interface ApiGroup {
  id: number;
  parentId: number;
  name: string;
  apiCount: number;
}

export type Decision = 'resolve' | 'reject' | 'resolveAndOnline';

const P = '/gemini/api';
export const apiCalls = {
  design: (id: number) => get<ApiDesign>(`${P}/design/info/get`, { id }),
  saveDesign: (body: Record<string, unknown>) => post<number>(`${P}/design/info/save`, body),
  submit: (id: number) => post<null>(`${P}/design/info/submit`, { id }),
  versions: (id: number) => get<VersionOption[]>(`${P}/design/versions`, { id }),
  version: (id: number, version: number) => get<ApiConfig & { approveUser: string; approveResult: string | null; createTime: string }>(`${P}/design/version/get`, { id, version }),
  config: (apiId: number) => get<ApiConfig>(`${P}/config/get`, { apiId }),
  saveConfig: (body: Record<string, unknown>) => post<number>(`${P}/config/save`, body),
  execute: (body: Record<string, unknown>) => post<ExecuteResult>(`${P}/execute`, body),
  plan: (body: Record<string, unknown>) => post<ApiPlan>(`${P}/design/plan`, body),
  approvePlan: (id: number) => get<ApiPlan>(`${P}/approve/plan`, { id }),
  groups: () => post<ApiGroup[]>(`${P}/group/select`),
  audit: (id: number) => get<AuditEntry[]>(`${P}/design/audit`, { id }),
  stats: (id: number) => get<CallStats>(`${P}/design/stats`, { id }),
  approveInfo: (id: number) => get<ApproveInfo>(`${P}/approve/info`, { id }),
  decide: (decision: Decision, id: number, approveResult: string, costReason?: string) =>
    post<null>(`${P}/approve/${decision}`, { id, approveCmdType: decision, approveResult, ...(costReason ? { costReason } : {}) }),
  dataSources: () => get<Array<{ value: string; label: string }>>('/gemini/datasource/select'),
};

export { versionLabel } from '../ui/format';
