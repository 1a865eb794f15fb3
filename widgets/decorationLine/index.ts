// The decorationLine kind's component, found by the registry (widgets/registry.ts) through this file.
export { DecorationLine as default } from './DecorationLine';
