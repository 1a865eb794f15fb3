// What the API design and approval screens share: calls, unsaved-change tracking, the read-only facts,
// the status tag, the audit trail and statistics, and the submitted-vs-online comparison.
export * from './api';
export * from '../ui/leave';
export { StatusTag } from './StatusTag';
export { ApiFacts, ParamList } from './ApiFacts';
export { AuditTrail, CallStatsCard } from './History';
export { ConfigDiff } from './ConfigDiff';
export { PlanView } from './PlanView';
export { GroupSelect } from './GroupSelect';
