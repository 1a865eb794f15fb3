// The lineChart kind's component, found by the registry (widgets/registry.ts) through this file.
export { LineChart as default } from './LineChart';
