// The decorationDots kind's component, found by the registry (widgets/registry.ts) through this file.
export { DecorationDots as default } from './DecorationDots';
