// The pieChart kind's component, found by the registry (widgets/registry.ts) through this file.
export { PieChart as default } from './PieChart';
