// The areaChart kind's component, found by the registry (widgets/registry.ts) through this file.
export { AreaChart as default } from './AreaChart';
