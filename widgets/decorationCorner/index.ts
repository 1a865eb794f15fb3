// The decorationCorner kind's component, found by the registry (widgets/registry.ts) through this file.
export { DecorationCorner as default } from './DecorationCorner';
