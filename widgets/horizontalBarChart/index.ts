// The horizontalBarChart kind's component, found by the registry (widgets/registry.ts) through this file.
export { HorizontalBarChart as default } from './HorizontalBarChart';
