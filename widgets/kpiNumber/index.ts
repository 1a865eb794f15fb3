// The kpiNumber kind's component, found by the registry (widgets/registry.ts) through this file.
export { KpiNumber as default } from './KpiNumber';
