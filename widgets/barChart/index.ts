// The barChart kind's component, found by the registry (widgets/registry.ts) through this file.
export { BarChart as default } from './BarChart';
