// The stackedBarChart kind's component, found by the registry (widgets/registry.ts) through this file.
export { StackedBarChart as default } from './StackedBarChart';
