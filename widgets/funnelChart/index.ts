// The funnelChart kind's component, found by the registry (widgets/registry.ts) through this file.
export { FunnelChart as default } from './FunnelChart';
