// The barLineChart kind's component, found by the registry (widgets/registry.ts) through this file.
export { BarLineChart as default } from './BarLineChart';
