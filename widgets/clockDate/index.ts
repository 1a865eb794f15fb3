// The clockDate kind's component, found by the registry (widgets/registry.ts) through this file.
export { ClockDate as default } from './ClockDate';
