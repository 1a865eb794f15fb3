// The activeRing kind's component, found by the registry (widgets/registry.ts) through this file.
export { ActiveRing as default } from './ActiveRing';
