// The chinaMap kind's component, found by the registry (widgets/registry.ts) through this file.
export { ChinaMap as default } from './ChinaMap';
