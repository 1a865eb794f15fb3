// The sankeyChart kind's component, found by the registry (widgets/registry.ts) through this file.
export { SankeyChart as default } from './SankeyChart';
