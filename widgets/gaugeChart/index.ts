// The gaugeChart kind's component, found by the registry (widgets/registry.ts) through this file.
export { GaugeChart as default } from './GaugeChart';
