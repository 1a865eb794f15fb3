// The heatmapChart kind's component, found by the registry (widgets/registry.ts) through this file.
export { HeatmapChart as default } from './HeatmapChart';
