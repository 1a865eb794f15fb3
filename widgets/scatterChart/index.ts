// The scatterChart kind's component, found by the registry (widgets/registry.ts) through this file.
export { ScatterChart as default } from './ScatterChart';
