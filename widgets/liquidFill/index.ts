// The liquidFill kind's component, found by the registry (widgets/registry.ts) through this file.
export { LiquidFill as default } from './LiquidFill';
