// The treemapChart kind's component, found by the registry (widgets/registry.ts) through this file.
export { TreemapChart as default } from './TreemapChart';
