// The doughnutChart kind's component, found by the registry (widgets/registry.ts) through this file.
export { DoughnutChart as default } from './DoughnutChart';
