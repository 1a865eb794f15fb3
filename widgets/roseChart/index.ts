// The roseChart kind's component, found by the registry (widgets/registry.ts) through this file.
export { RoseChart as default } from './RoseChart';
