// The radarChart kind's component, found by the registry (widgets/registry.ts) through this file.
export { RadarChart as default } from './RadarChart';
