// The progressRing kind's component, found by the registry (widgets/registry.ts) through this file.
export { ProgressRing as default } from './ProgressRing';
