// The trendNumber kind's component, found by the registry (widgets/registry.ts) through this file.
export { TrendNumber as default } from './TrendNumber';
