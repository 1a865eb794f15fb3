// The flyLineMap kind's component, found by the registry (widgets/registry.ts) through this file.
export { FlyLineMap as default } from './FlyLineMap';
